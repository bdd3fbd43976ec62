'use strict';
/**
 * The framework's ceiling for a GET: Nest on Fastify with the same framework features the service's GET routes
 * go through (a global ValidationPipe configured as the service's, a global guard that reads the Authorization
 * header and sets an actor, a custom parameter decorator, `@Param`, `@Res({ passthrough })`, a QueryBus dispatch
 * and an ETag header), answering a constant body (BASELINE_BODY_FILE) with no read at all. What the service's own
 * code costs is the distance between this server and the service on the same route.
 */
require('reflect-metadata');
const { readFileSync } = require('node:fs');
const {
  Controller,
  Get,
  Injectable,
  Module,
  Param,
  Res,
  ValidationPipe,
  createParamDecorator,
} = require('@nestjs/common');
const { APP_GUARD, NestFactory, Reflector } = require('@nestjs/core');
const { CqrsModule, Query, QueryBus, QueryHandler } = require('@nestjs/cqrs');
const { FastifyAdapter } = require('@nestjs/platform-fastify');

const body = JSON.parse(readFileSync(process.env.BASELINE_BODY_FILE, 'utf8'));

const CurrentActor = createParamDecorator((_data, context) => context.switchToHttp().getRequest().actor);

class Guard {
  constructor(reflector) {
    this.reflector = reflector;
  }
  async canActivate(context) {
    if (this.reflector.getAllAndOverride('public', [context.getHandler(), context.getClass()])) return true;
    const request = context.switchToHttp().getRequest();
    if (typeof request.headers.authorization !== 'string') return false;
    request.actor = { userId: 'user', requestId: request.id };
    return true;
  }
}
Reflect.decorate([Injectable(), Reflect.metadata('design:paramtypes', [Reflector])], Guard);

class GetThing extends Query {
  constructor(id) {
    super();
    this.id = id;
  }
}
class GetThingHandler {
  async execute() {
    return { body, revision: 1 };
  }
}
Reflect.decorate([QueryHandler(GetThing), Injectable()], GetThingHandler);

class ThingController {
  constructor(queries) {
    this.queries = queries;
  }
  async get(_actor, id, reply) {
    const { body: answer, revision } = await this.queries.execute(new GetThing(id));
    void reply.header('etag', `"${revision}"`);
    return answer;
  }
}
Reflect.decorate([Controller(), Reflect.metadata('design:paramtypes', [QueryBus])], ThingController);
Reflect.decorate(
  [
    Get(['v1/:kind/:id', 'v1/:kind/:id/:sub', 'v1/:kind/:id/:sub/:subId']),
    Reflect.metadata('design:paramtypes', [Object, String, Object]),
  ],
  ThingController.prototype,
  'get',
  Object.getOwnPropertyDescriptor(ThingController.prototype, 'get'),
);
CurrentActor()(ThingController.prototype, 'get', 0);
Param('id')(ThingController.prototype, 'get', 1);
Res({ passthrough: true })(ThingController.prototype, 'get', 2);

class CeilingModule {}
Module({
  imports: [CqrsModule.forRoot()],
  controllers: [ThingController],
  providers: [GetThingHandler, { provide: APP_GUARD, useClass: Guard }],
})(CeilingModule);

async function main() {
  const app = await NestFactory.create(CeilingModule, new FastifyAdapter(), { logger: false });
  app.useGlobalPipes(
    new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true, transform: true }),
  );
  await app.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
  process.stdout.write(`${app.getHttpServer().address().port}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
