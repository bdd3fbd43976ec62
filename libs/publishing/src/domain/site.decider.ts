import {
  type Command,
  type Decider,
  type DomainEvent,
  IllegalState,
  NotFound,
  ValidationFailed,
  assertNever,
} from '@app/kernel/domain';
import { type SiteType, type SiteVisibility } from './site-features';
import {
  type SiteStructure,
  type SiteSpaceItem,
  addGroup,
  addSection,
  addSiteSpace,
  emptyStructure,
  moveGroup,
  moveSection,
  moveSiteSpace,
  removeGroup,
  removeSection,
  removeSiteSpace,
  sectionsOf,
  setDefaultSection,
  setDefaultSiteSpace,
  siteSpacesIn,
  ungroupSection,
  updateGroup,
  updateSection,
  updateSiteSpace,
} from './site-structure';

export const siteStream = (siteId: string) => `site-${siteId}`;

export const SITE_TITLE = { min: 2, max: 128 };
export const SECTION_TITLE = { min: 2, max: 128, createMax: 64 };
export const GROUP_TITLE = { min: 1, max: 100 };
export const PATH_MAX = 100;
export const BASENAME_MAX = 100;
export const ICON_MAX = 50;
export const DESCRIPTION_MAX = 256;
export const SHARE_LINK_NAME_MAX = 50;
/** How big a site may grow: well above what a docs site needs, small enough to keep one site one stream. */
export const LIMITS = { sections: 200, groups: 100, siteSpaces: 1000, shareLinks: 100 };
/** Letters, digits and `-`, `_`, `.`, `~`: what a URL path segment holds without escaping. */
export const PATH_PATTERN = /^[A-Za-z0-9._~-]+$/;
export const PROXY_PATTERN = /^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$/;

/** Where something goes among its siblings: before or after another item of the site (default: the end). */
export interface Position {
  before?: string;
  after?: string;
}

export type SiteChanges = {
  title?: string;
  visibility?: SiteVisibility;
  basename?: string;
  adaptiveContent?: { enabled: boolean };
  agentsContext?: 'excluded' | 'included';
  /** The proxy origin; null removes it. */
  proxy?: string | null;
};

type SiteCmd<Type extends string, Data> = Command<Type, { siteId: string; organizationId: string } & Data>;

export type NewSiteSpace = { siteSpaceId: string; spaceId: string; path: string };

export type CreateSite = SiteCmd<
  'CreateSite',
  { type: SiteType; title: string; visibility: SiteVisibility; siteSpaces: NewSiteSpace[] }
>;
export type UpdateSite = SiteCmd<
  'UpdateSite',
  { changes: SiteChanges; defaultSiteSpace?: string; defaultSiteSection?: string }
>;
export type PublishSite = SiteCmd<'PublishSite', object>;
export type UnpublishSite = SiteCmd<'UnpublishSite', object>;
export type DeleteSite = SiteCmd<'DeleteSite', object>;
/** `sectionId` undefined: the default section, or the root when the site has no sections. */
export type AddSiteSpace = SiteCmd<'AddSiteSpace', NewSiteSpace & { sectionId?: string }>;
export type UpdateSiteSpace = SiteCmd<
  'UpdateSiteSpace',
  { siteSpaceId: string; changes: { path?: string; condition?: string | null } }
>;
export type MoveSiteSpace = SiteCmd<'MoveSiteSpace', { siteSpaceId: string; position?: Position }>;
/** With `onlyIfSpace`, the removal happens only while the site space still shows that space (used by processes). */
export type RemoveSiteSpace = SiteCmd<
  'RemoveSiteSpace',
  { siteSpaceId: string; onlyIfSpace?: string; reason?: 'space-deleted' | 'space-transferred' }
>;
export type AddSection = SiteCmd<
  'AddSection',
  { sectionId: string; title: string; path: string; icon?: string } & { first: NewSiteSpace }
>;
export type SectionChanges = {
  title?: string;
  path?: string;
  condition?: string | null;
  icon?: string | null;
  description?: string | null;
};
export type UpdateSection = SiteCmd<
  'UpdateSection',
  { sectionId: string; changes: SectionChanges; defaultSiteSpace?: string }
>;
export type MoveSection = SiteCmd<'MoveSection', { sectionId: string; position?: Position }>;
export type RemoveSection = SiteCmd<'RemoveSection', { sectionId: string }>;
export type AddSectionGroup = SiteCmd<
  'AddSectionGroup',
  { groupId: string; title: string; icon?: string; sectionIds: string[] }
>;
export type UpdateSectionGroup = SiteCmd<
  'UpdateSectionGroup',
  { groupId: string; changes: { title?: string; icon?: string | null } }
