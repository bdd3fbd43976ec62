import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { type Socket } from 'node:net';
import rateLimit from '@fastify/rate-limit';
import { type LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { type FastifyError, type FastifyReply, type FastifyRequest } from 'fastify';
import { SAML_ACS_ROUTE, TokenAuthenticator } from '@app/identity';
import {
  HttpErrorFilter,
  KEY_STORE,
  type KeyStore,
  READ_STORE,
  type ReadStore,
  createValidationPipe,
  errorBody,
  parseJsonBody,
  serializeReply,
} from '@app/kernel';
import { AppModule, type AppOverrides } from './app.module';
import { type AppConfig } from './config';
import { ConnectionGuard } from './connection-guard';
import { installKeptResponses } from './kept-responses.hooks';
import { API_HEADERS, PAGE_HEADERS } from './security-headers';

const nestLogLevels: Record<string, LogLevel[] | false> = {
  silent: false,
  fatal: ['fatal'],
  error: ['fatal', 'error'],
  warn: ['fatal', 'error', 'warn'],
  info: ['fatal', 'error', 'warn', 'log'],
  debug: ['fatal', 'error', 'warn', 'log', 'debug'],
  trace: ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'],
};

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** An invite link's id is its secret: request logs show it masked. */
const INVITE_SECRET = /(\/(?:link-invites|invites)\/)[^/?]+/g;

/**
 * Requests Node cannot parse (headers too large, malformed, too slow) get an answer in the error shape that says
 * the connection closes, then it does.
 */
function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const message =
    status === 431 ? 'The request headers are too large' : status === 408 ? 'The request took too long' : 'Bad request';
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify(errorBody(status, message));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    () => socket.destroy(),
  );
}

