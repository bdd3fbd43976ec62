import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { type Actor, IS_PUBLIC, READ_STORE, type ReadStore, Runtime, Unauthenticated } from '@app/kernel';
import { type TokenHashDoc } from '../projections/api-tokens.projection';
import { API_TOKEN_HASHES } from './read-models';
import { TOKEN_PREFIX, hashToken, sameHash } from './tokens';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Authenticates every request with `Authorization: Bearer <token>`. A token is looked up by its hash; a token
 * that is unknown to the read model is looked up once more after the projections caught up with the store, so a
 * token the CLI just created works at once. Revoked tokens fail on the next request.
 */
@Injectable()
export class TokenAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(READ_STORE) private readonly store: ReadStore,
    private readonly runtime: Runtime,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const request = context
      .switchToHttp()
      .getRequest<{ headers: Record<string, unknown>; actor?: Actor; id?: string }>();
    const header = request.headers.authorization;
    if (typeof header !== 'string') throw new Unauthenticated('Missing Authorization header: use "Bearer <token>"');
    const match = BEARER.exec(header);
    if (!match || !match[1].startsWith(TOKEN_PREFIX)) throw new Unauthenticated('Invalid API token');
    const hash = hashToken(match[1]);
    let token = await this.store.get<TokenHashDoc>(API_TOKEN_HASHES, hash);
    if (!token) {
      await this.runtime.catchUp([TOKEN_LOOKUP_PROJECTION]);
      token = await this.store.get<TokenHashDoc>(API_TOKEN_HASHES, hash);
    }
    if (!token || !sameHash(token.id, hash)) throw new Unauthenticated('Invalid API token');
    if (token.revokedAt) throw new Unauthenticated('This API token has been revoked');
    request.actor = { userId: token.userId, tokenId: token.tokenId, requestId: request.id };
    return true;
  }
}

/** The projection the guard reads (a token the CLI just created is waited for once). */
export const TOKEN_LOOKUP_PROJECTION = 'token-hashes';

/** The projections that list a user's tokens. */
export const API_TOKEN_PROJECTION = 'api-tokens';