>;
export type MoveSectionGroup = SiteCmd<'MoveSectionGroup', { groupId: string; position?: Position }>;
export type RemoveSectionGroup = SiteCmd<'RemoveSectionGroup', { groupId: string }>;
export type GroupSection = SiteCmd<'GroupSection', { groupId: string; sectionId: string }>;
export type UngroupSection = SiteCmd<'UngroupSection', { groupId: string; sectionId: string }>;
export type CreateShareLink = SiteCmd<'CreateShareLink', { shareLinkId: string; name: string; keyHash: string }>;
export type UpdateShareLink = SiteCmd<
  'UpdateShareLink',
  { shareLinkId: string; changes: { name?: string; active?: boolean } }
>;
export type RevokeShareLink = SiteCmd<'RevokeShareLink', { shareLinkId: string }>;
/** The schema arrives checked (draft-07 and the claims shape) by the application layer. */
export type SetAdaptiveSchema = SiteCmd<'SetAdaptiveSchema', { jsonSchema: Record<string, unknown> }>;
/** The settings arrive checked against the customization schema by the application layer. */
export type CustomizeSite = SiteCmd<'CustomizeSite', { customization: Record<string, unknown> }>;

export type SiteCommand =
  | CreateSite
  | UpdateSite
  | PublishSite
  | UnpublishSite
  | DeleteSite
  | AddSiteSpace
  | UpdateSiteSpace
  | MoveSiteSpace
  | RemoveSiteSpace
  | AddSection
  | UpdateSection
  | MoveSection
  | RemoveSection
  | AddSectionGroup
  | UpdateSectionGroup
  | MoveSectionGroup
  | RemoveSectionGroup
  | GroupSection
  | UngroupSection
  | CreateShareLink
  | UpdateShareLink
  | RevokeShareLink
  | SetAdaptiveSchema
  | CustomizeSite;

export type SiteCreated = DomainEvent<
  'SiteCreated',
  { siteId: string } & {
    organizationId: string;
    type: SiteType;
    title: string;
    visibility: SiteVisibility;
    createdBy?: string;
    createdAt: string;
  }
>;
export type SiteUpdated = DomainEvent<'SiteUpdated', { siteId: string } & { changes: SiteChanges; updatedAt: string }>;
export type SitePublished = DomainEvent<'SitePublished', { siteId: string } & { publishedAt: string }>;
export type SiteUnpublished = DomainEvent<'SiteUnpublished', { siteId: string } & { unpublishedAt: string }>;
export type SiteDeleted = DomainEvent<
  'SiteDeleted',
  { siteId: string } & { organizationId: string; deletedAt: string }
>;
/** Added at the end of its container (a section, or the root). */
export type SiteSpaceAdded = DomainEvent<
  'SiteSpaceAdded',
  { siteId: string } & { siteSpaceId: string; spaceId: string; sectionId: string | null; path: string; addedAt: string }
>;
export type SiteSpaceUpdated = DomainEvent<
  'SiteSpaceUpdated',
  { siteId: string } & { siteSpaceId: string; changes: { path?: string; condition?: string | null }; updatedAt: string }
>;
/** `before`: the site space it now precedes, or null when it is last of its container. */
export type SiteSpaceMoved = DomainEvent<
  'SiteSpaceMoved',
  { siteId: string } & { siteSpaceId: string; before: string | null; movedAt: string }
>;
export type SiteSpaceRemoved = DomainEvent<
  'SiteSpaceRemoved',
  { siteId: string } & {
    siteSpaceId: string;
    spaceId: string;
    reason?: 'space-deleted' | 'space-transferred';
    removedAt: string;
  }
>;
export type SiteDefaultSiteSpaceChanged = DomainEvent<
  'SiteDefaultSiteSpaceChanged',
  { siteId: string } & { siteSpaceId: string }
>;
/** A section with its first site space; `adopted` are the root site spaces that moved into it. */
export type SiteSectionAdded = DomainEvent<
  'SiteSectionAdded',
  { siteId: string } & {
    sectionId: string;
    title: string;
    path: string;
    icon?: string;
    first: { siteSpaceId: string; spaceId: string; path: string };
    adopted: string[];
    addedAt: string;
  }
>;
export type SiteSectionUpdated = DomainEvent<
  'SiteSectionUpdated',
  { siteId: string } & { sectionId: string; changes: SectionChanges; updatedAt: string }
>;
/** `groupId`: the group it now belongs to (null: the top level); `before`: the item it now precedes. */
export type SiteSectionMoved = DomainEvent<
  'SiteSectionMoved',
  { siteId: string } & { sectionId: string; groupId: string | null; before: string | null; movedAt: string }
>;
export type SiteSectionRemoved = DomainEvent<
  'SiteSectionRemoved',
  { siteId: string } & { sectionId: string; removedAt: string }
>;
export type SiteDefaultSectionChanged = DomainEvent<
  'SiteDefaultSectionChanged',
  { siteId: string } & { sectionId: string }
