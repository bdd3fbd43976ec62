import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  CLOCK,
  type Clock,
  EVENT_STORE,
  type EventStore,
  IllegalState,
  READ_STORE,
  type ReadStore,
  metadataFor,
} from '@app/kernel';
import { type PageInput, type PageNode, type RevisionCreated, TITLE_MAX, revisionStream } from '../../domain';
import { type CreatedSpace, createSpace } from '../create-space/create-space.command';
import { ContentAccess } from '../content-access';
import { placeAmong } from '../placement';

export class DuplicateSpaceCommand extends Command<CreatedSpace> {
  constructor(
    readonly spaceId: string,
    readonly userId: string,
    readonly correlationId: string | undefined,
  ) {
    super();
  }
}

const asInput = (page: PageNode): PageInput => ({
  id: page.id,
  title: page.title,
  slug: page.slug,
  markdown: page.markdown,
  hidden: page.hidden,
  ...(page.description !== undefined ? { description: page.description } : {}),
  ...(page.emoji !== undefined ? { emoji: page.emoji } : {}),
  pages: page.pages.map(asInput),
});

/**
 * A new space next to the original with a copy of its current content in a revision of its own: the copy shares
 * no state with its source. The content is read from the source revision's stream, not from a read model.
 */
@CommandHandler(DuplicateSpaceCommand)
export class DuplicateSpaceHandler implements ICommandHandler<DuplicateSpaceCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly access: ContentAccess,
  ) {}

  async execute({ spaceId, userId, correlationId }: DuplicateSpaceCommand): Promise<CreatedSpace> {
    const { space } = await this.access.requireSpace(spaceId, userId, 'read', 'duplicate it');
    await this.access.requireCreateIn(space.organizationId, space.parent, userId);
    const [source] = await this.events.readStream(revisionStream(space.revision), { maxCount: 1 });
    if (!source) throw new IllegalState(`the content of space ${spaceId} cannot be read`);
    const content = source.data as RevisionCreated['data'];
    const suffix = ' (copy)';
    const title = `${space.title.slice(0, TITLE_MAX - suffix.length)}${suffix}`;
    const sortKey = await placeAmong(this.reads, space.organizationId, space.parent, {
      after: { type: 'space', space: space.id },
    });
    return createSpace(this.events, this.reads, metadataFor(this.clock, userId, { correlationId }), {
      organizationId: space.organizationId,
      title,
      emoji: space.emoji,
      parent: space.parent,
      pages: content.pages.map(asInput),
      files: content.files.map((file) => ({ ...file })),
      duplicatedFrom: space.id,
      sortKey,
    });
  }
}
