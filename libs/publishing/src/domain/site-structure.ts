/**
 * The structure of a docs site: site spaces (a space published at a path), sections that hold them, and section
 * groups that hold sections. Pure functions over plain JSON, shared by the site decider (to decide) and the sites
 * projection (to show), so the order a client sees is the order the decider reasoned about.
 *
 * Order is kept in arrays: `top` is the order of what sits at the site's top level (sections outside any group,
 * and groups); the sections of a group are in the order they have in `sections`; the site spaces of one container
 * (a section, or the site's root while it has no sections) are in the order they have in `siteSpaces`.
 * Every function returns a new structure and never changes the one it is given.
 */

export interface SiteSpaceItem {
  id: string;
  spaceId: string;
  /** The section holding it; null while the site has no sections. */
  sectionId: string | null;
  path: string;
  condition?: string;
}

export interface SectionItem {
  id: string;
  title: string;
  path: string;
  groupId: string | null;
  /** The site space a visitor lands on in this section. */
  defaultSiteSpaceId: string | null;
  icon?: string;
  description?: string;
  condition?: string;
}

export interface GroupItem {
  id: string;
  title: string;
  icon?: string;
}

export interface TopItem {
  type: 'section' | 'group';
  id: string;
}

export interface SiteStructure {
  sections: SectionItem[];
  groups: GroupItem[];
  top: TopItem[];
  siteSpaces: SiteSpaceItem[];
  /** The section a visitor lands on; null while there are no sections. */
  defaultSectionId: string | null;
  /** The default site space of the root (while the site has no sections). */
  defaultSiteSpaceId: string | null;
}

export const emptyStructure = (): SiteStructure => ({
  sections: [],
  groups: [],
  top: [],
  siteSpaces: [],
  defaultSectionId: null,
  defaultSiteSpaceId: null,
});

/** Inserts `item` before the element whose id is `before` (at the end when null or absent). */
function insertBefore<T>(items: readonly T[], item: T, before: string | null, idOf: (one: T) => string): T[] {
  const index = before === null ? -1 : items.findIndex((one) => idOf(one) === before);
  if (index < 0) return [...items, item];
  return [...items.slice(0, index), item, ...items.slice(index)];
}

const byId = (item: { id: string }) => item.id;

export const siteSpacesIn = (structure: SiteStructure, sectionId: string | null) =>
  structure.siteSpaces.filter((one) => one.sectionId === sectionId);

export const sectionsOf = (structure: SiteStructure, groupId: string) =>
  structure.sections.filter((one) => one.groupId === groupId);

/** The default site space of a container, kept pointing at one of its site spaces (or null when it has none). */
function withContainerDefault(structure: SiteStructure, sectionId: string | null): SiteStructure {
  const members = siteSpacesIn(structure, sectionId);
  const pick = (current: string | null) =>
    current !== null && members.some((one) => one.id === current) ? current : (members[0]?.id ?? null);
  if (sectionId === null) return { ...structure, defaultSiteSpaceId: pick(structure.defaultSiteSpaceId) };
  return {
    ...structure,
    sections: structure.sections.map((one) =>
      one.id === sectionId ? { ...one, defaultSiteSpaceId: pick(one.defaultSiteSpaceId) } : one,
    ),
  };
}

function withSiteDefault(structure: SiteStructure): SiteStructure {
  const current = structure.defaultSectionId;
  if (current !== null && structure.sections.some((one) => one.id === current)) return structure;
  return { ...structure, defaultSectionId: orderedSections(structure)[0]?.id ?? null };
}

/** Sections in the order a visitor sees them: top level first to last, a group's sections where the group is. */
export function orderedSections(structure: SiteStructure): SectionItem[] {
  const byKey = new Map(structure.sections.map((one) => [one.id, one]));
  const ordered: SectionItem[] = [];
  for (const item of structure.top) {
    if (item.type === 'section') {
      const section = byKey.get(item.id);
      if (section) ordered.push(section);
    } else {
      ordered.push(...sectionsOf(structure, item.id));
    }
  }
  return ordered;
}