>;
export type SiteSectionGroupAdded = DomainEvent<
  'SiteSectionGroupAdded',
  { siteId: string } & { groupId: string; title: string; icon?: string; sectionIds: string[]; addedAt: string }
>;
export type SiteSectionGroupUpdated = DomainEvent<
  'SiteSectionGroupUpdated',
  { siteId: string } & { groupId: string; changes: { title?: string; icon?: string | null }; updatedAt: string }
>;
export type SiteSectionGroupMoved = DomainEvent<
  'SiteSectionGroupMoved',
  { siteId: string } & { groupId: string; before: string | null; movedAt: string }
>;
export type SiteSectionGroupRemoved = DomainEvent<
  'SiteSectionGroupRemoved',
  { siteId: string } & { groupId: string; removedAt: string }
>;
export type SiteSectionUngrouped = DomainEvent<
  'SiteSectionUngrouped',
  { siteId: string } & { groupId: string; sectionId: string }
>;
/** Only a hash of the key is recorded: the key itself is shown once, to whoever created the link. */
export type SiteShareLinkCreated = DomainEvent<
  'SiteShareLinkCreated',
  { siteId: string } & { shareLinkId: string; name: string; keyHash: string; createdAt: string }
>;
export type SiteShareLinkUpdated = DomainEvent<
  'SiteShareLinkUpdated',
  { siteId: string } & { shareLinkId: string; changes: { name?: string; active?: boolean }; updatedAt: string }
>;
export type SiteShareLinkRevoked = DomainEvent<
  'SiteShareLinkRevoked',
  { siteId: string } & { shareLinkId: string; revokedAt: string }
>;
export type SiteAdaptiveSchemaChanged = DomainEvent<
  'SiteAdaptiveSchemaChanged',
  { siteId: string } & { jsonSchema: Record<string, unknown>; updatedAt: string }
>;
export type SiteCustomized = DomainEvent<
  'SiteCustomized',
  { siteId: string } & { customization: Record<string, unknown>; updatedAt: string }
>;

export type SiteEvent =
  | SiteCreated
  | SiteUpdated
  | SitePublished
  | SiteUnpublished
  | SiteDeleted
  | SiteSpaceAdded
  | SiteSpaceUpdated
  | SiteSpaceMoved
  | SiteSpaceRemoved
  | SiteDefaultSiteSpaceChanged
  | SiteSectionAdded
  | SiteSectionUpdated
  | SiteSectionMoved
  | SiteSectionRemoved
  | SiteDefaultSectionChanged
  | SiteSectionGroupAdded
  | SiteSectionGroupUpdated
  | SiteSectionGroupMoved
  | SiteSectionGroupRemoved
  | SiteSectionUngrouped
  | SiteShareLinkCreated
  | SiteShareLinkUpdated
  | SiteShareLinkRevoked
  | SiteAdaptiveSchemaChanged
  | SiteCustomized;

export const SITE_EVENT_TYPES: readonly SiteEvent['type'][] = [
  'SiteCreated',
  'SiteUpdated',
  'SitePublished',
  'SiteUnpublished',
  'SiteDeleted',
  'SiteSpaceAdded',
  'SiteSpaceUpdated',
  'SiteSpaceMoved',
  'SiteSpaceRemoved',
  'SiteDefaultSiteSpaceChanged',
  'SiteSectionAdded',
  'SiteSectionUpdated',
  'SiteSectionMoved',
  'SiteSectionRemoved',
  'SiteDefaultSectionChanged',
  'SiteSectionGroupAdded',
  'SiteSectionGroupUpdated',
  'SiteSectionGroupMoved',
  'SiteSectionGroupRemoved',
  'SiteSectionUngrouped',
  'SiteShareLinkCreated',
  'SiteShareLinkUpdated',
  'SiteShareLinkRevoked',
  'SiteAdaptiveSchemaChanged',
  'SiteCustomized',
];

export interface ShareLinkState {
  id: string;
  active: boolean;
}

export type SiteState =
  | { status: 'absent' }
  | {
      status: 'active';
      siteId: string;
      organizationId: string;
      published: boolean;
      structure: SiteStructure;
      shareLinks: ShareLinkState[];
    }
  | { status: 'deleted'; siteId: string; organizationId: string };

type Active = Extract<SiteState, { status: 'active' }>;

/** A site of another organization is as unknown as one that never existed. */
function requireSite(state: SiteState, siteId: string, organizationId: string): Active {
  if (state.status !== 'active' || state.organizationId !== organizationId) {
    throw new NotFound(`Site ${siteId} not found`);
  }
  return state;
}

function checkLength(field: string, value: string, min: number, max: number): void {
  const length = [...value].length;
  if (length < min || length > max || (min > 0 && value.trim().length === 0)) {
    throw new ValidationFailed(`${field} must have ${min} to ${max} characters`);
  }
}

