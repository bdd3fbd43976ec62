import { Injectable } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { type FastifyReply } from 'fastify';
import { type Actor, Runtime, etagOf, type IfMatch, keepResponse } from '@app/kernel';
import { ChangeSiteCommand, type SiteChange, type SiteChanged } from './change-site/change-site.command';
import { ReadSiteQuery, type SiteRead } from './read-site/read-site.query';
import { PUBLISHING_READ_MODELS } from './read-models';
import { SiteAccess } from './site-access';

/** What every site endpoint does around its own part: send the change, wait for the read model, read the answer. */
@Injectable()
export class SiteEndpoints {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly runtime: Runtime,
    private readonly access: SiteAccess,
  ) {}

  /** For use cases that check more (such as the spaces they add) once the caller is known to be an admin. */
  async requireAdmin(actor: Actor, organizationId: string): Promise<void> {
    await this.access.requireOrganization(organizationId, actor.userId, 'admin', 'change its sites');
  }

  async change(actor: Actor, change: SiteChange, ifMatch?: IfMatch): Promise<SiteChanged> {
    const result = await this.commands.execute(new ChangeSiteCommand(actor.userId, change, actor.requestId, ifMatch));
    await this.runtime.settle(result.position, PUBLISHING_READ_MODELS);
    return result;
  }

  async read(actor: Actor, organizationId: string, siteId: string, read: SiteRead, reply?: FastifyReply) {
    const view = await this.queries.execute(new ReadSiteQuery(organizationId, siteId, actor.userId, read));
    if (reply) {
      void reply.header('etag', etagOf(view.version));
      // made from the read store alone (a GET may be answered again from it; see KeptResponses)
      keepResponse(reply);
    }
    return view.body;
  }

  /** Answers 201 with the new part and its address. */
  async created(
    actor: Actor,
    organizationId: string,
    siteId: string,
    read: SiteRead,
    reply: FastifyReply,
    path: string,
  ) {
    const body = await this.read(actor, organizationId, siteId, read, reply);
    void reply.header('location', path);
    return body;
  }
}
