import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  CLOCK,
  type Clock,
  type CommandMetadata,
  type CommandResult,
  EVENT_STORE,
  type EventStore,
  READ_STORE,
  type ReadStore,
  handleCommand,
  metadataFor,
  newId,
} from '@app/kernel';
import {
  type EditMode,
  type FileNode,
  type PageInput,
  revisionDecider,
  revisionStream,
  spaceDecider,
  spaceStream,
} from '../../domain';
import { ContentAccess } from '../content-access';
import { placeAmong } from '../placement';

export interface CreatedSpace extends CommandResult {
  spaceId: string;
}

export interface NewSpace {
  organizationId: string;
  title: string;
  emoji?: string;
  parent: string | null;
  editMode?: EditMode;
  /** Content of the first revision (empty for a new space, a copy for a duplicate). */
  pages?: PageInput[];
  files?: FileNode[];
  duplicatedFrom?: string;
  sortKey?: number;
}

/** Appends a space with its first revision (the revision first: a space never points at a missing revision). */
export async function createSpace(
  events: EventStore,
  reads: ReadStore,
  metadata: CommandMetadata,
  space: NewSpace,
): Promise<CreatedSpace> {
  const spaceId = newId();
  const revisionId = newId();
  const sortKey = space.sortKey ?? (await placeAmong(reads, space.organizationId, space.parent, undefined));
  const createCommand = {
    type: 'CreateSpace' as const,
    data: {
      spaceId,
      organizationId: space.organizationId,
      title: space.title,
      ...(space.emoji !== undefined ? { emoji: space.emoji } : {}),
      revisionId,
      parent: space.parent,
      sortKey,
      ...(space.duplicatedFrom ? { duplicatedFrom: space.duplicatedFrom } : {}),
    },
    metadata,
  };
  // Decide on the new space before anything is written: a refused title must not leave an orphan revision.
  spaceDecider.decide(createCommand, spaceDecider.initialState());
  await handleCommand(events, revisionDecider, revisionStream(revisionId), {
    type: 'CreateRevision',
    data: { revisionId, spaceId, parents: [], type: 'edits', pages: space.pages ?? [], files: space.files ?? [] },
    metadata,
  });
  const created = await handleCommand(events, spaceDecider, spaceStream(spaceId), createCommand);
  let result = created;
  if (space.editMode === 'locked') {
    result = await handleCommand(events, spaceDecider, spaceStream(spaceId), {
      type: 'UpdateSpace',
      data: { spaceId, changes: { editMode: 'locked' } },
      metadata,
    });
  }
  return { spaceId, position: result.position, revision: result.revision };
}

export class CreateSpaceCommand extends Command<CreatedSpace> {
  constructor(
    readonly userId: string,
    readonly space: NewSpace,
    readonly correlationId: string | undefined,
  ) {
    super();
  }
}

@CommandHandler(CreateSpaceCommand)
export class CreateSpaceHandler implements ICommandHandler<CreateSpaceCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly access: ContentAccess,
  ) {}

  async execute({ userId, space, correlationId }: CreateSpaceCommand): Promise<CreatedSpace> {
    await this.access.requireCreateIn(space.organizationId, space.parent, userId);
    return createSpace(this.events, this.reads, metadataFor(this.clock, userId, { correlationId }), space);
  }
}
