import 'reflect-metadata';
import { createHash, randomUUID } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import { type LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { HttpErrorFilter, createValidationPipe, errorBody } from '@app/kernel';
import { AppModule, type AppOverrides } from './app.module';
import { type AppConfig } from './config';
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
    routerOptions: { ignoreTrailingSlash: true },
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, overrides), adapter, {
    logger: nestLogLevels[config.logLevel] ?? nestLogLevels.info,
    abortOnError: false,
  });
  const fastify = app.getHttpAdapter().getInstance();

  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.headers(request.url.startsWith('/docs') ? PAGE_HEADERS : API_HEADERS).header('x-request-id', request.id);
    done();
  });
  if (config.rateLimit.enabled) {
    await app.register(rateLimit as never, {
      global: true,
      max: config.rateLimit.max,
      timeWindow: config.rateLimit.windowMs,
      allowList: (request: { url: string }) => request.url === '/health',
      // One bucket per token (hashed, never kept in clear), or per address for anonymous calls.
      keyGenerator: (request: { headers: Record<string, unknown>; ip: string }) => {
        const authorization = request.headers.authorization;
        return typeof authorization === 'string'
          ? createHash('sha256').update(authorization).digest('base64url')
          : `ip:${request.ip}`;
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
