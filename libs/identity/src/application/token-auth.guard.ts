import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { type Actor, IS_PUBLIC } from '@app/kernel';
import { TokenAuthenticator } from './token-authenticator';

export { TOKEN_LOOKUP_PROJECTION } from './token-authenticator';

/** Every route needs a valid token unless it is marked public; the caller becomes the request's actor. */
@Injectable()
export class TokenAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: TokenAuthenticator,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const request = context
      .switchToHttp()
      .getRequest<{ headers: Record<string, unknown>; actor?: Actor; id?: string }>();
    const authentication = await this.authenticator.ofRequest(request);
    if (!authentication.ok) throw authentication.error;
    request.actor = { userId: authentication.userId, tokenId: authentication.tokenId, requestId: request.id };
    return true;
  }
}

/** The projections that list a user's tokens. */
export const API_TOKEN_PROJECTION = 'api-tokens';