export function addSiteSpace(structure: SiteStructure, item: SiteSpaceItem): SiteStructure {
  return withContainerDefault({ ...structure, siteSpaces: [...structure.siteSpaces, item] }, item.sectionId);
}

export function updateSiteSpace(
  structure: SiteStructure,
  siteSpaceId: string,
  changes: { path?: string; condition?: string | null },
): SiteStructure {
  return {
    ...structure,
    siteSpaces: structure.siteSpaces.map((one) => {
      if (one.id !== siteSpaceId) return one;
      const next: SiteSpaceItem = { ...one, ...(changes.path !== undefined ? { path: changes.path } : {}) };
      if (changes.condition === null) delete next.condition;
      else if (changes.condition !== undefined) next.condition = changes.condition;
      return next;
    }),
  };
}

export function moveSiteSpace(structure: SiteStructure, siteSpaceId: string, before: string | null): SiteStructure {
  const moved = structure.siteSpaces.find((one) => one.id === siteSpaceId);
  if (!moved) return structure;
  const rest = structure.siteSpaces.filter((one) => one.id !== siteSpaceId);
  return { ...structure, siteSpaces: insertBefore(rest, moved, before, byId) };
}

export function removeSiteSpace(structure: SiteStructure, siteSpaceId: string): SiteStructure {
  const removed = structure.siteSpaces.find((one) => one.id === siteSpaceId);
  if (!removed) return structure;
  const rest = { ...structure, siteSpaces: structure.siteSpaces.filter((one) => one.id !== siteSpaceId) };
  return withContainerDefault(rest, removed.sectionId);
}

export function setDefaultSiteSpace(structure: SiteStructure, siteSpaceId: string): SiteStructure {
  const target = structure.siteSpaces.find((one) => one.id === siteSpaceId);
  if (!target) return structure;
  if (target.sectionId === null) return { ...structure, defaultSiteSpaceId: siteSpaceId };
  return {
    ...structure,
    sections: structure.sections.map((one) =>
      one.id === target.sectionId ? { ...one, defaultSiteSpaceId: siteSpaceId } : one,
    ),
  };
}

/**
 * Adds a section at the end of the top level with its first site space. The site spaces that sat at the root
 * (`adopted`) move into it, before that first one, so nothing disappears when a site gains its first section.
 */
export function addSection(
  structure: SiteStructure,
  section: Omit<SectionItem, 'groupId' | 'defaultSiteSpaceId'>,
  first: SiteSpaceItem,
  adopted: readonly string[],
): SiteStructure {
  const adoptedSet = new Set(adopted);
  const siteSpaces = structure.siteSpaces.map((one) =>
    adoptedSet.has(one.id) ? { ...one, sectionId: section.id } : one,
  );
  const next: SiteStructure = {
    ...structure,
    sections: [...structure.sections, { ...section, groupId: null, defaultSiteSpaceId: null }],
    top: [...structure.top, { type: 'section', id: section.id }],
    siteSpaces: [...siteSpaces, { ...first, sectionId: section.id }],
    defaultSiteSpaceId: adopted.length > 0 ? null : structure.defaultSiteSpaceId,
  };
  // the root's default, when there was one, stays the landing site space inside the new section
  const withDefault =
    structure.defaultSiteSpaceId !== null && adoptedSet.has(structure.defaultSiteSpaceId)
      ? setDefaultSiteSpace(next, structure.defaultSiteSpaceId)
      : next;
  return withSiteDefault(withContainerDefault(withDefault, section.id));
}

export function updateSection(
  structure: SiteStructure,
  sectionId: string,
  changes: {
    title?: string;
    path?: string;
    condition?: string | null;
    icon?: string | null;
    description?: string | null;
  },
): SiteStructure {
  return {
    ...structure,
    sections: structure.sections.map((one) => {
      if (one.id !== sectionId) return one;
      const next: SectionItem = { ...one };
      if (changes.title !== undefined) next.title = changes.title;
      if (changes.path !== undefined) next.path = changes.path;
      for (const key of ['condition', 'icon', 'description'] as const) {
        const value = changes[key];
        if (value === null) delete next[key];
        else if (value !== undefined) next[key] = value;
      }
      return next;
    }),
  };
}

