import { at, given } from '@app/kernel/testing';
import { type SiteCommand, type SiteEvent, siteDecider, siteStream } from './site.decider';
import { orderedSections, siteSpacesIn } from './site-structure';
import { fold } from '@app/kernel/domain';

const now = '2026-03-01T10:00:00.000Z';
const meta = at(now);
const site = { siteId: 's1', organizationId: 'o1' };
const sid = { siteId: 's1' };

const created: SiteEvent = {
  type: 'SiteCreated',
  data: { ...site, type: 'basic', title: 'Docs', visibility: 'public', createdBy: 'user-1', createdAt: now },
};
const added = (siteSpaceId: string, spaceId: string, path: string, sectionId: string | null = null): SiteEvent => ({
  type: 'SiteSpaceAdded',
  data: { ...sid, siteSpaceId, spaceId, sectionId, path, addedAt: now },
});
const section = (sectionId: string, siteSpaceId: string, spaceId: string, adopted: string[] = []): SiteEvent => ({
  type: 'SiteSectionAdded',
  data: {
    ...sid,
    sectionId,
    title: `Section ${sectionId}`,
    path: sectionId,
    first: { siteSpaceId, spaceId, path: spaceId },
    adopted,
    addedAt: now,
  },
});
const command = <T extends SiteCommand['type']>(type: T, data: object) =>
  ({ type, data: { ...site, ...data }, metadata: meta }) as unknown as SiteCommand;
const state = (history: SiteEvent[]) => fold(siteDecider, history);
const structureOf = (history: SiteEvent[]) => {
  const folded = state(history);
  if (folded.status !== 'active') throw new Error('not active');
  return folded.structure;
};

