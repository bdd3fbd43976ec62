import { createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';

/** Who is calling: set by the authentication guard. */
export interface Actor {
  userId: string;
  tokenId: string;
  /** The request's id (`X-Request-Id`), which commands record as their events' correlation id. */
  requestId?: string;
}

export const IS_PUBLIC = 'quire:public';
/** Marks a route that needs no token (health, API description). */
export const Public = () => SetMetadata(IS_PUBLIC, true);

export const CurrentActor = createParamDecorator((_data: unknown, context: ExecutionContext): Actor => {
  const request = context.switchToHttp().getRequest<{ actor?: Actor }>();
  if (!request.actor) throw new Error('CurrentActor used on a route without authentication');
  return request.actor;
});
