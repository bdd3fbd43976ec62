import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import {
  DEFAULT_LIMIT,
  type ListQuery,
  type ListResponse,
  EVENT_STORE,
  type EventStore,
  NotFound,
  PAGE_CURSORS,
  type PageCursorCodec,
  type PointInTime,
  requireDocumentAt,
} from '@app/kernel';
import { siteStream } from '../../domain';
import { sitesProjection } from '../../projections/sites.projection';
import { SiteAccess } from '../site-access';
import { type SiteContext, SiteViews } from '../site-views';

/** What of a site is read: the site, its published profile, one of its lists, or one of its parts. */
export type SiteRead =
  | { kind: 'site'; at?: PointInTime }
  | { kind: 'published'; shareKey?: string }
  | { kind: 'structure'; shareKey?: string }
  | { kind: 'sections'; shareKey?: string; list: ListQuery }
  | { kind: 'site-spaces'; shareKey?: string; list: ListQuery; default?: boolean }
  | { kind: 'groups'; list: ListQuery }
  | { kind: 'share-links'; list: ListQuery }
  | { kind: 'section'; id: string }
  | { kind: 'site-space'; id: string }
  | { kind: 'group'; id: string }
  | { kind: 'share-link'; id: string; key?: string }
  | { kind: 'adaptive-schema' }
  | { kind: 'customization' };

export interface SiteView {
  body: unknown;
  /** Revision of the site's stream (the ETag). */
  version: number;
}

export class ReadSiteQuery extends Query<SiteView> {
  constructor(
    readonly organizationId: string,
    readonly siteId: string,
    readonly userId: string,
    readonly read: SiteRead,
  ) {
    super();
  }
}

/**
 * Every read of a site and its parts. The site is one read-model document; the spaces it shows are read in one
 * batch. Reads that accept `shareKey` let a caller without a role in the organization in when the key opens the
 * site; the others need the organization's `read` role (share links: `admin`).
 */
@QueryHandler(ReadSiteQuery)
export class ReadSiteHandler implements IQueryHandler<ReadSiteQuery> {
  constructor(
    private readonly access: SiteAccess,
    private readonly views: SiteViews,
    @Inject(PAGE_CURSORS) private readonly cursors: PageCursorCodec,
    @Inject(EVENT_STORE) private readonly events: EventStore,
  ) {}

  async execute({ organizationId, siteId, userId, read }: ReadSiteQuery): Promise<SiteView> {
    const shareKey = 'shareKey' in read ? read.shareKey : undefined;
    const current =
      read.kind === 'share-links' || read.kind === 'share-link'
        ? {
            ...(await this.access.requireSite(organizationId, siteId, userId, 'admin', 'manage its share links')),
            shared: false,
          }
        : await this.access.readSite(organizationId, siteId, userId, shareKey);
    const { shared } = current;
    const site =
      read.kind === 'site' && read.at
        ? await requireDocumentAt(this.events, sitesProjection, siteStream(siteId), siteId, read.at, `site ${siteId}`)
        : current.site;
    if (read.kind === 'site') {
      return { body: this.views.keptSite(await this.views.summary(site)), version: site.version };
    }
    const context = await this.views.context(site, userId, shared, this.spacesNeeded(read, site));
    return { body: this.present(context, read), version: site.version };
  }

  /** Only the spaces the answer shows are read. */
  private spacesNeeded(read: SiteRead, site: SiteContext['site']): string[] {
    switch (read.kind) {
      case 'site-space': {
        const item = site.structure.siteSpaces.find((one) => one.id === read.id);
        return item ? [item.spaceId] : [];
      }
      case 'share-links':
      case 'share-link':
      case 'adaptive-schema':
      case 'customization':
        return [];
      default:
        return site.spaceIds;
    }
  }

  private present(context: SiteContext, read: Exclude<SiteRead, { kind: 'site' }>): unknown {
    const { site } = context;
    const structure = site.structure;
    switch (read.kind) {
      case 'published':
        return this.views.published(context);
      case 'structure':
        return this.views.structure(context);
      case 'sections':
        return this.page(`site:${site.id}:sections`, this.views.sections(context), read.list);
      case 'groups':
        return this.page(`site:${site.id}:groups`, this.views.groups(context), read.list);
      case 'site-spaces': {
        const all = [
          ...this.views.siteSpacesOf(context, null),
          ...this.views.sections(context).flatMap((section) => section.siteSpaces),
        ];
        const items = read.default === undefined ? all : all.filter((one) => one.default === read.default);
        return this.page(`site:${site.id}:site-spaces:${String(read.default)}`, items, read.list);
      }
      case 'share-links':
        return this.page(
          `site:${site.id}:share-links`,
          site.shareLinks.map((link) => this.views.shareLink(context, link)),
          read.list,
        );
      case 'section': {
        const section = structure.sections.find((one) => one.id === read.id);
        if (!section) throw new NotFound(`Section ${read.id} not found in site ${site.id}`);
        return this.views.section(context, section);
      }
      case 'site-space': {
        const item = structure.siteSpaces.find((one) => one.id === read.id);
        const body = item ? this.views.siteSpace(context, item) : undefined;
        if (!body) throw new NotFound(`Site space ${read.id} not found in site ${site.id}`);
        return body;
      }
      case 'group': {
        const group = structure.groups.find((one) => one.id === read.id);
        if (!group) throw new NotFound(`Section group ${read.id} not found in site ${site.id}`);
        return this.views.group(context, group);
      }
      case 'share-link': {
        const link = site.shareLinks.find((one) => one.id === read.id);
        if (!link) throw new NotFound(`Share link ${read.id} not found in site ${site.id}`);
        return this.views.shareLink(context, link, read.key);
      }
      case 'adaptive-schema':
        return {
          object: 'site-adaptive-schema',
          jsonSchema: site.adaptiveSchema?.jsonSchema ?? {
            type: 'object',
            properties: {},
            additionalProperties: false,
          },
          updatedAt: site.adaptiveSchema?.updatedAt ?? site.createdAt,
        };
      case 'customization':
        return this.views.customization(site);
    }
  }

  /** A page of a list held in memory; the cursor is the offset, signed like every other cursor. */
  private page<T>(scope: string, items: T[], query: ListQuery): ListResponse<T> {
    const cursor = this.cursors.decode(scope, query.page);
    const start = cursor ? Number(cursor.values[0]) : 0;
    const limit = query.limit ?? DEFAULT_LIMIT;
    const end = start + limit;
    const response: ListResponse<T> = { items: items.slice(start, end), count: items.length };
    if (end < items.length) response.next = { page: this.cursors.encode(scope, { values: [end], id: String(end) }) };
    return response;
  }
}
