import { BadRequestException, NotFoundException } from '@nestjs/common';
import { DomainError, IllegalState, NotFound, PreconditionFailed, TimedOut, ValidationFailed } from '../domain/errors';
import { describeError, errorBody } from './error.filter';

describe('error mapping', () => {
  it('maps domain error kinds to statuses, keeping their messages', () => {
    expect(describeError(new ValidationFailed('title is too long'))).toEqual({
      status: 400,
      message: 'title is too long',
    });
    expect(describeError(new NotFound('Space x not found'))).toEqual({ status: 404, message: 'Space x not found' });
    expect(describeError(new IllegalState('last admin'))).toEqual({ status: 409, message: 'last admin' });
    expect(describeError(new DomainError('conflict', 'busy'))).toEqual({ status: 409, message: 'busy' });
    expect(describeError(new PreconditionFailed('stale'))).toEqual({ status: 412, message: 'stale' });
    expect(describeError(new TimedOut('slow'))).toEqual({ status: 503, message: 'slow' });
  });

  it('hides the details of unexpected errors', () => {
    const error = new Error('SQLITE_CORRUPT at /secret/path');
    expect(describeError(error)).toEqual({ status: 500, message: 'Internal server error' });
    expect(describeError('a string')).toEqual({ status: 500, message: 'Internal server error' });
    expect(JSON.stringify(errorBody(500))).toBe('{"error":{"code":500,"message":"Internal server error"}}');
  });

  it('keeps the messages of framework errors, and names unknown routes', () => {
    expect(describeError(new BadRequestException('limit must not be greater than 1000'))).toEqual({
      status: 400,
      message: 'limit must not be greater than 1000',
    });
    expect(describeError(new NotFoundException('Cannot GET /v1/nowhere'))).toEqual({
      status: 404,
      message: 'No route for GET /v1/nowhere',
    });
  });

  it('maps errors Fastify raises before routing', () => {
    expect(describeError({ statusCode: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE', message: 'too large' })).toEqual({
      status: 413,
      message: 'Request body is too large',
    });
    expect(
      describeError({ statusCode: 400, code: 'FST_ERR_CTP_INVALID_JSON_BODY', message: 'Unexpected token' }),
    ).toEqual({
      status: 400,
      message: 'The request body is not valid JSON',
    });
    const limited = Object.defineProperty(errorBody(429, 'Rate limit exceeded: retry in 1 minute'), 'statusCode', {
      value: 429,
    });
    expect(describeError(limited)).toEqual({ status: 429, message: 'Rate limit exceeded: retry in 1 minute' });
  });
});