function checkPath(field: string, path: string): void {
  checkLength(field, path, 1, PATH_MAX);
  if (!PATH_PATTERN.test(path)) {
    throw new ValidationFailed(`${field} may hold only letters, digits and the characters - _ . ~`);
  }
}

/** A path not yet taken among `taken`: the wanted one, or it with `-2`, `-3`, … appended. */
function freePath(wanted: string, taken: ReadonlySet<string>): string {
  const base = (PATH_PATTERN.test(wanted) ? wanted : 'space').slice(0, PATH_MAX - 5) || 'space';
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

const pathsIn = (structure: SiteStructure, sectionId: string | null, except?: string) =>
  new Set(
    siteSpacesIn(structure, sectionId)
      .filter((one) => one.id !== except)
      .map((one) => one.path),
  );

function siteSpaceOf(site: Active, siteSpaceId: string): SiteSpaceItem {
  const found = site.structure.siteSpaces.find((one) => one.id === siteSpaceId);
  if (!found) throw new NotFound(`Site space ${siteSpaceId} not found in site ${site.siteId}`);
  return found;
}

function sectionOf(site: Active, sectionId: string) {
  const found = site.structure.sections.find((one) => one.id === sectionId);
  if (!found) throw new NotFound(`Section ${sectionId} not found in site ${site.siteId}`);
  return found;
}

function groupOf(site: Active, groupId: string) {
  const found = site.structure.groups.find((one) => one.id === groupId);
  if (!found) throw new NotFound(`Section group ${groupId} not found in site ${site.siteId}`);
  return found;
}

function onePosition(position: Position | undefined): { target: string; side: 'before' | 'after' } | null {
  if (!position) return null;
  if (position.before !== undefined && position.after !== undefined) {
    throw new ValidationFailed('position: give either before or after, not both');
  }
  if (position.before !== undefined) return { target: position.before, side: 'before' };
  if (position.after !== undefined) return { target: position.after, side: 'after' };
  return null;
}

/** The id a `before`/`after` pointer resolves to among ordered siblings: the item to insert before, or null. */
function beforeAmong(ids: readonly string[], target: string, side: 'before' | 'after'): string | null {
  const index = ids.indexOf(target);
  return side === 'before' ? target : (ids[index + 1] ?? null);
}

function newSiteSpace(
  structure: SiteStructure,
  sectionId: string | null,
  wanted: NewSiteSpace,
): { siteSpaceId: string; spaceId: string; path: string } {
  return {
    siteSpaceId: wanted.siteSpaceId,
    spaceId: wanted.spaceId,
    path: freePath(wanted.path, pathsIn(structure, sectionId)),
  };
}

function checkRoom(site: Active, what: keyof typeof LIMITS, adding = 1): void {
  const current = {
    sections: site.structure.sections.length,
    groups: site.structure.groups.length,
    siteSpaces: site.structure.siteSpaces.length,
    shareLinks: site.shareLinks.length,
  }[what];
  if (current + adding > LIMITS[what]) {
    throw new IllegalState(
      `a site holds at most ${LIMITS[what]} ${what.replace(/[A-Z]/, (c) => ' ' + c.toLowerCase())}`,
    );
  }
}

function checkSectionChanges(site: Active, sectionId: string, changes: SectionChanges): void {
  if (changes.title !== undefined) checkLength('title', changes.title, SECTION_TITLE.min, SECTION_TITLE.max);
  if (changes.path !== undefined) {
    checkPath('path', changes.path);
    if (site.structure.sections.some((one) => one.id !== sectionId && one.path === changes.path)) {
      throw new IllegalState(`another section of this site already has the path "${changes.path}"`);
    }
  }
  if (typeof changes.icon === 'string') checkLength('icon', changes.icon, 1, ICON_MAX);
  if (typeof changes.description === 'string') checkLength('description', changes.description, 0, DESCRIPTION_MAX);
}

function decideSite(command: SiteCommand, state: SiteState): SiteEvent[] {
  const now = command.metadata.now;
  const { siteId, organizationId } = command.data;
  switch (command.type) {
    case 'CreateSite': {
      if (state.status !== 'absent') throw new IllegalState(`site ${siteId} exists`);
      checkLength('title', command.data.title, SITE_TITLE.min, SITE_TITLE.max);
      let structure = emptyStructure();
      const events: SiteEvent[] = [
        {
          type: 'SiteCreated',
          data: {
            siteId,
            organizationId,
            type: command.data.type,
            title: command.data.title,
            visibility: command.data.visibility,
            ...(command.metadata.actor ? { createdBy: command.metadata.actor } : {}),
            createdAt: now,
          },
        },
      ];
      for (const wanted of command.data.siteSpaces) {
        const added = newSiteSpace(structure, null, wanted);
        structure = addSiteSpace(structure, {
          id: added.siteSpaceId,
          spaceId: added.spaceId,
          sectionId: null,
          path: added.path,
        });
        events.push({ type: 'SiteSpaceAdded', data: { siteId, ...added, sectionId: null, addedAt: now } });
      }
      return events;
    }
    case 'DeleteSite': {
      if (state.status === 'deleted' && state.organizationId === organizationId) return [];
      requireSite(state, siteId, organizationId);
      return [{ type: 'SiteDeleted', data: { siteId, organizationId, deletedAt: now } }];
    }
    default:
      return decideOnActive(command, requireSite(state, siteId, organizationId), now);
  }
}

function decideOnActive(
  command: Exclude<SiteCommand, CreateSite | DeleteSite>,
  site: Active,
  now: string,
): SiteEvent[] {
  const siteId = site.siteId;
  const structure = site.structure;
  switch (command.type) {
    case 'UpdateSite': {
      const { changes, defaultSiteSpace, defaultSiteSection } = command.data;
      const defined: SiteChanges = {};
      if (changes.title !== undefined) {
        checkLength('title', changes.title, SITE_TITLE.min, SITE_TITLE.max);
        defined.title = changes.title;
      }
      if (changes.visibility !== undefined) defined.visibility = changes.visibility;
      if (changes.basename !== undefined) {
        checkPath('basename', changes.basename);
        defined.basename = changes.basename;
      }
      if (changes.adaptiveContent !== undefined) defined.adaptiveContent = { enabled: changes.adaptiveContent.enabled };
      if (changes.agentsContext !== undefined) defined.agentsContext = changes.agentsContext;
      if (changes.proxy !== undefined) {
        if (changes.proxy !== null && (changes.proxy.length > 512 || !PROXY_PATTERN.test(changes.proxy))) {
          throw new ValidationFailed('proxy must be a host name with a path, such as example.com/docs');
        }
        defined.proxy = changes.proxy;
      }
      const events: SiteEvent[] = [];
      if (defaultSiteSection !== undefined) {
        if (!structure.sections.some((one) => one.id === defaultSiteSection)) {
          throw new ValidationFailed(`defaultSiteSection: no section ${defaultSiteSection} in this site`);
        }
        if (structure.defaultSectionId !== defaultSiteSection) {
          events.push({ type: 'SiteDefaultSectionChanged', data: { siteId, sectionId: defaultSiteSection } });
        }
      }
      if (defaultSiteSpace !== undefined) {
        const target = structure.siteSpaces.find((one) => one.id === defaultSiteSpace);
        const landing = defaultSiteSection ?? structure.defaultSectionId;
        if (!target || target.sectionId !== landing) {
          throw new ValidationFailed(
            landing === null
              ? `defaultSiteSpace: no site space ${defaultSiteSpace} at the root of this site`
              : `defaultSiteSpace: no site space ${defaultSiteSpace} in the default section of this site`,
          );
        }
        events.push({ type: 'SiteDefaultSiteSpaceChanged', data: { siteId, siteSpaceId: defaultSiteSpace } });
      }
      if (Object.keys(defined).length > 0) {
        events.unshift({ type: 'SiteUpdated', data: { siteId, changes: defined, updatedAt: now } });
      }
      return events;
    }
    case 'PublishSite':
      if (site.published) return [];
      if (structure.siteSpaces.length === 0) {
        throw new IllegalState('a site without any site space cannot be published: add a space first');
      }
      return [{ type: 'SitePublished', data: { siteId, publishedAt: now } }];
    case 'UnpublishSite':
      return site.published ? [{ type: 'SiteUnpublished', data: { siteId, unpublishedAt: now } }] : [];
    case 'AddSiteSpace': {
      checkRoom(site, 'siteSpaces');
      let sectionId: string | null;
      if (command.data.sectionId !== undefined) {
        if (!structure.sections.some((one) => one.id === command.data.sectionId)) {
          throw new ValidationFailed(`sectionId: no section ${command.data.sectionId} in this site`);
        }
        sectionId = command.data.sectionId;
      } else {
        sectionId = structure.defaultSectionId;
      }
      if (siteSpacesIn(structure, sectionId).some((one) => one.spaceId === command.data.spaceId)) {
        throw new IllegalState(
          sectionId === null
            ? `space ${command.data.spaceId} is already in this site`
            : `space ${command.data.spaceId} is already in this section`,
        );
      }
      const added = newSiteSpace(structure, sectionId, command.data);
      return [{ type: 'SiteSpaceAdded', data: { siteId, ...added, sectionId, addedAt: now } }];
    }
    case 'UpdateSiteSpace': {
      const item = siteSpaceOf(site, command.data.siteSpaceId);
      const { path, condition } = command.data.changes;
      const changes: SiteSpaceUpdated['data']['changes'] = {};
      if (path !== undefined) {
        checkPath('path', path);
        if (pathsIn(structure, item.sectionId, item.id).has(path)) {
          throw new IllegalState(`another site space of this section already has the path "${path}"`);
        }
        changes.path = path;
      }
      if (condition !== undefined) changes.condition = condition;
      if (Object.keys(changes).length === 0) return [];
      return [{ type: 'SiteSpaceUpdated', data: { siteId, siteSpaceId: item.id, changes, updatedAt: now } }];
    }
    case 'MoveSiteSpace': {
      const item = siteSpaceOf(site, command.data.siteSpaceId);
      const siblings = siteSpacesIn(structure, item.sectionId).map((one) => one.id);
      const pointer = onePosition(command.data.position);
      let before: string | null = null;
      if (pointer) {
        const target = structure.siteSpaces.find((one) => one.id === pointer.target);
        if (!target)
          throw new ValidationFailed(`position.${pointer.side}: no site space ${pointer.target} in this site`);
        if (target.sectionId !== item.sectionId) {
          throw new ValidationFailed(`position.${pointer.side}: site space ${pointer.target} is in another section`);
        }
        if (target.id === item.id)
          throw new ValidationFailed(`position.${pointer.side}: a site space cannot move next to itself`);
        before = beforeAmong(
          siblings.filter((id) => id !== item.id),
          target.id,
          pointer.side,
        );
      }
      return [{ type: 'SiteSpaceMoved', data: { siteId, siteSpaceId: item.id, before, movedAt: now } }];
    }
    case 'RemoveSiteSpace': {
      const item = structure.siteSpaces.find((one) => one.id === command.data.siteSpaceId);
      if (!item) return [];
      if (command.data.onlyIfSpace !== undefined && item.spaceId !== command.data.onlyIfSpace) return [];
      return [
        {
          type: 'SiteSpaceRemoved',
          data: {
            siteId,
            siteSpaceId: item.id,
            spaceId: item.spaceId,
            ...(command.data.reason ? { reason: command.data.reason } : {}),
            removedAt: now,
          },
        },
      ];
    }
    case 'AddSection': {
      checkRoom(site, 'sections');
      checkRoom(site, 'siteSpaces');
      const { sectionId, title, icon, first } = command.data;
      checkLength('title', title, SECTION_TITLE.min, SECTION_TITLE.createMax);
      if (icon !== undefined) checkLength('icon', icon, 1, ICON_MAX);
      const path = freePath(command.data.path, new Set(structure.sections.map((one) => one.path)));
      // the root's site spaces move into the first section: its own site space must not repeat one of them
      const adopted = structure.sections.length === 0 ? siteSpacesIn(structure, null) : [];
      if (adopted.some((one) => one.spaceId === first.spaceId)) {
        throw new IllegalState(
          `space ${first.spaceId} is already in this site and moves into the new section as it is`,
        );
      }
      const siteSpace = newSiteSpace(structure, null, first);
      return [
        {
          type: 'SiteSectionAdded',
          data: {
            siteId,
            sectionId,
            title,
            path,
            ...(icon !== undefined ? { icon } : {}),
            first: siteSpace,
            adopted: adopted.map((one) => one.id),
            addedAt: now,
          },
        },
      ];
    }
    case 'UpdateSection': {
      const section = sectionOf(site, command.data.sectionId);
      checkSectionChanges(site, section.id, command.data.changes);
      const changes = Object.fromEntries(
        Object.entries(command.data.changes).filter(([, value]) => value !== undefined),
      ) as SectionChanges;
      const events: SiteEvent[] = [];
      if (Object.keys(changes).length > 0) {
        events.push({ type: 'SiteSectionUpdated', data: { siteId, sectionId: section.id, changes, updatedAt: now } });
      }
      const wanted = command.data.defaultSiteSpace;
      if (wanted !== undefined) {
        if (!siteSpacesIn(structure, section.id).some((one) => one.id === wanted)) {
          throw new ValidationFailed(`defaultSiteSpace: no site space ${wanted} in this section`);
        }
        if (section.defaultSiteSpaceId !== wanted) {
          events.push({ type: 'SiteDefaultSiteSpaceChanged', data: { siteId, siteSpaceId: wanted } });
        }
      }
      return events;
    }
    case 'MoveSection': {
      const section = sectionOf(site, command.data.sectionId);
      const pointer = onePosition(command.data.position);
      let groupId: string | null = null;
      let before: string | null = null;
      if (pointer) {
        const target = structure.sections.find((one) => one.id === pointer.target);
        if (!target) throw new ValidationFailed(`position.${pointer.side}: no section ${pointer.target} in this site`);
        if (target.id === section.id)
          throw new ValidationFailed(`position.${pointer.side}: a section cannot move next to itself`);
        groupId = target.groupId;
        const siblings =
          groupId === null
            ? structure.top.filter((one) => one.id !== section.id).map((one) => one.id)
            : sectionsOf(structure, groupId)
                .filter((one) => one.id !== section.id)
                .map((one) => one.id);
        before = beforeAmong(siblings, target.id, pointer.side);
      }
      return [{ type: 'SiteSectionMoved', data: { siteId, sectionId: section.id, groupId, before, movedAt: now } }];
    }
    case 'RemoveSection': {
      if (!structure.sections.some((one) => one.id === command.data.sectionId)) return [];
      return [{ type: 'SiteSectionRemoved', data: { siteId, sectionId: command.data.sectionId, removedAt: now } }];
    }
    case 'AddSectionGroup': {
      checkRoom(site, 'groups');
      const { groupId, title, icon, sectionIds } = command.data;
      checkLength('title', title, GROUP_TITLE.min, GROUP_TITLE.max);
      if (icon !== undefined) checkLength('icon', icon, 1, ICON_MAX);
      const unique = [...new Set(sectionIds)];
      for (const sectionId of unique) {
        if (!structure.sections.some((one) => one.id === sectionId)) {
          throw new ValidationFailed(`sections: no section ${sectionId} in this site`);
        }
      }
      return [
        {
          type: 'SiteSectionGroupAdded',
          data: { siteId, groupId, title, ...(icon !== undefined ? { icon } : {}), sectionIds: unique, addedAt: now },
        },
      ];
    }
    case 'UpdateSectionGroup': {
      const group = groupOf(site, command.data.groupId);
      const { title, icon } = command.data.changes;
      const changes: { title?: string; icon?: string | null } = {};
      if (title !== undefined) {
        checkLength('title', title, GROUP_TITLE.min, GROUP_TITLE.max);
        changes.title = title;
      }
      if (icon !== undefined) {
        if (icon !== null) checkLength('icon', icon, 1, ICON_MAX);
        changes.icon = icon;
      }
      if (Object.keys(changes).length === 0) return [];
      return [{ type: 'SiteSectionGroupUpdated', data: { siteId, groupId: group.id, changes, updatedAt: now } }];
    }
    case 'MoveSectionGroup': {
      const group = groupOf(site, command.data.groupId);
      const pointer = onePosition(command.data.position);
      let before: string | null = null;
      if (pointer) {
        const inTop = structure.top.find((one) => one.id === pointer.target);
        if (!inTop) {
          const nested = structure.sections.find((one) => one.id === pointer.target);
          throw new ValidationFailed(
            nested
              ? `position.${pointer.side}: section ${pointer.target} is inside a group; groups do not nest`
              : `position.${pointer.side}: no section or group ${pointer.target} in this site`,
          );
        }
        if (inTop.id === group.id)
          throw new ValidationFailed(`position.${pointer.side}: a group cannot move next to itself`);
        before = beforeAmong(
          structure.top.filter((one) => one.id !== group.id).map((one) => one.id),
          inTop.id,
          pointer.side,
        );
      }
      return [{ type: 'SiteSectionGroupMoved', data: { siteId, groupId: group.id, before, movedAt: now } }];
    }
    case 'RemoveSectionGroup': {
      if (!structure.groups.some((one) => one.id === command.data.groupId)) return [];
      return [{ type: 'SiteSectionGroupRemoved', data: { siteId, groupId: command.data.groupId, removedAt: now } }];
    }
    case 'GroupSection': {
      const group = groupOf(site, command.data.groupId);
      const section = structure.sections.find((one) => one.id === command.data.sectionId);
      if (!section) throw new ValidationFailed(`sectionId: no section ${command.data.sectionId} in this site`);
      if (section.groupId === group.id) return [];
      return [
        {
          type: 'SiteSectionMoved',
          data: { siteId, sectionId: section.id, groupId: group.id, before: null, movedAt: now },
        },
      ];
    }
    case 'UngroupSection': {
      const group = groupOf(site, command.data.groupId);
      const section = structure.sections.find((one) => one.id === command.data.sectionId);
      if (!section || section.groupId !== group.id) return [];
      return [{ type: 'SiteSectionUngrouped', data: { siteId, groupId: group.id, sectionId: section.id } }];
    }
    case 'CreateShareLink': {
      checkRoom(site, 'shareLinks');
      checkLength('name', command.data.name, 0, SHARE_LINK_NAME_MAX);
      return [
        {
          type: 'SiteShareLinkCreated',
          data: {
            siteId,
            shareLinkId: command.data.shareLinkId,
            name: command.data.name,
            keyHash: command.data.keyHash,
            createdAt: now,
          },
        },
      ];
    }
    case 'UpdateShareLink': {
      const link = site.shareLinks.find((one) => one.id === command.data.shareLinkId);
      if (!link) throw new NotFound(`Share link ${command.data.shareLinkId} not found in site ${siteId}`);
      const { name, active } = command.data.changes;
      if (name !== undefined) checkLength('name', name, 0, SHARE_LINK_NAME_MAX);
      const changes = { ...(name !== undefined ? { name } : {}), ...(active !== undefined ? { active } : {}) };
      if (Object.keys(changes).length === 0) return [];
      return [{ type: 'SiteShareLinkUpdated', data: { siteId, shareLinkId: link.id, changes, updatedAt: now } }];
    }
    case 'RevokeShareLink': {
      if (!site.shareLinks.some((one) => one.id === command.data.shareLinkId)) return [];
      return [
        { type: 'SiteShareLinkRevoked', data: { siteId, shareLinkId: command.data.shareLinkId, revokedAt: now } },
      ];
    }
    case 'SetAdaptiveSchema':
      return [
        { type: 'SiteAdaptiveSchemaChanged', data: { siteId, jsonSchema: command.data.jsonSchema, updatedAt: now } },
      ];
    case 'CustomizeSite':
      return [{ type: 'SiteCustomized', data: { siteId, customization: command.data.customization, updatedAt: now } }];
    default:
      return assertNever(command);
  }
}

/** The structure after one event (the sites projection applies the same function). */
export function evolveStructure(structure: SiteStructure, event: SiteEvent): SiteStructure {
  switch (event.type) {
    case 'SiteSpaceAdded':
      return addSiteSpace(structure, {
        id: event.data.siteSpaceId,
        spaceId: event.data.spaceId,
        sectionId: event.data.sectionId,
        path: event.data.path,
      });
    case 'SiteSpaceUpdated':
      return updateSiteSpace(structure, event.data.siteSpaceId, event.data.changes);
    case 'SiteSpaceMoved':
      return moveSiteSpace(structure, event.data.siteSpaceId, event.data.before);
    case 'SiteSpaceRemoved':
      return removeSiteSpace(structure, event.data.siteSpaceId);
    case 'SiteDefaultSiteSpaceChanged':
      return setDefaultSiteSpace(structure, event.data.siteSpaceId);
    case 'SiteSectionAdded': {
      const { sectionId, title, path, icon, first, adopted } = event.data;
      return addSection(
        structure,
        { id: sectionId, title, path, ...(icon !== undefined ? { icon } : {}) },
        { id: first.siteSpaceId, spaceId: first.spaceId, sectionId, path: first.path },
        adopted,
      );
    }
    case 'SiteSectionUpdated':
      return updateSection(structure, event.data.sectionId, event.data.changes);
    case 'SiteSectionMoved':
      return moveSection(structure, event.data.sectionId, { groupId: event.data.groupId, before: event.data.before });
    case 'SiteSectionRemoved':
      return removeSection(structure, event.data.sectionId);
    case 'SiteDefaultSectionChanged':
      return setDefaultSection(structure, event.data.sectionId);
    case 'SiteSectionGroupAdded': {
      const { groupId, title, icon, sectionIds } = event.data;
      return addGroup(structure, { id: groupId, title, ...(icon !== undefined ? { icon } : {}) }, sectionIds);
    }
    case 'SiteSectionGroupUpdated':
      return updateGroup(structure, event.data.groupId, event.data.changes);
    case 'SiteSectionGroupMoved':
      return moveGroup(structure, event.data.groupId, event.data.before);
    case 'SiteSectionGroupRemoved':
      return removeGroup(structure, event.data.groupId);
    case 'SiteSectionUngrouped':
      return ungroupSection(structure, event.data.sectionId);
    default:
      return structure;
  }
}

/**
 * A docs site: its settings, its structure (site spaces, sections, section groups) and its share links, in one
 * stream, so that every structural rule (paths unique within a section, defaults, positions) is decided on one
 * consistent state.
 */
export const siteDecider: Decider<SiteState, SiteCommand, SiteEvent> = {
  initialState: () => ({ status: 'absent' }),
  decide: decideSite,
  evolve(state, event) {
    if (event.type === 'SiteCreated') {
      return {
        status: 'active',
        siteId: event.data.siteId,
        organizationId: event.data.organizationId,
        published: false,
        structure: emptyStructure(),
        shareLinks: [],
      };
    }
    if (state.status !== 'active') return state;
    switch (event.type) {
      case 'SiteDeleted':
        return { status: 'deleted', siteId: state.siteId, organizationId: state.organizationId };
      case 'SitePublished':
        return { ...state, published: true };
      case 'SiteUnpublished':
        return { ...state, published: false };
      case 'SiteShareLinkCreated':
        return { ...state, shareLinks: [...state.shareLinks, { id: event.data.shareLinkId, active: true }] };
      case 'SiteShareLinkUpdated': {
        const { active } = event.data.changes;
        if (active === undefined) return state;
        return {
          ...state,
          shareLinks: state.shareLinks.map((one) => (one.id === event.data.shareLinkId ? { ...one, active } : one)),
        };
      }
      case 'SiteShareLinkRevoked':
        return { ...state, shareLinks: state.shareLinks.filter((one) => one.id !== event.data.shareLinkId) };
      default: {
        const structure = evolveStructure(state.structure, event);
        return structure === state.structure ? state : { ...state, structure };
      }
    }
  },
};
