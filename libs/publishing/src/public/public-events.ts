/**
 * The publishing context's public events: docs sites, their settings, publication and structure (site spaces,
 * sections, section groups), and share links (organization admins only; the key and its hash never appear).
 * The subject of every event is the site; the item a structural event is about is in `data`.
 */
import { js, ownerKey, pick, publicEventMapper, publicKind } from '@app/kernel';

type Data = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const SITE_SETTINGS = ['title', 'visibility', 'basename', 'adaptiveContent', 'agentsContext', 'proxy'] as const;
const visibility = js.enum('public', 'unlisted', 'share-link', 'visitor-auth');
const siteChanges = js.partial({
  title: js.string,
  visibility,
  basename: js.string,
  adaptiveContent: js.object({ enabled: js.boolean }),
  agentsContext: js.enum('excluded', 'included'),
  proxy: js.nullable(js.string),
});

function site(type: string, d: Data, data: Record<string, unknown>, audience?: 'admin') {
  return {
    type,
    organization: d.organizationId ?? { ownerOf: ownerKey('site', d.siteId) },
    subject: { object: 'site', id: d.siteId as string },
    data,
    ...(audience ? { audience } : {}),
  };
}

const ref = (id: string | null | undefined) => (id ? { id } : null);
const nullableRef = js.nullable(js.ref);
const kind = (
  type: string,
  description: string,
  data: Record<string, ReturnType<typeof js.object>>,
  optional: string[] = [],
) => publicKind(type, 'site', description, js.object(data, optional));

