import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  CLOCK,
  type Clock,
  type CommandResult,
  EVENT_STORE,
  type EventStore,
  READ_STORE,
  type ReadStore,
  ValidationFailed,
  handleCommand,
  metadataFor,
  newId,
} from '@app/kernel';
import { ContentAccess, type PageInput, createSpace, slugify } from '@app/content';
import { type NewSiteSpace, type SiteType, type SiteVisibility, siteDecider, siteStream } from '../../domain';
import { SiteAccess } from '../site-access';
import { MAX_INITIAL_SPACES } from './create-site.request';
import { spaceForSite } from '../site-spaces';

export interface CreatedSite extends CommandResult {
  siteId: string;
}

export class CreateSiteCommand extends Command<CreatedSite> {
  constructor(
    readonly organizationId: string,
    readonly userId: string,
    readonly site: {
      type: SiteType;
      title: string;
      visibility: SiteVisibility;
      spaces: string[] | 'empty' | 'sample';
    },
    readonly correlationId: string | undefined,
  ) {
    super();
  }
}

const SAMPLE_PAGES = (): PageInput[] => [
  {
    id: newId(),
    title: 'Welcome',
    markdown: '# Welcome\n\nThis space was created with your docs site. Edit it, or add your own spaces to the site.\n',
  },
  {
    id: newId(),
    title: 'Getting started',
    markdown: '# Getting started\n\n1. Write a page.\n2. Publish the site.\n3. Share its address.\n',
  },
];

/**
 * Creates a site, admin only. With a list of spaces, each must be readable by the caller and belong to the
 * organization; with "empty" or "sample", a new space is created first (in content) and becomes the site's first
 * site space.
 */
@CommandHandler(CreateSiteCommand)
export class CreateSiteHandler implements ICommandHandler<CreateSiteCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly access: SiteAccess,
    private readonly content: ContentAccess,
  ) {}

  async execute({ organizationId, userId, site, correlationId }: CreateSiteCommand): Promise<CreatedSite> {
    await this.access.requireOrganization(organizationId, userId, 'admin', 'create sites');
    const metadata = metadataFor(this.clock, userId, { correlationId });
    const siteSpaces: NewSiteSpace[] = [];
    if (Array.isArray(site.spaces)) {
      const unique = [...new Set(site.spaces)];
      if (unique.length > MAX_INITIAL_SPACES) {
        throw new ValidationFailed(`spaces: at most ${MAX_INITIAL_SPACES} spaces when creating a site`);
      }
      for (const spaceId of unique) {
        const space = await spaceForSite(this.content, organizationId, spaceId, userId, 'spaces');
        siteSpaces.push({ siteSpaceId: newId(), spaceId, path: slugify(space.title) });
      }
    } else {
      await this.content.requireCreateIn(organizationId, null, userId);
      const created = await createSpace(this.events, this.reads, metadata, {
        organizationId,
        title: site.title,
        parent: null,
        ...(site.spaces === 'sample' ? { pages: SAMPLE_PAGES() } : {}),
      });
      siteSpaces.push({ siteSpaceId: newId(), spaceId: created.spaceId, path: slugify(site.title) });
    }
    const siteId = newId();
    const result = await handleCommand(this.events, siteDecider, siteStream(siteId), {
      type: 'CreateSite',
      data: { siteId, organizationId, type: site.type, title: site.title, visibility: site.visibility, siteSpaces },
      metadata,
    });
    return { siteId, position: result.position, revision: result.revision };
  }
}
