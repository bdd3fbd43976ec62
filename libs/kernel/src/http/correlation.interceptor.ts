import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { type Observable } from 'rxjs';
import { withCorrelation } from '../runtime/correlation';

/** Handles each request under its request id as correlation id (Nest runs the handler in the scope set here). */
@Injectable()
export class CorrelationInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const { id } = context.switchToHttp().getRequest<{ id?: unknown }>();
    return typeof id === 'string' && id.length > 0 ? withCorrelation(id, () => next.handle()) : next.handle();
  }
}