export const publishingPublicEvents = publicEventMapper({
  kinds: [
    kind('site.created', 'A docs site was created.', {
      type: js.string,
      title: js.string,
      visibility,
    }),
    kind('site.updated', "A site's settings changed: `changes` holds the fields set.", { changes: siteChanges }),
    kind('site.published', 'A site is served to its audience.', {}),
    kind('site.unpublished', 'A site is offline again.', {}),
    kind('site.deleted', 'A site was deleted (its spaces stay).', {}),
    kind('site.adaptive_schema_updated', "A site's adaptive content schema was replaced.", {}),
    kind('site.customization_updated', "A site's customization was replaced.", {}),
    kind('site_space.added', 'A space was put on the site (in `section`, or at the root).', {
      siteSpace: js.ref,
      space: js.ref,
      section: nullableRef,
      path: js.string,
    }),
    kind('site_space.updated', "A site space's path or condition changed.", {
      siteSpace: js.ref,
      changes: js.partial({ path: js.string, condition: js.nullable(js.string) }),
    }),
    kind('site_space.moved', 'A site space moved among its siblings (`before`: the one it now precedes).', {
      siteSpace: js.ref,
      before: nullableRef,
    }),
    kind(
      'site_space.removed',
      'A space was taken off the site (`reason` when the service did it because the space was deleted or moved away).',
      { siteSpace: js.ref, space: js.ref, reason: js.enum('space-deleted', 'space-transferred') },
      ['reason'],
    ),
    kind('site_space.default_changed', 'Visitors now land on this site space in its container.', {
      siteSpace: js.ref,
    }),
    kind('site_section.added', 'A section was added with its first site space.', {
      section: js.ref,
      title: js.string,
      path: js.string,
      siteSpace: js.ref,
      space: js.ref,
    }),
    kind('site_section.updated', "A section's settings changed.", {
      section: js.ref,
      changes: js.partial({
        title: js.string,
        path: js.string,
        condition: js.nullable(js.string),
        icon: js.nullable(js.string),
        description: js.nullable(js.string),
      }),
    }),
    kind('site_section.moved', 'A section moved (into `group`, or to the top level when null).', {
      section: js.ref,
      group: nullableRef,
      before: nullableRef,
    }),
    kind('site_section.ungrouped', 'A section left its group and sits right after it.', {
      section: js.ref,
      group: js.ref,
    }),
    kind('site_section.removed', 'A section was removed with its site spaces.', { section: js.ref }),
    kind('site_section.default_changed', 'Visitors now land on this section.', { section: js.ref }),
    kind('site_section_group.added', 'A section group was added.', {
      group: js.ref,
      title: js.string,
      sections: js.array(js.ref),
    }),
    kind('site_section_group.updated', "A section group's title or icon changed.", {
      group: js.ref,
      changes: js.partial({ title: js.string, icon: js.nullable(js.string) }),
    }),
    kind('site_section_group.moved', 'A section group moved among the top-level items.', {
      group: js.ref,
      before: nullableRef,
    }),
    kind('site_section_group.removed', 'A section group was removed (its sections stay where it was).', {
      group: js.ref,
    }),
    kind('site_share_link.created', 'A share link was created (admins only; its key never appears).', {
      shareLink: js.ref,
      name: js.string,
    }),
    kind('site_share_link.updated', "A share link's name or state changed (admins only).", {
      shareLink: js.ref,
      changes: js.partial({ name: js.string, active: js.boolean }),
    }),
    kind('site_share_link.revoked', 'A share link was revoked (admins only).', { shareLink: js.ref }),
  ],
  owners: {
    SiteCreated: (d) => [{ key: ownerKey('site', d.siteId), organization: d.organizationId }],
  },
  rules: {
    SiteCreated: (d) => site('site.created', d, { type: d.type, title: d.title, visibility: d.visibility }),
    SiteUpdated: (d) => site('site.updated', d, { changes: pick(d.changes, SITE_SETTINGS) }),
    SitePublished: (d) => site('site.published', d, {}),
    SiteUnpublished: (d) => site('site.unpublished', d, {}),
    SiteDeleted: (d) => site('site.deleted', d, {}),
    SiteAdaptiveSchemaChanged: (d) => site('site.adaptive_schema_updated', d, {}),
    SiteCustomized: (d) => site('site.customization_updated', d, {}),
    SiteSpaceAdded: (d) =>
      site('site_space.added', d, {
        siteSpace: { id: d.siteSpaceId },
        space: { id: d.spaceId },
        section: ref(d.sectionId),
        path: d.path,
      }),
    SiteSpaceUpdated: (d) =>
      site('site_space.updated', d, {
        siteSpace: { id: d.siteSpaceId },
        changes: pick(d.changes, ['path', 'condition']),
      }),
    SiteSpaceMoved: (d) => site('site_space.moved', d, { siteSpace: { id: d.siteSpaceId }, before: ref(d.before) }),
    SiteSpaceRemoved: (d) =>
      site('site_space.removed', d, {
        siteSpace: { id: d.siteSpaceId },
        space: { id: d.spaceId },
        ...(d.reason ? { reason: d.reason } : {}),
      }),
    SiteDefaultSiteSpaceChanged: (d) => site('site_space.default_changed', d, { siteSpace: { id: d.siteSpaceId } }),
    SiteSectionAdded: (d) =>
      site('site_section.added', d, {
        section: { id: d.sectionId },
        title: d.title,
        path: d.path,
        siteSpace: { id: d.first.siteSpaceId },
        space: { id: d.first.spaceId },
      }),
    SiteSectionUpdated: (d) =>
      site('site_section.updated', d, {
        section: { id: d.sectionId },
        changes: pick(d.changes, ['title', 'path', 'condition', 'icon', 'description']),
      }),
    SiteSectionMoved: (d) =>
      site('site_section.moved', d, { section: { id: d.sectionId }, group: ref(d.groupId), before: ref(d.before) }),
    SiteSectionUngrouped: (d) =>
      site('site_section.ungrouped', d, { section: { id: d.sectionId }, group: { id: d.groupId } }),
    SiteSectionRemoved: (d) => site('site_section.removed', d, { section: { id: d.sectionId } }),
    SiteDefaultSectionChanged: (d) => site('site_section.default_changed', d, { section: { id: d.sectionId } }),
    SiteSectionGroupAdded: (d) =>
      site('site_section_group.added', d, {
        group: { id: d.groupId },
        title: d.title,
        sections: (d.sectionIds as string[]).map((id) => ({ id })),
      }),
    SiteSectionGroupUpdated: (d) =>
      site('site_section_group.updated', d, { group: { id: d.groupId }, changes: pick(d.changes, ['title', 'icon']) }),
    SiteSectionGroupMoved: (d) =>
      site('site_section_group.moved', d, { group: { id: d.groupId }, before: ref(d.before) }),
    SiteSectionGroupRemoved: (d) => site('site_section_group.removed', d, { group: { id: d.groupId } }),
    SiteShareLinkCreated: (d) =>
      site('site_share_link.created', d, { shareLink: { id: d.shareLinkId }, name: d.name }, 'admin'),
    SiteShareLinkUpdated: (d) =>
      site(
        'site_share_link.updated',
        d,
        { shareLink: { id: d.shareLinkId }, changes: pick(d.changes, ['name', 'active']) },
        'admin',
      ),
    SiteShareLinkRevoked: (d) => site('site_share_link.revoked', d, { shareLink: { id: d.shareLinkId } }, 'admin'),
  },
});