/** Builds the whole HTTP application (used by main.ts, the end-to-end tests and the benchmarks). */
export async function createApp(config: AppConfig, overrides: AppOverrides = {}): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: config.bodyLimitBytes,
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            redact: ['req.headers.authorization', 'req.headers.cookie'],
            serializers: {
              req: (request: { method: string; url: string; hostname?: string; ip?: string }) => ({
                method: request.method,
                url: request.url.replace(INVITE_SECRET, '$1***'),
                hostname: request.hostname,
                remoteAddress: request.ip,
              }),
            },
          },
    // Honour a caller's X-Request-Id when it is sane, otherwise make one; every log line carries it as reqId.
    genReqId: (request: { headers: Record<string, string | string[] | undefined> }) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    requestIdHeader: false,
    // Path parameters up to 1,000 characters reach the routes, which refuse what is too long with a 400 that names
    // the parameter (an integration name is at most 100) instead of the router's bare 414.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 1000 },
    // Node's own check (every 30 s) backs up the connection guard's.
    requestTimeout: config.connections.requestTimeoutMs,
    clientErrorHandler: answerClientError,
    // Errors the router raises before any route runs (a path parameter over 1,000 characters: 414; a path that is
    // not valid percent-encoding: 400) are answered in the API's error shape too, without echoing the path.
    frameworkErrors: (error: FastifyError, _request: FastifyRequest, reply: FastifyReply) => {
      const status = typeof error.statusCode === 'number' && error.statusCode >= 400 ? error.statusCode : 400;
      const message =
        error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? 'a path parameter is longer than 1000 characters'
          : error.code === 'FST_ERR_BAD_URL'
            ? 'the path is not valid percent-encoding'
            : 'the request could not be routed';
      void reply.code(status).send(errorBody(status, message));
    },
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, overrides), adapter, {
    logger: nestLogLevels[config.logLevel] ?? nestLogLevels.info,
    abortOnError: false,
    bodyParser: false,
  });
  const fastify = app.getHttpAdapter().getInstance();
  // A route may read larger bodies than BODY_LIMIT_BYTES by declaring `@RouteConfig({ bodyLimit })` (publishing
  // an integration, with its images); routes are registered by app.init() below, after this hook.
  fastify.addHook('onRoute', (route) => {
    const bodyLimit = (route.config as { bodyLimit?: unknown } | undefined)?.bodyLimit;
    if (typeof bodyLimit === 'number') route.bodyLimit = Math.max(bodyLimit, config.bodyLimitBytes);
  });
  const connections = new ConnectionGuard(fastify.server, config.connections);
  fastify.addHook('preValidation', (request, _reply, done) => {
    connections.handling(request.raw.socket);
    done();
  });

  // A JSON API reads JSON only: any other content type is 415, and a JSON body is checked for depth, key counts
  // and valid Unicode while it is read, before validation spends time on it.
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  // One exception: an identity provider's browser POSTs a form (SAMLResponse, RelayState) to the SAML ACS route.
  // Every other URL refuses a form as it refuses any non-JSON body; the body limit is the same.
  fastify.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (request, body, done) => {
    if (!SAML_ACS_ROUTE.test(request.url)) {
      done(Object.assign(new Error('Unsupported Media Type: application/x-www-form-urlencoded'), { statusCode: 415 }));
      return;
    }
    const form: Record<string, string> = Object.create(null) as Record<string, string>;
    for (const [key, value] of new URLSearchParams(body as string)) {
      if (key in form) {
        done(Object.assign(new Error(`${key} is given more than once`), { statusCode: 400 }));
        return;
      }
      form[key] = value;
    }
    done(null, { ...form });
  });

  // Kept answers (see KeptBodies) are sent from their kept JSON bytes; anything else is serialised as usual.
  // (Fastify's type says a serializer gives a string; it sends a Buffer as it is, as a handler's Buffer.)
  fastify.setReplySerializer(serializeReply as (payload: unknown) => string);
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.headers(request.url.startsWith('/docs') ? PAGE_HEADERS : API_HEADERS).header('x-request-id', request.id);
    done();
  });
  if (config.rateLimit.enabled) {
    // The limiter keys on who the caller is, so each request is authenticated first (the guard reuses the result):
    // a valid token has its own allowance whatever the header's spelling, while anonymous calls and failed
    // authentications share their address's, which slows down anyone guessing tokens.
    const authenticator = app.get(TokenAuthenticator);
    fastify.addHook('onRequest', async (request) => {
      if (request.url !== '/health') await authenticator.ofRequest(request);
    });
    await app.register(rateLimit as never, {
      global: true,
      max: config.rateLimit.max,
      timeWindow: config.rateLimit.windowMs,
      allowList: (request: { url: string }) => request.url === '/health',
      keyGenerator: async (request: FastifyRequest) => {
        const authentication = await authenticator.ofRequest(request);
        return authentication.ok ? `token:${authentication.tokenId}` : `ip:${request.ip}`;
      },
      errorResponseBuilder: (_request: unknown, context: { after: string }) => {
        const error = errorBody(429, `Rate limit exceeded: retry in ${context.after}`) as ReturnType<
          typeof errorBody
        > & {
          statusCode: number;
        };
        // @fastify/rate-limit throws what this returns; statusCode lets the error handler keep 429
        Object.defineProperty(error, 'statusCode', { value: 429, enumerable: false });
        return error;
      },
    });
  }

  // Registered after the rate limiter: kept answers are given after its hook (see kept-responses.hooks.ts).
  installKeptResponses(fastify, app.get<ReadStore>(READ_STORE), app.get<KeyStore>(KEY_STORE), connections);

  app.setGlobalPrefix('v1', { exclude: ['health'] });
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new HttpErrorFilter());
  app.enableShutdownHooks();

  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Quire')
      .setDescription('Self-hostable, event-sourced documentation platform management API (GitBook v1 compatible).')
      .setVersion('0.1.0')
      .addServer(config.publicUrl)
      .addBearerAuth(
        { type: 'http', scheme: 'bearer', description: 'An API token (see README: getting a token)' },
        'user',
      )
      .addSecurityRequirements('user')
      .build(),
  );
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'openapi.json',
    useGlobalPrefix: false,
    ui: true,
    raw: ['json'],
  });

  await app.init();
  await fastify.ready();
  return app;
}