/**
 * Moves a section before another one, or to the end of the top level (`before` null). A section moved next to a
 * section of a group joins that group; next to a top-level item it leaves any group.
 */
export function moveSection(
  structure: SiteStructure,
  sectionId: string,
  placement: { groupId: string | null; before: string | null },
): SiteStructure {
  const moving = structure.sections.find((one) => one.id === sectionId);
  if (!moving) return structure;
  const moved: SectionItem = { ...moving, groupId: placement.groupId };
  const sections = structure.sections.filter((one) => one.id !== sectionId);
  const top = structure.top.filter((one) => one.id !== sectionId);
  if (placement.groupId !== null) {
    return { ...structure, sections: insertBefore(sections, moved, placement.before, byId), top };
  }
  return {
    ...structure,
    sections: [...sections, moved],
    top: insertBefore(top, { type: 'section', id: sectionId }, placement.before, byId),
  };
}

export function removeSection(structure: SiteStructure, sectionId: string): SiteStructure {
  return withSiteDefault({
    ...structure,
    sections: structure.sections.filter((one) => one.id !== sectionId),
    top: structure.top.filter((one) => one.id !== sectionId),
    siteSpaces: structure.siteSpaces.filter((one) => one.sectionId !== sectionId),
  });
}

export function setDefaultSection(structure: SiteStructure, sectionId: string): SiteStructure {
  return { ...structure, defaultSectionId: sectionId };
}

/** Adds a group at the end of the top level; the listed sections move into it in that order. */
export function addGroup(structure: SiteStructure, group: GroupItem, sectionIds: readonly string[]): SiteStructure {
  let next: SiteStructure = {
    ...structure,
    groups: [...structure.groups, group],
    top: [...structure.top, { type: 'group', id: group.id }],
  };
  for (const sectionId of sectionIds) next = moveSection(next, sectionId, { groupId: group.id, before: null });
  return next;
}

export function updateGroup(
  structure: SiteStructure,
  groupId: string,
  changes: { title?: string; icon?: string | null },
): SiteStructure {
  return {
    ...structure,
    groups: structure.groups.map((one) => {
      if (one.id !== groupId) return one;
      const next: GroupItem = { ...one, ...(changes.title !== undefined ? { title: changes.title } : {}) };
      if (changes.icon === null) delete next.icon;
      else if (changes.icon !== undefined) next.icon = changes.icon;
      return next;
    }),
  };
}

export function moveGroup(structure: SiteStructure, groupId: string, before: string | null): SiteStructure {
  const top = structure.top.filter((one) => one.id !== groupId);
  return { ...structure, top: insertBefore(top, { type: 'group', id: groupId }, before, byId) };
}

/** Takes a section out of its group and puts it at the top level right after the group. */
export function ungroupSection(structure: SiteStructure, sectionId: string): SiteStructure {
  const section = structure.sections.find((one) => one.id === sectionId);
  if (!section || section.groupId === null) return structure;
  const groupIndex = structure.top.findIndex((one) => one.id === section.groupId);
  const after = structure.top[groupIndex + 1]?.id ?? null;
  return moveSection(structure, sectionId, { groupId: null, before: after });
}

/** Removes a group; its sections go back to the top level where the group was, in their order. */
export function removeGroup(structure: SiteStructure, groupId: string): SiteStructure {
  const members = sectionsOf(structure, groupId);
  const index = structure.top.findIndex((one) => one.id === groupId);
  const released: TopItem[] = members.map((one) => ({ type: 'section', id: one.id }));
  const top =
    index < 0
      ? [...structure.top, ...released]
      : [...structure.top.slice(0, index), ...released, ...structure.top.slice(index + 1)];
  const memberIds = new Set(members.map((one) => one.id));
  return {
    ...structure,
    groups: structure.groups.filter((one) => one.id !== groupId),
    top,
    sections: structure.sections.map((one) => (memberIds.has(one.id) ? { ...one, groupId: null } : one)),
  };
}
