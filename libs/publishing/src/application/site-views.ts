import { Inject, Injectable } from '@nestjs/common';
import { KeptBodies, PUBLIC_URLS, type PublicUrls, READ_STORE, type ReadStore } from '@app/kernel';
import { type RoleOrGuest } from '@app/kernel/domain';
import { ContentAccess, SPACES, type SpaceDoc, presentSpace } from '@app/content';
import { OrganizationAccess } from '@app/identity';
import {
  type GroupItem,
  type SectionItem,
  type SiteSpaceItem,
  featuresOf,
  orderedSections,
  sectionsOf,
  siteSpacesIn,
} from '../domain';
import { defaultCustomization } from './customization';
import { type ShareLinkDoc, type SiteDoc } from './read-models';

export const SITES_URL = Symbol('SITES_URL');

/**
 * Everything needed to present a site's parts: the spaces it shows (with the reader's role on each) and the
 * address the site is published at.
 */
export interface SiteContext {
  site: SiteDoc;
  spaces: Map<string, { space: SpaceDoc; role: RoleOrGuest }>;
  /** Where the site is served (present once it is published). */
  publishedUrl?: string;
}

/** The site alone: how many of its site spaces show a space that is still there. */
export interface SiteSummary {
  site: SiteDoc;
  liveSiteSpaces: number;
  publishedUrl?: string;
}

const joinUrl = (base: string, path: string) => `${base.replace(/\/+$/, '')}/${path}`;

/** Whether two lists hold the same document objects (a caching read store hands out one object per version). */
function sameDocs(left: readonly SpaceDoc[], right: readonly SpaceDoc[]): boolean {
  if (left.length !== right.length) return false;
  for (let index = 0; index < left.length; index++) if (left[index] !== right[index]) return false;
  return true;
}

type SiteBody = ReturnType<SiteViews['site']>;

/**
 * Presents sites and their parts in the API's shapes. Site spaces whose space is gone (deleted, or moved to
 * another organization, before the clean-up process has removed them) are left out.
 */
