import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import {
  type Actor,
  CurrentActor,
  DEFAULT_LIMIT,
  type GlobalPosition,
  type PublicEvent,
  START,
  ValidationFailed,
  positionToString,
} from '@app/kernel';
import { FeedStreams } from './event-stream';
import { OrganizationFeed } from './organization-feed';
import { FeedParams, POSITION } from './read-feed.request';

/** `0` is the beginning; any other position resumes after that event. */
function positionFrom(text: string, name: string): GlobalPosition {
  if (!POSITION.test(text))
    throw new ValidationFailed(`${name}: must be a position (a decimal number; 0 is the beginning)`);
  const position = BigInt(text);
  return position === 0n ? START : position;
}

function wantsStream(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  return typeof accept === 'string' && /(^|,)\s*text\/event-stream\s*(;|,|$)/i.test(accept);
}

@ApiTags('events')
@Controller()
export class ReadFeedController {
  constructor(
    private readonly feed: OrganizationFeed,
    private readonly streams: FeedStreams,
  ) {}

  @Get('orgs/:organizationId/events')
  @ApiOperation({
    operationId: 'listOrganizationEvents',
    summary:
      "The organization's public events in global order, those the caller may read now (beyond the spec). With " +
      '`Accept: text/event-stream`, a stream of Server-Sent Events that resumes after `Last-Event-ID`.',
  })
  @ApiProduces('application/json', 'text/event-stream')
  async read(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Query() params: FeedParams,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    if (params.after !== undefined && params.page !== undefined) {
      throw new ValidationFailed('page: give either after or page (a next.page), not both');
    }
    const types = this.feed.types(params.types);
    const reader = await this.feed.reader(organizationId, actor.userId);
    if (wantsStream(request)) {
      const lastEventId = request.headers['last-event-id'];
      let after: GlobalPosition;
      if (typeof lastEventId === 'string' && lastEventId.trim() !== '')
        after = positionFrom(lastEventId.trim(), 'Last-Event-ID');
      else if (params.after !== undefined || params.page !== undefined)
        after = positionFrom((params.after ?? params.page)!, 'after');
      else after = this.feed.head();
      this.streams.start(reply, {
        reader,
        tokenId: actor.tokenId,
        authorization: request.headers.authorization,
        after,
        types,
      });
      return;
    }
    const after = params.after ?? params.page;
    const page = await this.feed.page(reader, {
      after: after === undefined ? START : positionFrom(after, params.after !== undefined ? 'after' : 'page'),
      limit: params.limit ?? DEFAULT_LIMIT,
      types,
    });
    const body: { items: PublicEvent[]; next?: { page: string } } = { items: page.events };
    if (page.more) body.next = { page: positionToString(page.scannedTo) };
    await reply.send(body);
  }
}
