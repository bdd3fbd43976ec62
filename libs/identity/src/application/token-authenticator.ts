import { Inject, Injectable } from '@nestjs/common';
import { type DomainError, READ_STORE, type ReadStore, Runtime, Unauthenticated } from '@app/kernel';
import { type TokenHashDoc } from '../projections/api-tokens.projection';
import { API_TOKEN_HASHES } from './read-models';
import { TOKEN_PREFIX, hashToken } from './tokens';

/** The scheme is case-insensitive and any run of spaces may follow it (RFC 9110 §11.1). */
const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** Who a request's `Authorization` header names, or why it names no one. */
export type Authentication =
  { ok: true; userId: string; tokenId: string } | { ok: false; error: DomainError; presented: boolean };

/** Where a request keeps its one authentication, so that the rate limiter and the guard share it. */
const AUTHENTICATION = Symbol('quire:authentication');

interface AuthenticatedRequest {
  headers: Record<string, unknown>;
  [AUTHENTICATION]?: Promise<Authentication>;
}

/**
 * Reads `Authorization: Bearer <token>`. A token is looked up by its hash; one unknown to the read model is
 * looked up once more after the projections caught up with the store, so a token the CLI just created works at
 * once. Revoked tokens fail on the next request.
 */
@Injectable()
export class TokenAuthenticator {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    private readonly runtime: Runtime,
  ) {}

  /** Authenticates a request once, however many times it is asked (rate limiter, then guard). */
  ofRequest(request: AuthenticatedRequest): Promise<Authentication> {
    return (request[AUTHENTICATION] ??= this.authenticate(request.headers.authorization));
  }

  async authenticate(header: unknown): Promise<Authentication> {
    if (typeof header !== 'string') {
      return refused('Missing Authorization header: use "Bearer <token>"', false);
    }
    const match = BEARER.exec(header);
    if (!match || !match[1].startsWith(TOKEN_PREFIX)) return refused('Invalid API token', true);
    const hash = hashToken(match[1]);
    let token = await this.store.get<TokenHashDoc>(API_TOKEN_HASHES, hash);
    if (!token) {
      await this.runtime.catchUp([TOKEN_LOOKUP_PROJECTION]);
      token = await this.store.get<TokenHashDoc>(API_TOKEN_HASHES, hash);
    }
    // The document is found by the hash itself (its id): there is nothing left to compare.
    if (!token) return refused('Invalid API token', true);
    if (token.revokedAt) return refused('This API token has been revoked', true);
    return { ok: true, userId: token.userId, tokenId: token.tokenId };
  }
}

function refused(message: string, presented: boolean): Authentication {
  return { ok: false, error: new Unauthenticated(message), presented };
}

/** The projection the authenticator reads (a token the CLI just created is waited for once). */
export const TOKEN_LOOKUP_PROJECTION = 'token-hashes';
