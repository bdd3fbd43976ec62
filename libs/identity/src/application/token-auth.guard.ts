import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { type Actor, IS_PUBLIC } from '@app/kernel';
import { TokenAuthenticator } from './token-authenticator';

export { TOKEN_LOOKUP_PROJECTION } from './token-authenticator';

/** Every route needs a valid token unless it is marked public; the caller becomes the request's actor. */
@Injectable()
export class TokenAuthGuard implements CanActivate {
  /**
   * Whether each route (controller class and handler: a handler inherited by two classes is two routes) is public:
   * decorators are all applied before the first request, so it is read once.
   */
  private readonly publicRoutes = new WeakMap<object, WeakMap<object, boolean>>();

  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: TokenAuthenticator,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const controller = context.getClass();
    const handler = context.getHandler();
    let routes = this.publicRoutes.get(controller);
    if (!routes) this.publicRoutes.set(controller, (routes = new WeakMap()));
    let isPublic = routes.get(handler);
    if (isPublic === undefined) {
      isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [handler, controller]) === true;
      routes.set(handler, isPublic);
    }
    if (isPublic) return true;
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