@Injectable()
export class SiteViews {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
    @Inject(SITES_URL) private readonly sitesUrl: string,
    private readonly content: ContentAccess,
    private readonly organizations: OrganizationAccess,
  ) {}

  /** How many site spaces were live, per site document, with the space documents that count was made from. */
  private readonly live = new WeakMap<SiteDoc, { spaces: readonly SpaceDoc[]; count: number }>();
  /** The body of a site per document, live count and published address (see KeptBodies). */
  private readonly bodies = new KeptBodies<SiteDoc, SiteBody>();

  /** The address a site is published at: its proxy, else the sites base, the organization and the basename. */
  async publishedUrl(site: SiteDoc): Promise<string> {
    if (site.proxy) return `https://${site.proxy}`;
    const hostname = await this.organizations.hostnameOf(site.organizationId);
    return joinUrl(this.sitesUrl, `${hostname ?? site.organizationId}/${site.basename ?? site.id}`);
  }

  /** Loads what presenting `site` needs, for a reader with `role` in its organization (null: a share key). */
  async context(site: SiteDoc, userId: string, shared: boolean, spaceIds = site.spaceIds): Promise<SiteContext> {
    const docs = await this.store.getMany<SpaceDoc>(SPACES, spaceIds);
    const viewer = shared ? undefined : await this.content.viewerOrNull(site.organizationId, userId);
    const spaces = new Map<string, { space: SpaceDoc; role: RoleOrGuest }>();
    for (const space of docs) {
      if (space.deleted || space.organizationId !== site.organizationId) continue;
      spaces.set(space.id, { space, role: viewer ? await this.content.roleOn(viewer, space) : null });
    }
    return { site, spaces, ...(site.published ? { publishedUrl: await this.publishedUrl(site) } : {}) };
  }

  /**
   * What presenting the site itself needs, and no more: how many of its site spaces show a space that is still
   * there. No roles and no per-space entries: on a site of 500 spaces, building a whole context took most of a
   * GET of the site.
   */
  async summary(site: SiteDoc): Promise<SiteSummary> {
    const docs = await this.store.getMany<SpaceDoc>(SPACES, site.spaceIds);
    let kept = this.live.get(site);
    // The same site and the same space documents (nothing changed since): the count made from them still holds.
    if (!kept || !sameDocs(kept.spaces, docs)) {
      kept = { spaces: docs, count: this.liveSiteSpaces(site, docs) };
      this.live.set(site, kept);
    }
    return {
      site,
      liveSiteSpaces: kept.count,
      ...(site.published ? { publishedUrl: await this.publishedUrl(site) } : {}),
    };
  }

  private liveSiteSpaces(site: SiteDoc, docs: readonly SpaceDoc[]): number {
    let gone: Set<string> | undefined;
    for (const space of docs) {
      if (space.deleted || space.organizationId !== site.organizationId) (gone ??= new Set()).add(space.id);
    }
    if (docs.length < site.spaceIds.length) {
      const found = new Set(docs.map((space) => space.id));
      for (const id of site.spaceIds) if (!found.has(id)) (gone ??= new Set()).add(id);
    }
    const all = site.structure.siteSpaces;
    return gone ? all.filter((one) => !gone.has(one.spaceId)).length : all.length;
  }

  /** The site's body from its summary, kept (presented and serialised once) while the site and summary hold. */
  keptSite(summary: SiteSummary): SiteBody {
    const variant = `${summary.liveSiteSpaces}\u0000${summary.publishedUrl ?? ''}`;
    return this.bodies.of(summary.site, variant, () => this.site(summary));
  }

  site(context: SiteContext | SiteSummary) {
    const { site } = context;
    return {
      object: 'site' as const,
      id: site.id,
      type: site.type,
      title: site.title,
      visibility: site.visibility,
      published: site.published,
      ...(site.basename !== undefined ? { basename: site.basename } : {}),
      ...(site.proxy !== undefined
        ? { proxy: { origin: site.proxy, target: context.publishedUrl ?? `https://${site.proxy}` } }
        : {}),
      ...(site.adaptiveContent ? { adaptiveContent: site.adaptiveContent } : {}),
      agentsContext: site.agentsContext ?? 'excluded',
      createdAt: site.createdAt,
      siteSpaces:
        'liveSiteSpaces' in context
          ? context.liveSiteSpaces
          : site.structure.siteSpaces.filter((one) => context.spaces.has(one.spaceId)).length,
      features: featuresOf(site.type),
      urls: {
        location: `${this.urls.api}/orgs/${site.organizationId}/sites/${site.id}`,
        app: `${this.urls.app}/o/${site.organizationId}/sites/${site.id}`,
        ...(context.publishedUrl ? { published: context.publishedUrl } : {}),
      },
    };
  }

  private sectionUrl(context: SiteContext, section: SectionItem): string | undefined {
    if (!context.publishedUrl) return undefined;
    return section.id === context.site.structure.defaultSectionId
      ? context.publishedUrl
      : joinUrl(context.publishedUrl, section.path);
  }

  siteSpace(context: SiteContext, item: SiteSpaceItem) {
    const entry = context.spaces.get(item.spaceId);
    if (!entry) return undefined;
    const structure = context.site.structure;
    const section = item.sectionId === null ? undefined : structure.sections.find((one) => one.id === item.sectionId);
    const isDefault = section ? section.defaultSiteSpaceId === item.id : structure.defaultSiteSpaceId === item.id;
    const containerUrl = section ? this.sectionUrl(context, section) : context.publishedUrl;
    return {
      object: 'site-space' as const,
      id: item.id,
      space: presentSpace(entry.space, entry.role, this.urls),
      title: entry.space.title,
      path: item.path,
      ...(item.sectionId !== null ? { section: item.sectionId } : {}),
      default: isDefault,
      ...(item.condition !== undefined ? { condition: item.condition } : {}),
      urls: containerUrl ? { published: isDefault ? containerUrl : joinUrl(containerUrl, item.path) } : {},
    };
  }

  siteSpacesOf(context: SiteContext, sectionId: string | null) {
    return siteSpacesIn(context.site.structure, sectionId)
      .map((item) => this.siteSpace(context, item))
      .filter((one) => one !== undefined);
  }

  section(context: SiteContext, section: SectionItem) {
    const url = this.sectionUrl(context, section);
    return {
      object: 'site-section' as const,
      id: section.id,
      title: section.title,
      path: section.path,
      default: context.site.structure.defaultSectionId === section.id,
      ...(section.description !== undefined ? { description: section.description } : {}),
      ...(section.condition !== undefined ? { condition: section.condition } : {}),
      ...(section.groupId !== null ? { sectionGroup: section.groupId } : {}),
      ...(section.icon !== undefined ? { icon: section.icon } : {}),
      siteSpaces: this.siteSpacesOf(context, section.id),
      urls: url ? { published: url } : {},
    };
  }

  sections(context: SiteContext) {
    return orderedSections(context.site.structure).map((section) => this.section(context, section));
  }

  group(context: SiteContext, group: GroupItem) {
    return {
      object: 'site-section-group' as const,
      id: group.id,
      title: group.title,
      ...(group.icon !== undefined ? { icon: group.icon } : {}),
      sections: sectionsOf(context.site.structure, group.id).map((section) => this.section(context, section)),
    };
  }

  groups(context: SiteContext) {
    const order = context.site.structure.top.filter((one) => one.type === 'group').map((one) => one.id);
    const byId = new Map(context.site.structure.groups.map((one) => [one.id, one]));
    return order.flatMap((id) => (byId.has(id) ? [this.group(context, byId.get(id)!)] : []));
  }

  /** The site's structure as a visitor meets it: sections and groups in order, or its site spaces. */
  structure(context: SiteContext) {
    const structure = context.site.structure;
    if (structure.sections.length === 0) {
      return { type: 'siteSpaces' as const, structure: this.siteSpacesOf(context, null) };
    }
    const sections = new Map(structure.sections.map((one) => [one.id, one]));
    const groups = new Map(structure.groups.map((one) => [one.id, one]));
    return {
      type: 'sections' as const,
      structure: structure.top.flatMap((item): unknown[] => {
        if (item.type === 'section') {
          const section = sections.get(item.id);
          return section ? [this.section(context, section)] : [];
        }
        const group = groups.get(item.id);
        return group ? [this.group(context, group)] : [];
      }),
    };
  }

  customization(site: SiteDoc): Record<string, unknown> {
    return site.customization ?? defaultCustomization();
  }

  published(context: SiteContext) {
    return {
      object: 'published-content-site' as const,
      site: this.site(context),
      structure: this.structure(context),
      customizations: { site: this.customization(context.site), siteSpaces: {} },
      scripts: [],
    };
  }

  shareLink(context: SiteContext, link: ShareLinkDoc, key?: string) {
    return {
      object: 'share-link' as const,
      id: link.id,
      name: link.name,
      active: link.active,
      createdAt: link.createdAt,
      // the address carries the key: only its creator, who holds the key, ever sees it
      urls: key !== undefined && context.publishedUrl ? { published: `${context.publishedUrl}?share=${key}` } : {},
      ...(key !== undefined ? { key } : {}),
    };
  }
}
