import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { type FastifyReply } from 'fastify';
import { DomainError, type DomainErrorKind } from '../domain/errors';

const statusOfKind: Record<DomainErrorKind, number> = {
  validation: 400,
  unauthenticated: 401,
  forbidden: 403,
  'not-found': 404,
  'illegal-state': 409,
  conflict: 409,
  'precondition-failed': 412,
  timeout: 503,
  'too-many': 429,
  unavailable: 503,
};

const defaultMessages: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  409: 'Conflict',
  412: 'Precondition failed',
  413: 'Request body is too large',
  415: 'Unsupported media type',
  429: 'Too many requests',
  500: 'Internal server error',
  503: 'Service unavailable',
};

/** The one place errors become HTTP: `{"error": {"code": <status>, "message": "..."}}`, never a stack trace. */
export function errorBody(status: number, message?: string) {
  return { error: { code: status, message: message || defaultMessages[status] || 'Error' } };
}

/** Maps any thrown value to a status and a message safe to show. */
export function describeError(exception: unknown): { status: number; message: string } {
  if (exception instanceof DomainError) return { status: statusOfKind[exception.kind], message: exception.message };
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const response = exception.getResponse();
    let message: string | undefined;
    if (typeof response === 'string') message = response;
    else if (response && typeof response === 'object') {
      const raw = (response as { message?: unknown }).message;
      message = Array.isArray(raw) ? raw.join('; ') : typeof raw === 'string' ? raw : undefined;
    }
    if (status === 404 && message?.startsWith('Cannot ')) message = `No route for ${message.slice(7)}`;
    return {
      status,
      message: status >= 500 ? (defaultMessages[status] ?? 'Error') : (message ?? defaultMessages[status]),
    };
  }
  // Errors raised by Fastify itself (body too large, malformed JSON, wrong content type) carry a statusCode.
  const fastifyError = exception as {
    statusCode?: unknown;
    code?: unknown;
    message?: unknown;
    error?: { message?: unknown };
  };
  if (typeof fastifyError?.statusCode === 'number' && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    const status = fastifyError.statusCode;
    const message =
      fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || fastifyError.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
        ? 'The request body is not valid JSON'
        : status === 413
          ? defaultMessages[413]
          : typeof fastifyError.message === 'string'
            ? fastifyError.message
            : // a body already in the error shape (the rate limiter's)
              typeof fastifyError.error?.message === 'string'
              ? fastifyError.error.message
              : defaultMessages[status];
    return { status, message };
  }
  return { status: 500, message: defaultMessages[500] };
}

@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpErrorFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const { status, message } = describeError(exception);
    if (status >= 500) this.logger.error((exception as Error)?.stack ?? String(exception));
    if (status === 503) reply.header('Retry-After', '1');
    void reply
      .status(status)
      .header('content-type', 'application/json; charset=utf-8')
      .send(errorBody(status, message));
  }
}
