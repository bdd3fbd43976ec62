import { GitBookAPI } from '@gitbook/api';
import {
  SEARCH_INDEX,
  type SearchIndex,
  newEventId,
  newId,
  positionFromString,
  requestProjectionRebuild,
} from '@app/kernel';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../apps/api/src/config';
import { TestService, expectError } from '../support/service';

/**
 * Full-text search over HTTP on the embedded backends (SQLite FTS5): what a query finds and in which order,
 * hostile query text, paging, who sees what, and read-your-writes after every kind of change. Every 2xx answer is
 * checked against the official schema by `TestService.call`.
 */

type Account = { userId: string; token: string; organizationId: string };

interface Change {
  operation: string;
  [key: string]: unknown;
}

describe('search (e2e)', () => {
  let service: TestService;
  let owner: Account;
  let outsider: Account;
  let reader: { userId: string; token: string };
  let guest: { userId: string; token: string };
  const as = (token: string) => service.as(token);
  const org = () => owner.organizationId;
  const q = (text: string) => encodeURIComponent(text);

  async function newSpace(title: string, organizationId = org(), token = owner.token): Promise<string> {
    const created = await as(token).post(`/v1/orgs/${organizationId}/spaces`, { title });
    expect(created.status).toBe(201);
    return created.body.id;
  }

  /** Changes a space's live content through a merged change request; answers the ids of inserted pages. */
  async function write(spaceId: string, changes: Change[], token = owner.token): Promise<string[]> {
    service.clock.advance(1000);
    const cr = await as(token).post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Edit' });
    const written = await as(token).post(`/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content?compat=false`, {
      changes,
    });
    expect(written.status).toBe(200);
    const merged = await as(token).post(`/v1/spaces/${spaceId}/change-requests/${cr.body.id}/merge`);
    expect(merged.status).toBe(200);
    return (written.body.changes as { object: string; page: { id: string } }[])
      .filter((change) => change.object === 'created_page')
      .map((change) => change.page.id);
  }

  const page = (title: string, markdown: string): Change => ({
    operation: 'insert_page',
    title,
    document: { markdown },
  });

  const inSpace = (spaceId: string, text: string, token = owner.token, extra = '') =>
    as(token).get(`/v1/spaces/${spaceId}/search?query=${q(text)}${extra}`);
  const inOrg = (text: string, token = owner.token, organizationId = org(), extra = '') =>
    as(token).get(`/v1/orgs/${organizationId}/search?query=${q(text)}${extra}`);
  const titles = async (spaceId: string, text: string) => {
    const found = await inSpace(spaceId, text);
    expect(found.status).toBe(200);
    return (found.body.items as { title: string }[]).map((item) => item.title);
  };
  const spacesFound = async (text: string, token = owner.token, organizationId = org()) => {
    const found = await inOrg(text, token, organizationId);
    expect(found.status).toBe(200);
    expect(found.body.count).toBe(found.body.items.length);
    return (found.body.items as { id: string }[]).map((item) => item.id);
  };

  let handbook: string;

  beforeAll(async () => {
    service = await TestService.start();
    owner = await service.signUp('owner@acme.test', { name: 'Owner', org: 'Acme' });
    outsider = await service.signUp('outsider@elsewhere.test', { name: 'Outsider', org: 'Elsewhere' });
    reader = await service.signUp('reader@acme.test', { name: 'Reader' });
    guest = await service.signUp('guest@acme.test', { name: 'Guest' });
    for (const [email, role] of [
      ['reader@acme.test', 'read'],
      ['guest@acme.test', null],
    ] as const) {
      const invited = await as(owner.token).post(`/v1/orgs/${org()}/invites`, { emails: [email], role });
      expect(invited.status).toBe(200);
    }
    handbook = await newSpace('Handbook');
    await write(handbook, [
      page(
        'Deployment guide',
        'How we ship.\n\n## Configuring runners\n\nThe runners are configured once.\n\n## Rollback\n\nInstall the agent, then roll back.',
      ),
      page('Café etiquette', 'Résumé of the rules: no crème brûlée at the desk.'),
      page('Observability', 'Logs and metrics. The agent will install itself on every host.'),
    ]);
  }, 60_000);

  afterAll(async () => {
    await service?.stop();
  });

  it('finds words through their stems, whatever their case and diacritics, and phrases only where they follow', async () => {
    expect(await titles(handbook, 'configuration')).toEqual(['Deployment guide']);
    expect(await titles(handbook, 'CAFE creme')).toEqual(['Café etiquette']);
    expect(await titles(handbook, 'résumé')).toEqual(['Café etiquette']);
    expect(await titles(handbook, '"install the agent"')).toEqual(['Deployment guide']);
    expect((await titles(handbook, 'install agent')).sort()).toEqual(['Deployment guide', 'Observability']);
  });

  it('answers while the last word is typed, from its fourth character on', async () => {
    expect(await titles(handbook, 'obs')).toEqual([]);
    for (const typed of ['obse', 'observ', 'observabil', 'observability']) {
      expect(await titles(handbook, typed)).toEqual(['Observability']);
    }
    expect(await titles(handbook, 'metrics observabil')).toEqual(['Observability']);
  });

  it('lists the matching sections of a page with a snippet where matched words are marked', async () => {
    const found = await inSpace(handbook, 'runners');
    expect(found.body).toEqual({
      items: [
        {
          id: expect.any(String),
          title: 'Deployment guide',
          path: 'deployment-guide',
          sections: [
            {
              id: 'configuring-runners',
              title: 'Configuring runners',
              path: 'deployment-guide#configuring-runners',
              body: 'The **runners** are configured once.',
              urls: { app: `${service.config.appUrl}/s/${handbook}/deployment-guide#configuring-runners` },
            },
          ],
          urls: { app: `${service.config.appUrl}/s/${handbook}/deployment-guide` },
        },
      ],
      count: 1,
    });
  });

  it('ranks title over heading over body, all words over some, then the most recently changed', async () => {
    const space = await newSpace('Ranking');
    await write(space, [page('Plain', 'a word about kubernetes here')]);
    await write(space, [page('Heading', 'intro\n\n## Kubernetes\n\ntext')]);
    await write(space, [page('Kubernetes', 'nothing else')]);
    await write(space, [page('Newer plain', 'kubernetes again')]);
    await write(space, [page('Both', 'kubernetes and helm')]);
    expect(await titles(space, 'kubernetes helm')).toEqual(['Both', 'Kubernetes', 'Heading', 'Newer plain', 'Plain']);
  });

  it('treats any query text as text: 200, never an index syntax error; punctuation alone finds nothing', async () => {
    for (const text of [
      '"',
      '"unclosed',
      '*',
      'obs*',
      'NEAR(',
      'NEAR(agent install)',
      '-',
      '-agent',
      ':',
      'col:agent',
      'AND',
      'agent AND',
      'OR NOT',
      '^agent',
      '{text}: agent',
      '()',
      '\\',
      "'",
      '🙂',
      '…',
      'a'.repeat(512),
    ]) {
      for (const call of [inSpace(handbook, text), inOrg(text)]) {
        const found = await call;
        expect({ text, status: found.status }).toEqual({ text, status: 200 });
      }
    }
    for (const text of ['*', '"', '- : *', '()', '!!!', '…']) {
      expect((await inSpace(handbook, text)).body).toEqual({ items: [], count: 0 });
      expect((await inOrg(text)).body).toEqual({ items: [], count: 0 });
    }
    expect(await titles(handbook, 'NEAR(agent')).toEqual(expect.arrayContaining(['Observability']));
    expect(await titles(handbook, '-runners')).toEqual(['Deployment guide']);
  });

  it('takes 1 to 512 characters counted as code points; empty, blank, longer or missing is 400', async () => {
    expect((await inSpace(handbook, '🙂'.repeat(512))).status).toBe(200);
    expect((await inOrg('é'.repeat(512))).status).toBe(200);
    for (const text of ['', '   ', '\t\n', 'a'.repeat(513), '🙂'.repeat(513)]) {
      expectError(await inSpace(handbook, text), 400, /query/);
      expectError(await inOrg(text), 400, /query/);
    }
    expectError(await as(owner.token).get(`/v1/spaces/${handbook}/search`), 400, /query/);
    expectError(await as(owner.token).get(`/v1/orgs/${org()}/search?query=a&query=b`), 400, /query/);
    expectError(await inSpace(handbook, 'agent', owner.token, '&limit=1001'), 400, /limit/);
    expectError(await inSpace(handbook, 'agent', owner.token, '&page=forged'), 400, /page/);
  });

  it('pages through results with an exact count, and refuses a cursor of another query', async () => {
    const space = await newSpace('Many');
    await write(
      space,
      Array.from({ length: 12 }, (_, i) => page(`Zebra ${i}`, `zebra number ${i}`)),
    );
    const seen: string[] = [];
    let next: string | undefined;
    let first: { next?: { page: string } } | undefined;
    do {
      const found = await inSpace(space, 'zebra', owner.token, `&limit=5${next ? `&page=${next}` : ''}`);
      expect(found.status).toBe(200);
      expect(found.body.count).toBe(12);
      first ??= found.body;
      seen.push(...(found.body.items as { id: string }[]).map((item) => item.id));
      next = found.body.next?.page;
    } while (next);
    expect(seen).toHaveLength(12);
    expect(new Set(seen).size).toBe(12);
    expectError(await inSpace(space, 'zebras', owner.token, `&page=${first!.next!.page}`), 400, /page/);
    expectError(await inSpace(handbook, 'zebra', owner.token, `&page=${first!.next!.page}`), 400, /page/);
    const none = await inSpace(space, 'zebra', owner.token, '&limit=0');
    expect(none.body).toEqual({ items: [], count: 12 });
  });

  it('groups organization results by space, counting spaces, best space first', async () => {
    const a = await newSpace('Alpha notes');
    const b = await newSpace('Beta notes');
    await write(a, [page('Mentions', 'the quokka lives here'), page('Again', 'quokka quokka')]);
    await write(b, [page('Quokka', 'all about the quokka')]);
    const found = await inOrg('quokka');
    expect(found.body.count).toBe(2);
    expect(found.body.items.map((item: { id: string; title: string }) => [item.id, item.title])).toEqual([
      [b, 'Beta notes'],
      [a, 'Alpha notes'],
    ]);
    expect(found.body.items[1].pages).toHaveLength(2);
    const second = await inOrg('quokka', owner.token, org(), '&limit=1');
    expect(second.body.count).toBe(2);
    const rest = await inOrg('quokka', owner.token, org(), `&limit=1&page=${second.body.next.page}`);
    expect(rest.body.items.map((item: { id: string }) => item.id)).toEqual([a]);
    expect(rest.body.next).toBeUndefined();
    // A space renamed: the index is not written (it holds pages), and the same search answers the new title at once.
    expect(found.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect((await as(owner.token).patch(`/v1/spaces/${a}`, { title: 'Alpha renamed' })).status).toBe(200);
    const renamed = await inOrg('quokka');
    expect(renamed.body.items.map((item: { title: string }) => item.title)).toEqual(['Beta notes', 'Alpha renamed']);
    expect((await inOrg('quokka')).body).toEqual(renamed.body);
  });

  it('shows only spaces the caller can read: guests by default levels and grants, never another organization', async () => {
    const closed = await newSpace('Closed');
    await write(closed, [page('Secret', 'the platypus plan')]);
    // a member with a role reads every space of the organization
    expect(await spacesFound('platypus', reader.token)).toEqual([closed]);
    expect((await inSpace(closed, 'platypus', reader.token)).body.count).toBe(1);
    // a guest reads nothing until a default level lets them
    expect(await spacesFound('platypus', guest.token)).toEqual([]);
    expectError(await inSpace(closed, 'platypus', guest.token), 404);
    expect((await as(owner.token).patch(`/v1/spaces/${closed}`, { defaultLevel: 'read' })).status).toBe(200);
    expect(await spacesFound('platypus', guest.token)).toEqual([closed]);
    expect((await inSpace(closed, 'platypus', guest.token)).body.count).toBe(1);
    // withdrawn: gone at once
    expect((await as(owner.token).patch(`/v1/spaces/${closed}`, { defaultLevel: 'inherit' })).status).toBe(200);
    expect(await spacesFound('platypus', guest.token)).toEqual([]);
    expectError(await inSpace(closed, 'platypus', guest.token), 404);
    // a space shared with the guest (a grant): found while the grant lasts
    expect(
      (await as(owner.token).post(`/v1/spaces/${closed}/permissions`, { users: [guest.userId], role: 'read' })).status,
    ).toBe(204);
    expect(await spacesFound('platypus', guest.token)).toEqual([closed]);
    expect((await inSpace(closed, 'platypus', guest.token)).body.count).toBe(1);
    expect((await as(owner.token).delete(`/v1/spaces/${closed}/permissions/users/${guest.userId}`)).status).toBe(204);
    expect(await spacesFound('platypus', guest.token)).toEqual([]);
    expectError(await inSpace(closed, 'platypus', guest.token), 404);
    // another organization: not even the organization is visible, and its own search never shows Acme's pages
    expectError(await inOrg('platypus', outsider.token), 404);
    expectError(await inSpace(closed, 'platypus', outsider.token), 404);
    const theirs = await newSpace('Their platypus', outsider.organizationId, outsider.token);
    await write(theirs, [page('Platypus', 'their own platypus')], outsider.token);
    expect(await spacesFound('platypus', outsider.token, outsider.organizationId)).toEqual([theirs]);
    expect(await spacesFound('platypus')).toEqual([closed]);
    // a removed member loses the organization's search with the organization
    const leaving = await service.signUp('leaving@acme.test', { name: 'Leaving' });
    await as(owner.token).post(`/v1/orgs/${org()}/invites`, { emails: ['leaving@acme.test'], role: 'read' });
    expect(await spacesFound('platypus', leaving.token)).toEqual([closed]);
    expect((await as(owner.token).delete(`/v1/orgs/${org()}/members/${leaving.userId}`)).status).toBe(204);
    expectError(await inOrg('platypus', leaving.token), 404);
    expectError(await inSpace(closed, 'platypus', leaving.token), 404);
  });

  it('reflects an edit, a merge, a deletion, a restore and a transfer as soon as the write answers', async () => {
    const space = await newSpace('Changing');
    const [id] = await write(space, [page('Wombat facts', 'the wombat digs')]);
    expect(await titles(space, 'wombat')).toEqual(['Wombat facts']);
    // an edit merged: the old words go, the new ones come
    await write(space, [
      { operation: 'update_page', page: id, title: 'Echidna facts', document: { markdown: 'spines' } },
    ]);
    expect(await titles(space, 'wombat')).toEqual([]);
    expect(await titles(space, 'echidna spines')).toEqual(['Echidna facts']);
    // a change request that is not merged changes nothing
    const cr = await as(owner.token).post(`/v1/spaces/${space}/change-requests`, { subject: 'Draft' });
    await as(owner.token).post(`/v1/spaces/${space}/change-requests/${cr.body.id}/content`, {
      changes: [page('Draft only', 'numbat')],
    });
    expect(await titles(space, 'numbat')).toEqual([]);
    // deleted: gone from both searches; restored: back
    expect((await as(owner.token).delete(`/v1/spaces/${space}`)).status).toBe(204);
    expect(await spacesFound('echidna')).toEqual([]);
    expectError(await inSpace(space, 'echidna'), 404);
    expect((await as(owner.token).post(`/v1/spaces/${space}/restore`)).status).toBe(200);
    expect(await spacesFound('echidna')).toEqual([space]);
    // transferred: found in the new organization only
    const other = await as(owner.token).post('/v1/orgs', { title: 'Acme Two' });
    expect((await as(owner.token).post(`/v1/spaces/${space}/transfer`, { organization: other.body.id })).status).toBe(
      200,
    );
    expect(await spacesFound('echidna')).toEqual([]);
    expect(await spacesFound('echidna', owner.token, other.body.id)).toEqual([space]);
    expect(await spacesFound('echidna', reader.token)).toEqual([]);
  });

  /** The search projection's checkpoint, as `projections status` reads it. */
  async function checkpoint() {
    const stored = await service.reads.getCheckpoint('projection:search-index');
    return {
      position: stored?.position,
      state: stored?.state as {
        parked: { type: string; error: string }[];
        rebuiltFor: string;
        rebuild?: { state: string };
      },
    };
  }

  it('parks an event it cannot apply, and goes on', async () => {
    const ghost = newId();
    await service.events.append(
      `space-${ghost}`,
      [
        {
          id: newEventId(),
          type: 'SpaceRevisionChanged',
          data: {
            spaceId: ghost,
            revisionId: 'missing',
            previousRevisionId: 'none',
            changedAt: '2026-01-01T00:00:00Z',
          },
        },
      ],
      'any',
    );
    const space = await newSpace('After the poison');
    await write(space, [page('Still indexed', 'the axolotl swims')]);
    expect(await titles(space, 'axolotl')).toEqual(['Still indexed']);
    expect((await checkpoint()).state.parked).toEqual([
      expect.objectContaining({ type: 'SpaceRevisionChanged', error: expect.stringMatching(/missing not found/) }),
    ]);
  });

  it('is rebuilt from the events on request, with the same answers', async () => {
    const queries = ['runners', 'install agent', 'observabil', 'quokka', 'kubernetes helm', 'zebra'];
    const answers = async () => Promise.all(queries.map(async (text) => (await inOrg(text)).body));
    const before = await answers();
    // damage the index: a space's pages disappear from it
    const index = service.app.get<SearchIndex>(SEARCH_INDEX);
    await index.write('pages', [{ kind: 'deleteSpace', spaceId: handbook }]);
    expect(await titles(handbook, 'runners')).toEqual([]);
    const asked = await requestProjectionRebuild(service.events, service.clock, ['search-index'], 'test');
    for (let tries = 0; ; tries++) {
      const { state } = await checkpoint();
      if (state.rebuild?.state === 'done' && positionFromString(state.rebuiltFor) >= asked) break;
      if (tries > 200) throw new Error(`the rebuild did not end: ${JSON.stringify(state)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await answers()).toEqual(before);
    expect(await titles(handbook, 'runners')).toEqual(['Deployment guide']);
  });

  it('keeps its index in a private file under DATA_DIR unless SEARCH_INDEX=mongodb says otherwise', () => {
    expect(service.config.searchIndex).toEqual({
      driver: 'sqlite',
      file: join(service.config.dataDir, 'search.sqlite'),
    });
    expect(statSync(join(service.config.dataDir, 'search.sqlite')).mode & 0o777).toBe(0o600);
    const base = { DATA_DIR: service.config.dataDir, CURSOR_SECRET: 'x'.repeat(32) };
    expect(loadConfig({ ...base, SEARCH_INDEX: 'mongodb', MONGODB_URL: 'mongodb://db:27017/q' }).searchIndex).toEqual({
      driver: 'mongodb',
      url: 'mongodb://db:27017/q',
    });
    expect(() => loadConfig({ ...base, SEARCH_INDEX: 'mongodb' })).toThrow(/MONGODB_URL/);
    expect(() => loadConfig({ ...base, SEARCH_INDEX: 'elastic' })).toThrow(/SEARCH_INDEX/);
  });

  it('works through the official client', async () => {
    const api = new GitBookAPI({ authToken: owner.token, endpoint: service.url });
    const inOrgFound = await api.orgs.searchOrganizationContent(org(), { query: 'runner' });
    expect(inOrgFound.data.items.map((item) => item.id)).toEqual([handbook]);
    expect(inOrgFound.data.items[0].pages[0]).toMatchObject({ title: 'Deployment guide', path: 'deployment-guide' });
    const inSpaceFound = await api.spaces.searchSpaceContent(handbook, { query: 'observ' });
    expect(inSpaceFound.data.items.map((item) => item.title)).toEqual(['Observability']);
    expect([...service.validated]).toEqual(expect.arrayContaining(['searchOrganizationContent', 'searchSpaceContent']));
  });
});