describe('site decider', () => {
  it('names its stream after the site', () => expect(siteStream('s1')).toBe('site-s1'));

  describe('creating', () => {
    it('creates a site with its spaces at the root, paths made unique, the first one default', () => {
      given(siteDecider)
        .when(
          command('CreateSite', {
            type: 'basic',
            title: 'Docs',
            visibility: 'public',
            siteSpaces: [
              { siteSpaceId: 'a', spaceId: 'x', path: 'guide' },
              { siteSpaceId: 'b', spaceId: 'y', path: 'guide' },
              { siteSpaceId: 'c', spaceId: 'z', path: '' },
            ],
          }),
        )
        .then([created, added('a', 'x', 'guide'), added('b', 'y', 'guide-2'), added('c', 'z', 'space')]);
      expect(structureOf([created, added('a', 'x', 'guide'), added('b', 'y', 'guide-2')]).defaultSiteSpaceId).toBe('a');
    });

    it('refuses a title of 1 or 129 characters', () => {
      for (const title of ['D', 'x'.repeat(129)]) {
        given(siteDecider)
          .when(command('CreateSite', { type: 'basic', title, visibility: 'public', siteSpaces: [] }))
          .thenThrows('validation', /title/);
      }
    });

    it("hides another organization's site", () => {
      given(siteDecider, [created])
        .when({ ...command('PublishSite', {}), data: { siteId: 's1', organizationId: 'o2' } } as SiteCommand)
        .thenThrows('not-found');
    });
  });

  describe('publishing', () => {
    it('refuses to publish a site without site spaces, and publishes one with a site space once', () => {
      given(siteDecider, [created])
        .when(command('PublishSite', {}))
        .thenThrows('illegal-state', /site space/);
      given(siteDecider, [created, added('a', 'x', 'x')])
        .when(command('PublishSite', {}))
        .then([{ type: 'SitePublished', data: { ...sid, publishedAt: now } }]);
      given(siteDecider, [created, added('a', 'x', 'x'), { type: 'SitePublished', data: { ...sid, publishedAt: now } }])
        .when(command('PublishSite', {}))
        .thenNothing();
      given(siteDecider, [created]).when(command('UnpublishSite', {})).thenNothing();
    });

    it('checks the proxy pattern and removes it with null', () => {
      given(siteDecider, [created])
        .when(command('UpdateSite', { changes: { proxy: 'example.com' } }))
        .thenThrows('validation', /proxy/);
      given(siteDecider, [created])
        .when(command('UpdateSite', { changes: { proxy: null } }))
        .then([{ type: 'SiteUpdated', data: { ...sid, changes: { proxy: null }, updatedAt: now } }]);
    });
  });

  describe('site spaces', () => {
    const history = [created, added('a', 'x', 'one'), added('b', 'y', 'two'), added('c', 'z', 'three')];

    it('refuses the same space twice in a container and a path taken in it', () => {
      given(siteDecider, history)
        .when(command('AddSiteSpace', { siteSpaceId: 'd', spaceId: 'x', path: 'x' }))
        .thenThrows('illegal-state', /already/);
      given(siteDecider, history)
        .when(command('UpdateSiteSpace', { siteSpaceId: 'b', changes: { path: 'one' } }))
        .thenThrows('illegal-state', /path/);
    });

    it('moves before and after siblings, and to the end without a position', () => {
      given(siteDecider, history)
        .when(command('MoveSiteSpace', { siteSpaceId: 'c', position: { before: 'a' } }))
        .then([{ type: 'SiteSpaceMoved', data: { ...sid, siteSpaceId: 'c', before: 'a', movedAt: now } }]);
      given(siteDecider, history)
        .when(command('MoveSiteSpace', { siteSpaceId: 'a', position: { after: 'b' } }))
        .then([{ type: 'SiteSpaceMoved', data: { ...sid, siteSpaceId: 'a', before: 'c', movedAt: now } }]);
      given(siteDecider, history)
        .when(command('MoveSiteSpace', { siteSpaceId: 'a' }))
        .then([{ type: 'SiteSpaceMoved', data: { ...sid, siteSpaceId: 'a', before: null, movedAt: now } }]);
      const moved = structureOf([
        ...history,
        { type: 'SiteSpaceMoved', data: { ...sid, siteSpaceId: 'a', before: 'c', movedAt: now } },
      ]);
      expect(siteSpacesIn(moved, null).map((one) => one.id)).toEqual(['b', 'a', 'c']);
    });

    it('refuses a pointer outside the site or to itself', () => {
      given(siteDecider, history)
        .when(command('MoveSiteSpace', { siteSpaceId: 'a', position: { before: 'elsewhere' } }))
        .thenThrows('validation', /position.before/);
      given(siteDecider, history)
        .when(command('MoveSiteSpace', { siteSpaceId: 'a', position: { after: 'a' } }))
        .thenThrows('validation', /itself/);
      given(siteDecider, history)
        .when(command('MoveSiteSpace', { siteSpaceId: 'a', position: { before: 'b', after: 'c' } }))
        .thenThrows('validation', /either/);
    });

    it('removes only while the site space still shows the space named, and passes the default on', () => {
      given(siteDecider, history)
        .when(command('RemoveSiteSpace', { siteSpaceId: 'a', onlyIfSpace: 'y' }))
        .thenNothing();
      given(siteDecider, history)
        .when(command('RemoveSiteSpace', { siteSpaceId: 'gone' }))
        .thenNothing();
      const removed: SiteEvent = {
        type: 'SiteSpaceRemoved',
        data: { ...sid, siteSpaceId: 'a', spaceId: 'x', reason: 'space-deleted', removedAt: now },
      };
      given(siteDecider, history)
        .when(command('RemoveSiteSpace', { siteSpaceId: 'a', onlyIfSpace: 'x', reason: 'space-deleted' }))
        .then([removed]);
      expect(structureOf([...history, removed]).defaultSiteSpaceId).toBe('b');
    });
  });

  describe('sections and groups', () => {
    const rooted = [created, added('a', 'x', 'one'), added('b', 'y', 'two')];

    it('moves the root site spaces into the first section, before its own site space', () => {
      given(siteDecider, rooted)
        .when(
          command('AddSection', {
            sectionId: 'p',
            title: 'Products',
            path: 'products',
            first: { siteSpaceId: 'c', spaceId: 'z', path: 'z' },
          }),
        )
        .then([
          {
            type: 'SiteSectionAdded',
            data: {
              ...sid,
              sectionId: 'p',
              title: 'Products',
              path: 'products',
              first: { siteSpaceId: 'c', spaceId: 'z', path: 'z' },
              adopted: ['a', 'b'],
              addedAt: now,
            },
          },
        ]);
      const structure = structureOf([...rooted, section('p', 'c', 'z', ['a', 'b'])]);
      expect(siteSpacesIn(structure, 'p').map((one) => one.id)).toEqual(['a', 'b', 'c']);
      expect(siteSpacesIn(structure, null)).toEqual([]);
      expect(structure.defaultSectionId).toBe('p');
      expect(structure.sections[0]!.defaultSiteSpaceId).toBe('a');
    });

    it('refuses a section title over 64 characters on creation and a section path taken', () => {
      given(siteDecider, rooted)
        .when(
          command('AddSection', {
            sectionId: 'p',
            title: 'x'.repeat(65),
            path: 'p',
            first: { siteSpaceId: 'c', spaceId: 'z', path: 'z' },
          }),
        )
        .thenThrows('validation', /title/);
      given(siteDecider, [...rooted, section('p', 'c', 'z', ['a', 'b']), section('q', 'd', 'w')])
        .when(command('UpdateSection', { sectionId: 'q', changes: { path: 'p' } }))
        .thenThrows('illegal-state', /path/);
    });

    it('puts new site spaces in the default section and passes the default section on when it is removed', () => {
      const history = [...rooted, section('p', 'c', 'z', ['a', 'b']), section('q', 'd', 'w')];
      given(siteDecider, history)
        .when(command('AddSiteSpace', { siteSpaceId: 'e', spaceId: 'v', path: 'v' }))
        .then([added('e', 'v', 'v', 'p')]);
      const removed = structureOf([
        ...history,
        { type: 'SiteSectionRemoved', data: { ...sid, sectionId: 'p', removedAt: now } },
      ]);
      expect(removed.defaultSectionId).toBe('q');
      expect(removed.siteSpaces.map((one) => one.id)).toEqual(['d']);
    });

    it('groups sections, moves a section next to a grouped one into that group, and ungroups on group removal', () => {
      const history: SiteEvent[] = [
        ...rooted,
        section('p', 'c', 'z', ['a', 'b']),
        section('q', 'd', 'w'),
        section('r', 'e', 'v'),
        {
          type: 'SiteSectionGroupAdded',
          data: { ...sid, groupId: 'g', title: 'Group', sectionIds: ['q'], addedAt: now },
        },
      ];
      given(siteDecider, history)
        .when(command('MoveSection', { sectionId: 'r', position: { before: 'q' } }))
        .then([
          { type: 'SiteSectionMoved', data: { ...sid, sectionId: 'r', groupId: 'g', before: 'q', movedAt: now } },
        ]);
      const grouped = structureOf([
        ...history,
        { type: 'SiteSectionMoved', data: { ...sid, sectionId: 'r', groupId: 'g', before: 'q', movedAt: now } },
      ]);
      expect(grouped.top).toEqual([
        { type: 'section', id: 'p' },
        { type: 'group', id: 'g' },
      ]);
      expect(orderedSections(grouped).map((one) => one.id)).toEqual(['p', 'r', 'q']);
      given(siteDecider, history)
        .when(command('MoveSectionGroup', { groupId: 'g', position: { before: 'q' } }))
        .thenThrows('validation', /nest/);
      const ungrouped = structureOf([
        ...history,
        { type: 'SiteSectionGroupMoved', data: { ...sid, groupId: 'g', before: 'p', movedAt: now } },
        { type: 'SiteSectionGroupRemoved', data: { ...sid, groupId: 'g', removedAt: now } },
      ]);
      expect(ungrouped.top.map((one) => one.id)).toEqual(['q', 'p', 'r']);
      expect(ungrouped.groups).toEqual([]);
    });
  });

  describe('share links', () => {
    it('records only the hash, toggles and revokes; revoking twice changes nothing', () => {
      given(siteDecider, [created])
        .when(command('CreateShareLink', { shareLinkId: 'l', name: 'Partners', keyHash: 'ab'.repeat(32) }))
        .then([
          {
            type: 'SiteShareLinkCreated',
            data: { ...sid, shareLinkId: 'l', name: 'Partners', keyHash: 'ab'.repeat(32), createdAt: now },
          },
        ]);
      given(siteDecider, [created])
        .when(command('RevokeShareLink', { shareLinkId: 'l' }))
        .thenNothing();
      given(siteDecider, [created])
        .when(command('UpdateShareLink', { shareLinkId: 'l', changes: { active: false } }))
        .thenThrows('not-found');
    });
  });
});
