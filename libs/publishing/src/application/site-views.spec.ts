import { deepFreeze } from '@app/kernel';
import { SqliteReadStore } from '@app/read-store';
import { type SiteStructure, emptyStructure } from '../domain';
import { type SiteDoc } from './read-models';
import { SiteViews } from './site-views';

const space = (id: string, organizationId: string, deleted = false) => ({
  id,
  organizationId,
  parent: null,
  title: id,
  emoji: '',
  editMode: 'live',
  defaultLevel: 'inherit',
  revision: 'r',
  sortKey: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  deleted,
  version: 0,
});

function siteShowing(spaceIds: string[]): SiteDoc {
  const structure: SiteStructure = {
    ...emptyStructure(),
    siteSpaces: spaceIds.map((spaceId, index) => ({ id: `ss${index}`, spaceId, sectionId: null, path: spaceId })),
  };
  return {
    id: 'site',
    organizationId: 'org',
    type: 'basic',
    title: 'Site',
    visibility: 'public',
    published: false,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    structure,
    spaceIds,
    shareLinks: [],
    version: 1,
  } as SiteDoc;
}

describe('SiteViews: the site alone', () => {
  let store: SqliteReadStore;
  let views: SiteViews;

  beforeEach(async () => {
    store = new SqliteReadStore({ file: ':memory:' });
    const urls = { api: 'https://api.test/v1', app: 'https://app.test' };
    views = new SiteViews(store, urls as never, 'https://sites.test', {} as never, {} as never);
    await store.write([
      { kind: 'put', collection: 'spaces', doc: space('live', 'org'), position: 1n },
      { kind: 'put', collection: 'spaces', doc: space('also-live', 'org'), position: 1n },
      { kind: 'put', collection: 'spaces', doc: space('deleted', 'org', true), position: 1n },
      { kind: 'put', collection: 'spaces', doc: space('elsewhere', 'other-org'), position: 1n },
    ]);
  });

  afterEach(() => store.close());

  it('counts every site space while all their spaces are there', async () => {
    const summary = await views.summary(siteShowing(['live', 'also-live']));
    expect(summary.liveSiteSpaces).toBe(2);
    expect(views.site(summary).siteSpaces).toBe(2);
  });

  it('leaves out site spaces whose space is deleted, moved to another organization, or gone', async () => {
    // the clean-up process takes them off the site later; until then answers must not count them
    const site = siteShowing(['live', 'deleted', 'elsewhere', 'missing', 'also-live']);
    for (let read = 0; read < 2; read++) {
      // the second time every document (and the known absence) comes from the store's cache
      expect((await views.summary(site)).liveSiteSpaces).toBe(2);
    }
    expect(views.site(await views.summary(siteShowing(['missing']))).siteSpaces).toBe(0);
  });

  it('counts again, for the same site, once one of its spaces changes', async () => {
    // a frozen site, as the read store hands out: its count and body are kept while its spaces stay as they were
    const site = deepFreeze(siteShowing(['live', 'also-live']));
    const body = views.keptSite(await views.summary(site));
    expect(body.siteSpaces).toBe(2);
    expect(views.keptSite(await views.summary(site))).toBe(body);
    await store.write([{ kind: 'put', collection: 'spaces', doc: space('also-live', 'org', true), position: 2n }]);
    expect(views.keptSite(await views.summary(site)).siteSpaces).toBe(1);
    await store.write([{ kind: 'put', collection: 'spaces', doc: space('also-live', 'org'), position: 3n }]);
    expect(views.keptSite(await views.summary(site)).siteSpaces).toBe(2);
  });
});
