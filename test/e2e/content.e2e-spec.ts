import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GitBookAPI } from '@gitbook/api';
import { type FileNode, type PageInput, publishRevision } from '@app/content';
import { type Response, TestService, expectError } from '../support/service';

/**
 * Collections, spaces and their content over real HTTP on the embedded backends. Every 2xx answer of an official
 * operation is checked against the official schema by `TestService.call`; every refused change is checked to
 * append no event.
 */

const DAY = 24 * 60 * 60 * 1000;

type Account = { userId: string; token: string; organizationId: string };

/** Request helpers bound to a (lazily started) service. */
function harness(current: () => TestService) {
  const as = (token: string) => ({
    get: (path: string, headers?: Record<string, string>) => current().call('GET', path, { token, headers }),
    post: (path: string, body?: unknown) => current().call('POST', path, { token, body }),
    patch: (path: string, body?: unknown, headers?: Record<string, string>) =>
      current().call('PATCH', path, { token, body, headers }),
    delete: (path: string) => current().call('DELETE', path, { token }),
  });

  /** Runs a refused request and checks that it appended no event. */
  async function refused(run: () => Promise<Response>, status: number, message?: RegExp) {
    const before = await current().eventCount();
    const response = await run();
    expectError(response, status, message);
    expect(await current().eventCount()).toBe(before);
  }

  /** Waits until the processes (the restore window among them) have seen every event appended so far. */
  async function processesCaughtUp() {
    const service = current();
    await service.runtime.processes.waitFor(await service.events.headPosition());
  }

  return { as, refused, processesCaughtUp };
}

const ids = (list: Response) => list.body.items.map((item: { id: string }) => item.id);

const PAGES: PageInput[] = [
  {
    id: 'intro',
    title: 'Introduction',
    description: 'Where to start',
    markdown: '# Welcome\n\nThis is the handbook.\nRead it all.',
    pages: [{ id: 'setup', title: 'Set up', markdown: '## Install\n\nRun the installer.' }],
  },
  { id: 'faq', title: 'FAQ', emoji: '❓', markdown: 'Questions and answers.' },
];

const FILES: FileNode[] = [
  {
    id: 'logo',
    name: 'logo.png',
    contentType: 'image/png',
    size: 1024,
    downloadURL: 'https://files.example.com/logo.png',
    dimensions: { width: 64, height: 32 },
  },
  {
    id: 'guide',
    name: 'guide.pdf',
    contentType: 'application/pdf',
    size: 2048,
    downloadURL: 'https://files.example.com/guide.pdf',
  },
  {
    id: 'notes',
    name: 'notes.txt',
    contentType: 'text/plain',
    size: 12,
    downloadURL: 'https://files.example.com/notes.txt',
  },
];

describe('content: collections, spaces and their content (e2e)', () => {
  let service: TestService;
  let ada: Account;
  let bob: Account;
  /** A read member of Ada's organization. */
  let carol: { userId: string; token: string };
  const { as, refused } = harness(() => service);

  beforeAll(async () => {
    service = await TestService.start();
    ada = await service.signUp('ada@example.com', { name: 'Ada', org: 'Analytical Engines' });
    bob = await service.signUp('bob@example.com', { name: 'Bob', org: "Bob's Org" });
    carol = await service.signUp('carol@example.com', { name: 'Carol' });
    const invited = await as(ada.token).post(`/v1/orgs/${ada.organizationId}/invites`, {
      emails: ['carol@example.com'],
      role: 'read',
    });
    expect(invited.body).toEqual({ users: [carol.userId], invited: 0 });
  });

  afterAll(async () => {
    await service?.stop();
  });

  /** A fresh organization administered by Ada, so that lists can be checked exactly. */
  async function newOrg(title: string): Promise<string> {
    const created = await as(ada.token).post('/v1/orgs', { title });
    expect(created.status).toBe(201);
    return created.body.id;
  }

  /** Lists sort by creation time: the manual clock moves on a second between creations to make it tell. */
  async function collection(org: string, body: Record<string, unknown> = {}): Promise<string> {
    service.clock.advance(1000);
    const created = await as(ada.token).post(`/v1/orgs/${org}/collections`, body);
    expect(created.status).toBe(201);
    return created.body.id;
  }

  async function space(org: string, body: Record<string, unknown> = {}): Promise<string> {
    service.clock.advance(1000);
    const created = await as(ada.token).post(`/v1/orgs/${org}/spaces`, body);
    expect(created.status).toBe(201);
    return created.body.id;
  }

  /** Publishes new content in-process, the way merging a change request does, and waits for the read models. */
  async function publish(spaceId: string, pages: PageInput[], files: FileNode[] = []) {
    const current = (await as(ada.token).get(`/v1/spaces/${spaceId}`)).body.revision as string;
    const { revisionId } = await publishRevision(
      service.events,
      { now: service.clock.now().toISOString(), actor: ada.userId },
      { spaceId, parents: [current], pages, files },
    );
    await service.runtime.catchUp();
    return { previous: current, revisionId };
  }

  describe('collections', () => {
    it('creates collections at the top level and inside another, with a Location', async () => {
      const created = await as(ada.token).post(`/v1/orgs/${ada.organizationId}/collections`, { title: 'Guides' });
      expect(created.status).toBe(201);
      const id = created.body.id;
      expect(created.headers.get('location')).toBe(`http://quire.test/v1/collections/${id}`);
      expect(created.headers.get('etag')).toMatch(/^"\d+"$/);
      expect(created.body).toMatchObject({
        object: 'collection',
        title: 'Guides',
        organization: ada.organizationId,
        defaultLevel: 'inherit',
        urls: { location: `http://quire.test/v1/collections/${id}` },
        permissions: { view: true, admin: true, create: true },
      });
      expect(created.body.parent).toBeUndefined();

      const nested = await as(ada.token).post(`/v1/orgs/${ada.organizationId}/collections`, {
        title: 'x'.repeat(50),
        parent: id,
      });
      expect(nested.status).toBe(201);
      expect(nested.body).toMatchObject({ parent: id, title: 'x'.repeat(50) });

      // the body is optional
      const untitled = await service.call('POST', `/v1/orgs/${ada.organizationId}/collections`, { token: ada.token });
      expect(untitled.status).toBe(201);
      expect(untitled.body.title).toBe('Untitled');

      // a read member sees it, without the right to change it
      const seen = await as(carol.token).get(`/v1/collections/${id}`);
      expect(seen.body.permissions).toMatchObject({ view: true, admin: false, create: false });
    });

    it('refuses bad collection bodies, naming the field', async () => {
      const path = `/v1/orgs/${ada.organizationId}/collections`;
      const foreign = await collection(ada.organizationId, { title: 'Mine' });
      await refused(() => as(ada.token).post(path, { title: 'x'.repeat(51) }), 400, /title/);
      await refused(() => as(ada.token).post(path, { title: '' }), 400, /title/);
      await refused(() => as(ada.token).post(path, { title: '   ' }), 400, /title/);
      await refused(() => as(ada.token).post(path, { title: 42 }), 400, /title/);
      await refused(() => as(ada.token).post(path, { title: 'Fine', color: 'red' }), 400, /color/);
      await refused(() => as(ada.token).post(path, { title: 'Fine', parent: 7 }), 400, /parent/);
      await refused(() => as(ada.token).post(path, { title: 'Fine', parent: 'no-such-collection' }), 404);
      await refused(() => service.call('POST', path, { token: ada.token, raw: '{"title": ' }), 400);
      // a parent of another organization is not found here, even for an admin of both
      await refused(() => as(bob.token).post(`/v1/orgs/${bob.organizationId}/collections`, { parent: foreign }), 404);
      const elsewhere = await collection(await newOrg('Elsewhere'), { title: 'Elsewhere' });
      await refused(() => as(ada.token).post(path, { parent: elsewhere }), 404);
      await refused(() => as(ada.token).post(`/v1/orgs/${ada.organizationId}/spaces`, { parent: elsewhere }), 404);
      // a read member may not create
      await refused(() => as(carol.token).post(path, { title: 'Carol' }), 403);
    });

    it('lists nested collections by default and only the top level with nested=false', async () => {
      const org = await newOrg('Nesting');
      const a = await collection(org, { title: 'A' });
      const b = await collection(org, { title: 'B' });
      const a1 = await collection(org, { title: 'A1', parent: a });
      const a1a = await collection(org, { title: 'A1a', parent: a1 });
      const path = `/v1/orgs/${org}/collections`;

      const all = await as(ada.token).get(path);
      expect(all.status).toBe(200);
      expect(ids(all)).toEqual([a, b, a1, a1a]);
      expect(all.body.count).toBe(4);
      expect(all.body.next).toBeUndefined();
      expect(ids(await as(ada.token).get(`${path}?nested=true`))).toEqual([a, b, a1, a1a]);

      const top = await as(ada.token).get(`${path}?nested=false`);
      expect(ids(top)).toEqual([a, b]);
      expect(top.body.count).toBe(2);
      expectError(await as(ada.token).get(`${path}?nested=maybe`), 400, /nested/);

      // paging through the nested list
      const seen: string[] = [];
      let next = `${path}?limit=1`;
      for (;;) {
        const page = await as(ada.token).get(next);
        expect(page.status).toBe(200);
        expect(page.body.count).toBe(4);
        seen.push(...ids(page));
        if (!page.body.next) break;
        next = `${path}?limit=1&page=${encodeURIComponent(page.body.next.page)}`;
      }
      expect(seen).toEqual([a, b, a1, a1a]);
      // a cursor of the nested list is not one of the top-level list
      const first = await as(ada.token).get(`${path}?limit=1`);
      expectError(
        await as(ada.token).get(`${path}?nested=false&limit=1&page=${encodeURIComponent(first.body.next.page)}`),
        400,
        /page/,
      );
    });

    it('reads a collection with an ETag and updates it, honouring If-Match', async () => {
      const id = await collection(ada.organizationId, { title: 'Editable' });
      const path = `/v1/collections/${id}`;
      const read = await as(ada.token).get(path);
      expect(read.status).toBe(200);
      const etag = read.headers.get('etag')!;
      expect(etag).toMatch(/^"\d+"$/);
      expect(read.body).toMatchObject({ id, title: 'Editable', defaultLevel: 'inherit' });

      const updated = await as(ada.token).patch(
        path,
        { title: 'Edited', description: 'd'.repeat(100) },
        { 'if-match': etag },
      );
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ title: 'Edited', description: 'd'.repeat(100) });
      expect(updated.headers.get('etag')).not.toBe(etag);
      expect((await as(ada.token).get(path)).body.title).toBe('Edited');

      expect((await as(ada.token).patch(path, { defaultLevel: 'read' })).body.defaultLevel).toBe('read');
      expect((await as(ada.token).patch(path, { defaultLevel: null })).body.defaultLevel).toBeNull();
      expect((await as(ada.token).patch(path, { defaultLevel: 'inherit' })).body.defaultLevel).toBe('inherit');
      expect((await as(ada.token).patch(path, { description: '' })).body.description).toBe('');

      await refused(() => as(ada.token).patch(path, { title: 'Stale' }, { 'if-match': etag }), 412);
      await refused(() => as(ada.token).patch(path, { title: 'Bad' }, { 'if-match': 'garbage' }), 400, /If-Match/i);
      await refused(() => as(ada.token).patch(path, { title: 'x'.repeat(51) }), 400, /title/);
      await refused(() => as(ada.token).patch(path, { title: '' }), 400, /title/);
      await refused(() => as(ada.token).patch(path, { description: 'd'.repeat(101) }), 400, /description/);
      await refused(() => as(ada.token).patch(path, { defaultLevel: 'owner' }), 400, /defaultLevel/);
      await refused(() => as(ada.token).patch(path, { parent: null }), 400, /parent/);
      await refused(() => as(carol.token).patch(path, { title: 'Carol was here' }), 403);
      expectError(await as(ada.token).get('/v1/collections/no-such-collection'), 404);
      await refused(() => as(ada.token).patch('/v1/collections/no-such-collection', { title: 'Nope' }), 404);
    });

    it('lists the spaces of a collection in their order, without deleted ones', async () => {
      const id = await collection(ada.organizationId, { title: 'With spaces' });
      const x = await space(ada.organizationId, { title: 'X', parent: id });
      const y = await space(ada.organizationId, { title: 'Y', parent: id });
      const z = await space(ada.organizationId, { title: 'Z', parent: id });
      await space(ada.organizationId, { title: 'Elsewhere' });
      expect((await as(ada.token).delete(`/v1/spaces/${y}`)).status).toBe(204);
      const path = `/v1/collections/${id}/spaces`;
      const listed = await as(ada.token).get(path);
      expect(listed.status).toBe(200);
      expect(ids(listed)).toEqual([x, z]);
      expect(listed.body.count).toBe(2);
      expect(listed.body.items[0]).toMatchObject({ object: 'space', parent: id, visibility: 'in-collection' });
      const first = await as(ada.token).get(`${path}?limit=1`);
      expect(ids(first)).toEqual([x]);
      const second = await as(ada.token).get(`${path}?limit=1&page=${encodeURIComponent(first.body.next.page)}`);
      expect(ids(second)).toEqual([z]);
      expect(second.body.next).toBeUndefined();
      expect((await as(carol.token).get(path)).body.count).toBe(2);
      expectError(await as(ada.token).get('/v1/collections/no-such-collection/spaces'), 404);
    });

    it('moves collections to another parent and position', async () => {
      const org = await newOrg('Moves');
      const a = await collection(org, { title: 'A' });
      const b = await collection(org, { title: 'B' });
      const c = await collection(org, { title: 'C' });
      const top = async () => ids(await as(ada.token).get(`/v1/orgs/${org}/collections?nested=false`));
      expect(await top()).toEqual([a, b, c]);

      const before = await as(ada.token).post(`/v1/collections/${c}/move`, {
        position: { before: { type: 'collection', collection: a } },
      });
      expect(before.status).toBe(200);
      expect(before.body).toMatchObject({ object: 'collection', id: c });
      expect(await top()).toEqual([c, a, b]);
      await as(ada.token).post(`/v1/collections/${b}/move`, {
        parent: null,
        position: { after: { type: 'collection', collection: c } },
      });
      expect(await top()).toEqual([c, b, a]);

      // into another collection, then back to the top level (at the end)
      const into = await as(ada.token).post(`/v1/collections/${a}/move`, { parent: b });
      expect(into.body.parent).toBe(b);
      expect(await top()).toEqual([c, b]);
      const back = await as(ada.token).post(`/v1/collections/${a}/move`, { parent: null });
      expect(back.body.parent).toBeUndefined();
      expect(await top()).toEqual([c, b, a]);

      // next to a space: collections and spaces share one order
      const s = await space(org, { title: 'S', parent: b });
      const beside = await as(ada.token).post(`/v1/collections/${c}/move`, {
        parent: b,
        position: { after: { type: 'space', space: s } },
      });
      expect(beside.status).toBe(200);
      expect(beside.body.parent).toBe(b);

      // a collection never goes into itself or one of its descendants
      const inner = await collection(org, { title: 'Inner', parent: a });
      const innermost = await collection(org, { title: 'Innermost', parent: inner });
      const move = (id: string, body: unknown) => as(ada.token).post(`/v1/collections/${id}/move`, body);
      await refused(() => move(a, { parent: a }), 400, /parent/);
      await refused(() => move(a, { parent: inner }), 400, /parent/);
      await refused(() => move(a, { parent: innermost }), 400, /parent/);
      await refused(() => move(a, {}), 400);
      await refused(() => move(a, { parent: 'no-such-collection' }), 404);
      // the position must name one of the destination's items
      await refused(
        () => move(a, { position: { before: { type: 'collection', collection: inner } } }),
        400,
        /position/,
      );
      await refused(
        () => move(a, { parent: b, position: { after: { type: 'space', space: 'nope' } } }),
        400,
        /position/,
      );
      await refused(() => move(a, { position: { before: { type: 'collection', collection: a } } }), 400, /position/);
      await refused(
        () =>
          move(a, {
            position: { before: { type: 'collection', collection: b }, after: { type: 'collection', collection: b } },
          }),
        400,
        /position/,
      );
      await refused(() => move(a, { position: { before: { type: 'folder', collection: b } } }), 400, /type/);
      await refused(() => move(a, { position: { before: { type: 'space' } } }), 400, /space/);
      await refused(() => move(a, { position: { sideways: { type: 'collection', collection: b } } }), 400, /sideways/);
      await refused(() => move(a, { parent: b, title: 'x' }), 400, /title/);
      await refused(() => move(a, { parent: 5 }), 400, /parent/);
      await refused(() => move('no-such-collection', { parent: null }), 404);
    });

    it('transfers a collection with its sub-collections and spaces to another organization', async () => {
      const from = await newOrg('Transfer From');
      const to = await newOrg('Transfer To');
      const t = await collection(from, { title: 'T' });
      const t1 = await collection(from, { title: 'T1', parent: t });
      const st = await space(from, { title: 'In T', parent: t });
      const st1 = await space(from, { title: 'In T1', parent: t1 });
      const path = `/v1/collections/${t}/transfer`;

      await refused(() => as(ada.token).post(path, {}), 400, /organization/);
      await refused(() => as(ada.token).post(path, { organization: 7 }), 400, /organization/);
      await refused(() => as(ada.token).post(path, { organization: to, parent: null }), 400, /parent/);
      await refused(() => as(ada.token).post(path, { organization: bob.organizationId }), 404);
      await refused(() => as(ada.token).post(path, { organization: 'no-such-org' }), 404);
      await refused(() => as(bob.token).post(path, { organization: bob.organizationId }), 404);

      const moved = await as(ada.token).post(path, { organization: to });
      expect(moved.status).toBe(200);
      expect(moved.body).toMatchObject({ id: t, organization: to });
      expect(moved.body.parent).toBeUndefined();
      expect((await as(ada.token).get(`/v1/collections/${t1}`)).body).toMatchObject({ organization: to, parent: t });
      expect((await as(ada.token).get(`/v1/spaces/${st}`)).body).toMatchObject({ organization: to, parent: t });
      expect((await as(ada.token).get(`/v1/spaces/${st1}`)).body).toMatchObject({ organization: to, parent: t1 });

      expect(ids(await as(ada.token).get(`/v1/orgs/${to}/collections`))).toEqual([t, t1]);
      expect((await as(ada.token).get(`/v1/orgs/${from}/collections`)).body).toMatchObject({ items: [], count: 0 });
      expect(ids(await as(ada.token).get(`/v1/orgs/${to}/spaces`)).sort()).toEqual([st, st1].sort());
      expect((await as(ada.token).get(`/v1/orgs/${from}/spaces`)).body.count).toBe(0);
      expect(ids(await as(ada.token).get(`/v1/collections/${t1}/spaces`))).toEqual([st1]);

      // a member who may not create in the target cannot transfer there
      const readOnly = await newOrg('Read only here');
      await as(ada.token).post(`/v1/orgs/${readOnly}/invites`, { emails: ['bob@example.com'], role: 'read' });
      const bobs = (await as(bob.token).post(`/v1/orgs/${bob.organizationId}/collections`, { title: 'Bobs' })).body
        .id as string;
      await refused(() => as(bob.token).post(`/v1/collections/${bobs}/transfer`, { organization: readOnly }), 403);
    });

    it('deletes a collection with its sub-collections; its spaces can be restored at the top level', async () => {
      const org = await newOrg('Deleting');
      const k = await collection(org, { title: 'K' });
      const k1 = await collection(org, { title: 'K1', parent: k });
      const kept = await collection(org, { title: 'Kept' });
      const sk = await space(org, { title: 'In K', parent: k });
      const sk1 = await space(org, { title: 'In K1', parent: k1 });

      await refused(() => as(carol.token).delete(`/v1/collections/${k}`), 404); // not a member of this org
      const deleted = await as(ada.token).delete(`/v1/collections/${k}`);
      expect(deleted.status).toBe(204);
      expect(deleted.body).toBe('');
      expectError(await as(ada.token).get(`/v1/collections/${k}`), 404);
      expectError(await as(ada.token).get(`/v1/collections/${k1}`), 404);
      expect(ids(await as(ada.token).get(`/v1/orgs/${org}/collections`))).toEqual([kept]);
      expect((await as(ada.token).get(`/v1/orgs/${org}/spaces`)).body).toMatchObject({ items: [], count: 0 });
      const gone = await as(ada.token).get(`/v1/spaces/${sk1}`);
      expect(gone.status).toBe(200);
      expect(gone.body.deletedAt).toEqual(expect.any(String));

      const restored = await as(ada.token).post(`/v1/spaces/${sk}/restore`);
      expect(restored.status).toBe(200);
      expect(restored.body.deletedAt).toBeUndefined();
      expect(restored.body.parent).toBeUndefined();
      expect(restored.body.visibility).toBe('private');
      expect((await as(ada.token).post(`/v1/spaces/${sk1}/restore`)).body.parent).toBeUndefined();
      expect(ids(await as(ada.token).get(`/v1/orgs/${org}/spaces`)).sort()).toEqual([sk, sk1].sort());
      expect((await as(ada.token).get(`/v1/orgs/${org}/collections?nested=false`)).body.count).toBe(1);
    });

    it('refuses changes by a read member with 403 and unknown collections with 404', async () => {
      const id = await collection(ada.organizationId, { title: 'Protected' });
      const s = await space(ada.organizationId, { title: 'Protected space' });
      await refused(() => as(carol.token).delete(`/v1/collections/${id}`), 403);
      await refused(() => as(carol.token).post(`/v1/collections/${id}/move`, { parent: null }), 403);
      await refused(
        () => as(carol.token).post(`/v1/collections/${id}/transfer`, { organization: ada.organizationId }),
        403,
      );
      await refused(() => as(carol.token).post(`/v1/spaces/${s}/move`, { parent: id }), 403);
      await refused(() => as(carol.token).post(`/v1/spaces/${s}/transfer`, { organization: ada.organizationId }), 403);
      await refused(() => as(ada.token).delete('/v1/collections/no-such-collection'), 404);
      await refused(
        () => as(ada.token).post('/v1/collections/no-such-collection/transfer', { organization: ada.organizationId }),
        404,
      );
    });

    it('answers 204 when a deleted collection is deleted again, as for a space', async () => {
      // SPEC-NOTES: "deleting what is already gone inside a scope the caller can see is 204 too"
      const id = await collection(ada.organizationId, { title: 'Twice' });
      expect((await as(ada.token).delete(`/v1/collections/${id}`)).status).toBe(204);
      const again = await as(ada.token).delete(`/v1/collections/${id}`);
      expect({ status: again.status, body: again.body }).toEqual({ status: 204, body: '' });
      // outside its organization it stays invisible, deleted or not
      await refused(() => as(bob.token).delete(`/v1/collections/${id}`), 404, /not found/i);
      await refused(() => as(bob.token).delete('/v1/collections/never-existed'), 404, /not found/i);
    });
  });

  describe('spaces', () => {
    it('records the request id as correlation id on every event a request appends', async () => {
      const requestId = `corr-${Date.now()}`;
      const created = await service.call('POST', `/v1/orgs/${ada.organizationId}/spaces`, {
        token: ada.token,
        body: { title: 'Correlated' },
        headers: { 'x-request-id': requestId },
      });
      expect(created.status).toBe(201);
      const events = await service.events.readAll({ maxCount: 100_000 });
      const correlated = events.filter((event) => event.metadata.correlationId === requestId);
      expect(correlated.map((event) => event.type).sort()).toEqual(['RevisionCreated', 'SpaceCreated']);
      expect(correlated.find((event) => event.type === 'SpaceCreated')!.data.spaceId).toBe(created.body.id);
      // another request, another id (one the service made up)
      const other = await service.call('PATCH', `/v1/spaces/${created.body.id}`, {
        token: ada.token,
        body: { title: 'Correlated again' },
      });
      expect(other.status).toBe(200);
      const updated = (await service.events.readAll({ maxCount: 100_000 })).filter(
        (event) => event.type === 'SpaceUpdated' && event.data.spaceId === created.body.id,
      );
      expect(updated).toHaveLength(1);
      expect(updated[0].metadata.correlationId).toBe(other.headers.get('x-request-id'));
      expect(updated[0].metadata.correlationId).not.toBe(requestId);
    });

    it('creates spaces with a Location, at the top level or in a collection', async () => {
      const created = await as(ada.token).post(`/v1/orgs/${ada.organizationId}/spaces`, {
        title: 'Handbook',
        emoji: '📘',
      });
      expect(created.status).toBe(201);
      const id = created.body.id;
      expect(created.headers.get('location')).toBe(`http://quire.test/v1/spaces/${id}`);
      expect(created.body).toMatchObject({
        object: 'space',
        id,
        title: 'Handbook',
        emoji: '📘',
        visibility: 'private',
        editMode: 'live',
        organization: ada.organizationId,
        revision: expect.any(String),
        defaultLevel: 'inherit',
        comments: 0,
        changeRequests: 0,
        urls: { location: `http://quire.test/v1/spaces/${id}` },
        permissions: { admin: true, edit: true },
      });
      expect(created.body.parent).toBeUndefined();

      const home = await collection(ada.organizationId, { title: 'Home' });
      const inside = await as(ada.token).post(`/v1/orgs/${ada.organizationId}/spaces`, {
        title: 't'.repeat(50),
        emoji: 'e'.repeat(50),
        parent: home,
        editMode: 'locked',
      });
      expect(inside.status).toBe(201);
      expect(inside.body).toMatchObject({ parent: home, visibility: 'in-collection', editMode: 'locked' });
      expect(inside.body.permissions).toMatchObject({ admin: true, edit: false });

      const untitled = await service.call('POST', `/v1/orgs/${ada.organizationId}/spaces`, { token: ada.token });
      expect(untitled.status).toBe(201);
      expect(untitled.body.title).toBe('Untitled');
    });

    it('refuses bad space bodies, naming the field', async () => {
      const path = `/v1/orgs/${ada.organizationId}/spaces`;
      const bobs = await as(bob.token).post(`/v1/orgs/${bob.organizationId}/collections`, { title: 'Bob only' });
      await refused(() => as(ada.token).post(path, { title: 'x'.repeat(51) }), 400, /title/);
      await refused(() => as(ada.token).post(path, { title: '' }), 400, /title/);
      await refused(() => as(ada.token).post(path, { emoji: 'e'.repeat(51) }), 400, /emoji/);
      await refused(() => as(ada.token).post(path, { editMode: 'frozen' }), 400, /editMode/);
      await refused(() => as(ada.token).post(path, { title: 'Fine', visibility: 'public' }), 400, /visibility/);
      await refused(() => as(ada.token).post(path, { parent: null }), 400, /parent/);
      await refused(() => as(ada.token).post(path, { parent: 'no-such-collection' }), 404);
      await refused(() => as(ada.token).post(path, { parent: bobs.body.id }), 404);
      await refused(() => as(carol.token).post(path, { title: 'Carol' }), 403);
    });

    it('refuses a blank space title without appending anything', async () => {
      // passes the body's length check, then the space's own rules refuse it: nothing may be recorded
      await refused(() => as(ada.token).post(`/v1/orgs/${ada.organizationId}/spaces`, { title: '   ' }), 400, /title/);
    });

    it('lists spaces without the deleted ones, in items and count', async () => {
      const org = await newOrg('Listing');
      const s1 = await space(org, { title: 'One' });
      const s2 = await space(org, { title: 'Two' });
      const s3 = await space(org, { title: 'Three' });
      const path = `/v1/orgs/${org}/spaces`;
      expect((await as(ada.token).get(path)).body.count).toBe(3);
      await as(ada.token).delete(`/v1/spaces/${s2}`);
      const listed = await as(ada.token).get(path);
      expect(listed.status).toBe(200);
      expect(ids(listed)).toEqual([s1, s3]);
      expect(listed.body.count).toBe(2);
      const first = await as(ada.token).get(`${path}?limit=1`);
      expect(first.body).toMatchObject({ count: 2, next: { page: expect.any(String) } });
      const second = await as(ada.token).get(`${path}?limit=1&page=${encodeURIComponent(first.body.next.page)}`);
      expect(ids(second)).toEqual([s3]);
      expect(second.body.next).toBeUndefined();
      expect((await as(ada.token).get(`${path}?limit=0`)).body).toMatchObject({ items: [], count: 2 });
    });

    it('reads a space, accepting shareKey and refusing unknown query parameters', async () => {
      const id = await space(ada.organizationId, { title: 'Readable' });
      const read = await as(ada.token).get(`/v1/spaces/${id}`);
      expect(read.status).toBe(200);
      expect(read.headers.get('etag')).toMatch(/^"\d+"$/);
      expect(read.body).toMatchObject({ id, title: 'Readable' });
      expect((await as(ada.token).get(`/v1/spaces/${id}?shareKey=abc123`)).status).toBe(200);
      expectError(await as(ada.token).get(`/v1/spaces/${id}?foo=bar`), 400, /foo/);
      expectError(await as(ada.token).get(`/v1/spaces/${id}?shareKey=${'k'.repeat(257)}`), 400, /shareKey/);
      expect((await as(carol.token).get(`/v1/spaces/${id}`)).body.permissions).toMatchObject({
        view: true,
        edit: false,
        admin: false,
      });
      expectError(await as(ada.token).get('/v1/spaces/no-such-space'), 404);
    });

    it('updates a space, honouring If-Match', async () => {
      const id = await space(ada.organizationId, { title: 'Before', emoji: '🙂' });
      const path = `/v1/spaces/${id}`;
      const etag = (await as(ada.token).get(path)).headers.get('etag')!;
      const updated = await as(ada.token).patch(path, { title: 'After', emoji: '🚀' }, { 'if-match': etag });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ title: 'After', emoji: '🚀' });
      expect(updated.headers.get('etag')).not.toBe(etag);
      expect((await as(ada.token).get(path)).body.title).toBe('After');

      const cleared = await as(ada.token).patch(path, { emoji: null });
      expect(cleared.status).toBe(200);
      expect(cleared.body.emoji).toBe('');
      const locked = await as(ada.token).patch(path, { editMode: 'locked' });
      expect(locked.body).toMatchObject({ editMode: 'locked', permissions: { edit: false, admin: true } });
      expect((await as(ada.token).patch(path, { editMode: 'live' })).body.editMode).toBe('live');
      expect((await as(ada.token).patch(path, { defaultLevel: 'comment' })).body.defaultLevel).toBe('comment');
      expect((await as(ada.token).patch(path, { defaultLevel: null })).body.defaultLevel).toBeNull();
      expect((await as(ada.token).patch(path, { defaultLevel: 'inherit' })).body.defaultLevel).toBe('inherit');

      await refused(() => as(ada.token).patch(path, { title: 'Stale' }, { 'if-match': etag }), 412);
      await refused(() => as(ada.token).patch(path, { title: 'Bad' }, { 'if-match': 'garbage' }), 400, /If-Match/i);
      await refused(() => as(ada.token).patch(path, { title: 'x'.repeat(51) }), 400, /title/);
      await refused(() => as(ada.token).patch(path, { title: '' }), 400, /title/);
      await refused(() => as(ada.token).patch(path, { emoji: 'e'.repeat(51) }), 400, /emoji/);
      await refused(() => as(ada.token).patch(path, { editMode: 'frozen' }), 400, /editMode/);
      await refused(() => as(ada.token).patch(path, { defaultLevel: 'owner' }), 400, /defaultLevel/);
      await refused(() => as(ada.token).patch(path, { visibility: 'public' }), 400, /visibility/);
      await refused(() => as(carol.token).patch(path, { title: 'Carol' }), 403);
      await refused(() => as(bob.token).patch(path, { title: 'Bob' }), 404);
    });

    it('deletes a space: an admin still sees it, nobody lists it, and it can be restored', async () => {
      const home = await collection(ada.organizationId, { title: 'Bin' });
      const id = await space(ada.organizationId, { title: 'Doomed', parent: home });
      const path = `/v1/spaces/${id}`;
      await refused(() => as(carol.token).delete(path), 403);

      const deleted = await as(ada.token).delete(path);
      expect(deleted.status).toBe(204);
      expect(deleted.body).toBe('');
      const seen = await as(ada.token).get(path);
      expect(seen.status).toBe(200);
      expect(seen.body.deletedAt).toEqual(expect.any(String));
      expectError(await as(carol.token).get(path), 404);
      expect(ids(await as(ada.token).get(`/v1/orgs/${ada.organizationId}/spaces`))).not.toContain(id);
      expect(ids(await as(ada.token).get(`/v1/collections/${home}/spaces`))).not.toContain(id);
      expectError(await as(ada.token).get(`${path}/content`), 404);
      await refused(() => as(ada.token).patch(path, { title: 'Zombie' }), 404);
      await refused(() => as(ada.token).post(`${path}/move`, { parent: null }), 404);
      await refused(() => as(carol.token).post(`${path}/restore`), 404);

      // deleting again changes nothing
      const again = await as(ada.token).delete(path);
      expect(again.status).toBe(204);

      const restored = await as(ada.token).post(`${path}/restore`);
      expect(restored.status).toBe(200);
      expect(restored.body).toMatchObject({ id, parent: home, visibility: 'in-collection' });
      expect(restored.body.deletedAt).toBeUndefined();
      expect(ids(await as(ada.token).get(`/v1/collections/${home}/spaces`))).toContain(id);
      expect((await as(carol.token).get(path)).status).toBe(200);
      // restoring a live space is harmless
      expect((await as(ada.token).post(`${path}/restore`)).status).toBe(200);
      await refused(() => as(ada.token).post('/v1/spaces/no-such-space/restore'), 404);
      await refused(() => as(ada.token).delete('/v1/spaces/no-such-space'), 404);
    });

    it('moves a space into a collection and back, and among its siblings', async () => {
      const org = await newOrg('Space moves');
      const home = await collection(org, { title: 'Home' });
      const other = await collection(org, { title: 'Other' });
      const s = await space(org, { title: 'Mover' });
      const x = await space(org, { title: 'X', parent: home });
      const y = await space(org, { title: 'Y', parent: home });
      const path = `/v1/spaces/${s}/move`;

      const into = await as(ada.token).post(path, { parent: home });
      expect(into.status).toBe(200);
      expect(into.body).toMatchObject({ id: s, parent: home, visibility: 'in-collection' });
      const inside = async () => ids(await as(ada.token).get(`/v1/collections/${home}/spaces`));
      expect(await inside()).toEqual([x, y, s]);
      await as(ada.token).post(path, { position: { before: { type: 'space', space: x } } });
      expect(await inside()).toEqual([s, x, y]);
      await as(ada.token).post(path, { parent: home, position: { after: { type: 'space', space: x } } });
      expect(await inside()).toEqual([x, s, y]);

      const back = await as(ada.token).post(path, { parent: null });
      expect(back.body.visibility).toBe('private');
      expect(back.body.parent).toBeUndefined();
      expect(await inside()).toEqual([x, y]);
      // next to a collection at the top level
      const beside = await as(ada.token).post(path, {
        position: { before: { type: 'collection', collection: other } },
      });
      expect(beside.status).toBe(200);

      const move = (body: unknown) => as(ada.token).post(path, body);
      await refused(() => move({}), 400);
      await refused(() => move({ parent: 'no-such-collection' }), 404);
      await refused(
        () => move({ parent: home, position: { before: { type: 'collection', collection: other } } }),
        400,
        /position/,
      );
      await refused(() => move({ position: { after: { type: 'space', space: x } } }), 400, /position/);
      await refused(() => move({ position: { after: { type: 'space', space: s } } }), 400, /position/);
      await refused(() => move({ parent: null, emoji: '🙂' }), 400, /emoji/);
      await refused(() => move({ position: { before: { type: 'space', space: x, extra: true } } }), 400, /extra/);
      const bobs = await as(bob.token).post(`/v1/orgs/${bob.organizationId}/collections`, { title: 'Not yours' });
      await refused(() => move({ parent: bobs.body.id }), 404);
    });

    it('transfers a space to another organization, optionally into a collection', async () => {
      const from = await newOrg('Space transfer from');
      const to = await newOrg('Space transfer to');
      const target = await collection(to, { title: 'Target' });
      const local = await collection(from, { title: 'Local' });
      const s = await space(from, { title: 'Travelling' });
      const path = `/v1/spaces/${s}/transfer`;

      await refused(() => as(ada.token).post(path, {}), 400, /organization/);
      await refused(() => as(ada.token).post(path, { parent: target }), 400, /organization/);
      await refused(() => as(ada.token).post(path, { organization: to, parent: 5 }), 400, /parent/);
      await refused(() => as(ada.token).post(path, { organization: to, position: {} }), 400, /position/);
      await refused(() => as(ada.token).post(path, { organization: bob.organizationId }), 404);
      await refused(() => as(ada.token).post(path, { organization: 'no-such-org' }), 404);
      // a collection of another organization than the target is not found there
      await refused(() => as(ada.token).post(path, { organization: to, parent: local }), 404);
      await refused(() => as(bob.token).post(path, { organization: bob.organizationId }), 404);

      const within = await as(ada.token).post(path, { organization: from, parent: local });
      expect(within.status).toBe(200);
      expect(within.body).toMatchObject({ organization: from, parent: local, visibility: 'in-collection' });

      const moved = await as(ada.token).post(path, { organization: to });
      expect(moved.status).toBe(200);
      expect(moved.body).toMatchObject({ id: s, organization: to, visibility: 'private' });
      expect(moved.body.parent).toBeUndefined();
      expect(ids(await as(ada.token).get(`/v1/orgs/${to}/spaces`))).toEqual([s]);
      expect((await as(ada.token).get(`/v1/orgs/${from}/spaces`)).body.count).toBe(0);

      const placed = await as(ada.token).post(path, { organization: to, parent: target });
      expect(placed.body).toMatchObject({ organization: to, parent: target, visibility: 'in-collection' });
      expect(ids(await as(ada.token).get(`/v1/collections/${target}/spaces`))).toEqual([s]);
    });
  });

  describe('content', () => {
    let docs: string;
    let firstRevision: string;
    let secondRevision: string;

    beforeAll(async () => {
      docs = await space(ada.organizationId, { title: 'Docs', emoji: '📚' });
      const published = await publish(docs, PAGES, FILES);
      firstRevision = published.previous;
      secondRevision = published.revisionId;
    });

    it('answers the current revision', async () => {
      expect((await as(ada.token).get(`/v1/spaces/${docs}`)).body.revision).toBe(secondRevision);
      const current = await as(ada.token).get(`/v1/spaces/${docs}/content`);
      expect(current.status).toBe(200);
      expect(current.body).toMatchObject({
        object: 'revision',
        id: secondRevision,
        type: 'edits',
        parents: [firstRevision],
        files: FILES.map((file) => expect.objectContaining({ id: file.id, name: file.name })),
        createdAt: expect.any(String),
      });
      expect(current.body.pages.map((page: { id: string }) => page.id)).toEqual(['intro', 'faq']);
      expect((await as(ada.token).get(`/v1/spaces/${docs}/content?metadata=false&computed=true`)).status).toBe(200);
      expectError(await as(ada.token).get(`/v1/spaces/${docs}/content?metadata=perhaps`), 400, /metadata/);
      expectError(await as(ada.token).get(`/v1/spaces/${docs}/content?foo=1`), 400, /foo/);
      expect((await as(carol.token).get(`/v1/spaces/${docs}/content`)).status).toBe(200);
      expectError(await as(ada.token).get('/v1/spaces/no-such-space/content'), 404);
    });

    it('lists the page tree with markdown bodies', async () => {
      const listed = await as(ada.token).get(`/v1/spaces/${docs}/content/pages`);
      expect(listed.status).toBe(200);
      expect(Object.keys(listed.body)).toEqual(['pages']);
      const [intro, faq] = listed.body.pages;
      expect(intro).toMatchObject({
        id: 'intro',
        title: 'Introduction',
        description: 'Where to start',
        type: 'document',
        slug: 'introduction',
        path: 'introduction',
        markdown: '# Welcome\n\nThis is the handbook.\nRead it all.',
        pages: [
          { id: 'setup', title: 'Set up', path: 'introduction/set-up', markdown: '## Install\n\nRun the installer.' },
        ],
      });
      expect(faq).toMatchObject({ id: 'faq', emoji: '❓', path: 'faq', pages: [] });
    });

    it('reads a page as markdown by default or as a document', async () => {
      const path = `/v1/spaces/${docs}/content/page`;
      const markdown = await as(ada.token).get(`${path}/intro`);
      expect(markdown.status).toBe(200);
      expect(markdown.body).toMatchObject({
        id: 'intro',
        markdown: '# Welcome\n\nThis is the handbook.\nRead it all.',
      });
      expect(markdown.body.document).toBeUndefined();
      expect((await as(ada.token).get(`${path}/intro?format=markdown`)).body.markdown).toBe(markdown.body.markdown);

      const nested = await as(ada.token).get(`${path}/setup?format=document`);
      expect(nested.status).toBe(200);
      expect(nested.body.markdown).toBeUndefined();
      expect(nested.body.document).toMatchObject({
        object: 'document',
        nodes: [
          { object: 'block', type: 'heading-2', nodes: [{ object: 'text', leaves: [{ text: 'Install' }] }] },
          { object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ text: 'Run the installer.' }] }] },
        ],
      });
      expect((await as(ada.token).get(`${path}/faq?evaluated=true`)).status).toBe(200);

      expectError(await as(ada.token).get(`${path}/intro?format=html`), 400, /format/);
      expectError(await as(ada.token).get(`${path}/intro?evaluated=sometimes`), 400, /evaluated/);
      expectError(await as(ada.token).get(`${path}/no-such-page`), 404);
      expectError(await as(bob.token).get(`${path}/intro`), 404);
    });

    it('lists files page by page and reads one', async () => {
      const path = `/v1/spaces/${docs}/content/files`;
      const all = await as(ada.token).get(path);
      expect(all.status).toBe(200);
      expect(all.body).toMatchObject({ count: 3 });
      expect(ids(all)).toEqual(['logo', 'guide', 'notes']);
      expect(all.body.next).toBeUndefined();
      expect(all.body.items[0]).toEqual({
        id: 'logo',
        name: 'logo.png',
        contentType: 'image/png',
        size: 1024,
        downloadURL: 'https://files.example.com/logo.png',
        dimensions: { width: 64, height: 32 },
      });

      const first = await as(ada.token).get(`${path}?limit=2`);
      expect(ids(first)).toEqual(['logo', 'guide']);
      expect(first.body.count).toBe(3);
      const cursor: string = first.body.next.page;
      const second = await as(ada.token).get(`${path}?limit=2&page=${encodeURIComponent(cursor)}`);
      expect(ids(second)).toEqual(['notes']);
      expect(second.body.next).toBeUndefined();

      const tampered = cursor.slice(0, -2) + (cursor.endsWith('A') ? 'BB' : 'AA');
      expectError(await as(ada.token).get(`${path}?page=${encodeURIComponent(tampered)}`), 400, /page/);
      // a cursor of another space's files is refused too
      const other = await space(ada.organizationId, { title: 'Other files' });
      await publish(other, [], FILES);
      const foreignCursor = (await as(ada.token).get(`/v1/spaces/${other}/content/files?limit=1`)).body.next.page;
      expectError(await as(ada.token).get(`${path}?page=${encodeURIComponent(foreignCursor)}`), 400, /page/);

      const file = await as(ada.token).get(`${path}/guide`);
      expect(file.status).toBe(200);
      expect(file.body).toEqual({
        id: 'guide',
        name: 'guide.pdf',
        contentType: 'application/pdf',
        size: 2048,
        downloadURL: 'https://files.example.com/guide.pdf',
      });
      expectError(await as(ada.token).get(`${path}/no-such-file`), 404);
      expectError(await as(bob.token).get(`${path}/guide`), 404);
    });

    it('reads old and new revisions, never one of another space', async () => {
      const old = await as(ada.token).get(`/v1/spaces/${docs}/revisions/${firstRevision}`);
      expect(old.status).toBe(200);
      expect(old.body).toMatchObject({ object: 'revision', id: firstRevision, parents: [], pages: [], files: [] });
      const current = await as(ada.token).get(`/v1/spaces/${docs}/revisions/${secondRevision}`);
      expect(current.status).toBe(200);
      expect(current.body).toMatchObject({ id: secondRevision, parents: [firstRevision] });
      expect(current.body.pages).toHaveLength(2);

      const other = await space(ada.organizationId, { title: 'Unrelated' });
      const otherRevision = (await as(ada.token).get(`/v1/spaces/${other}`)).body.revision;
      expectError(await as(ada.token).get(`/v1/spaces/${docs}/revisions/${otherRevision}`), 404);
      expectError(await as(ada.token).get(`/v1/spaces/${other}/revisions/${secondRevision}`), 404);
      expectError(await as(ada.token).get(`/v1/spaces/${docs}/revisions/no-such-revision`), 404);
      expectError(await as(bob.token).get(`/v1/spaces/${docs}/revisions/${secondRevision}`), 404);
    });

    it('duplicates a space with a copy of its content that changes on its own', async () => {
      const duplicated = await as(ada.token).post(`/v1/spaces/${docs}/duplicate`);
      expect(duplicated.status).toBe(201);
      const copy = duplicated.body.id as string;
      expect(copy).not.toBe(docs);
      expect(duplicated.headers.get('location')).toBe(`http://quire.test/v1/spaces/${copy}`);
      expect(duplicated.body).toMatchObject({
        object: 'space',
        title: 'Docs (copy)',
        emoji: '📚',
        visibility: 'private',
      });
      expect(duplicated.body.revision).not.toBe(secondRevision);

      const shape = (pages: Record<string, unknown>[]): unknown =>
        pages.map((page) => ({
          id: page.id,
          title: page.title,
          path: page.path,
          markdown: page.markdown,
          pages: shape(page.pages as Record<string, unknown>[]),
        }));
      const source = (await as(ada.token).get(`/v1/spaces/${docs}/content/pages`)).body.pages;
      const copied = (await as(ada.token).get(`/v1/spaces/${copy}/content/pages`)).body.pages;
      expect(shape(copied)).toEqual(shape(source));
      expect(ids(await as(ada.token).get(`/v1/spaces/${copy}/content/files`))).toEqual(['logo', 'guide', 'notes']);

      await publish(copy, [{ id: 'only', title: 'Only in the copy', markdown: 'Mine.' }]);
      expect((await as(ada.token).get(`/v1/spaces/${copy}/content/pages`)).body.pages).toHaveLength(1);
      expect(shape((await as(ada.token).get(`/v1/spaces/${docs}/content/pages`)).body.pages)).toEqual(shape(source));
      expect((await as(ada.token).get(`/v1/spaces/${docs}`)).body.revision).toBe(secondRevision);

      // a long title keeps within 50 characters
      const long = await space(ada.organizationId, { title: 'L'.repeat(50) });
      const longCopy = await as(ada.token).post(`/v1/spaces/${long}/duplicate`);
      expect(longCopy.body.title).toBe(`${'L'.repeat(43)} (copy)`);

      await refused(() => as(carol.token).post(`/v1/spaces/${docs}/duplicate`), 403);
      await refused(() => as(bob.token).post(`/v1/spaces/${docs}/duplicate`), 404);
      await refused(() => as(ada.token).post('/v1/spaces/no-such-space/duplicate'), 404);
    });

    it('refuses new content in a locked space', async () => {
      const locked = await space(ada.organizationId, { title: 'Frozen', editMode: 'locked' });
      const before = (await as(ada.token).get(`/v1/spaces/${locked}`)).body.revision;
      await expect(
        publishRevision(
          service.events,
          { now: service.clock.now().toISOString(), actor: ada.userId },
          { spaceId: locked, parents: [before], pages: PAGES },
        ),
      ).rejects.toMatchObject({ kind: 'illegal-state', message: expect.stringMatching(/locked/) });
      await service.runtime.catchUp();
      expect((await as(ada.token).get(`/v1/spaces/${locked}`)).body.revision).toBe(before);
      expect((await as(ada.token).get(`/v1/spaces/${locked}/content/pages`)).body).toEqual({ pages: [] });
    });
  });

  describe('isolation and input limits', () => {
    it('answers 404 to a user of another organization on every endpoint', async () => {
      const c = await collection(ada.organizationId, { title: 'Private collection' });
      const s = await space(ada.organizationId, { title: 'Private space', parent: c });
      const revision = (await as(ada.token).get(`/v1/spaces/${s}`)).body.revision;
      const org = ada.organizationId;
      const reads = [
        `/v1/orgs/${org}/collections`,
        `/v1/orgs/${org}/spaces`,
        `/v1/collections/${c}`,
        `/v1/collections/${c}/spaces`,
        `/v1/spaces/${s}`,
        `/v1/spaces/${s}/content`,
        `/v1/spaces/${s}/content/pages`,
        `/v1/spaces/${s}/content/page/intro`,
        `/v1/spaces/${s}/content/files`,
        `/v1/spaces/${s}/content/files/logo`,
        `/v1/spaces/${s}/revisions/${revision}`,
      ];
      for (const path of reads) expectError(await as(bob.token).get(path), 404);

      const bobs = bob.organizationId;
      await refused(() => as(bob.token).post(`/v1/orgs/${org}/collections`, { title: 'Intruder' }), 404);
      await refused(() => as(bob.token).post(`/v1/orgs/${org}/spaces`, { title: 'Intruder' }), 404);
      await refused(() => as(bob.token).patch(`/v1/collections/${c}`, { title: 'Intruder' }), 404);
      await refused(() => as(bob.token).post(`/v1/collections/${c}/move`, { parent: null }), 404);
      await refused(() => as(bob.token).post(`/v1/collections/${c}/transfer`, { organization: bobs }), 404);
      await refused(() => as(bob.token).delete(`/v1/collections/${c}`), 404);
      await refused(() => as(bob.token).patch(`/v1/spaces/${s}`, { title: 'Intruder' }), 404);
      await refused(() => as(bob.token).post(`/v1/spaces/${s}/move`, { parent: null }), 404);
      await refused(() => as(bob.token).post(`/v1/spaces/${s}/transfer`, { organization: bobs }), 404);
      await refused(() => as(bob.token).post(`/v1/spaces/${s}/duplicate`), 404);
      await refused(() => as(bob.token).delete(`/v1/spaces/${s}`), 404);
      await as(ada.token).delete(`/v1/spaces/${s}`);
      await refused(() => as(bob.token).post(`/v1/spaces/${s}/restore`), 404);
      expectError(await as(bob.token).get(`/v1/spaces/${s}`), 404);
      // and no token at all is 401
      expectError(await service.call('GET', `/v1/collections/${c}`), 401);
      expectError(await service.call('GET', `/v1/orgs/${org}/spaces`), 401);
    });

    it('refuses limit and cursor abuse on every list', async () => {
      const c = await collection(ada.organizationId, { title: 'Paged' });
      const s = await space(ada.organizationId, { title: 'Paged space', parent: c });
      const lists = [
        `/v1/orgs/${ada.organizationId}/collections`,
        `/v1/orgs/${ada.organizationId}/spaces`,
        `/v1/collections/${c}/spaces`,
        `/v1/spaces/${s}/content/files`,
      ];
      for (const path of lists) {
        expectError(await as(ada.token).get(`${path}?limit=1001`), 400, /limit/);
        expectError(await as(ada.token).get(`${path}?limit=-1`), 400, /limit/);
        expectError(await as(ada.token).get(`${path}?limit=ten`), 400, /limit/);
        expectError(await as(ada.token).get(`${path}?limit=`), 400, /limit/);
        expectError(await as(ada.token).get(`${path}?limit=1e2`), 400, /limit/);
        expectError(await as(ada.token).get(`${path}?page=garbage`), 400, /page/);
        expectError(await as(ada.token).get(`${path}?page=${'p'.repeat(3000)}`), 400, /page/);
        expect((await as(ada.token).get(`${path}?limit=1000`)).status).toBe(200);
      }
      // a cursor of one list is not one of another
      const spaces = await as(ada.token).get(`/v1/orgs/${ada.organizationId}/spaces?limit=1`);
      const cursor = encodeURIComponent(spaces.body.next.page);
      expectError(await as(ada.token).get(`/v1/orgs/${ada.organizationId}/collections?page=${cursor}`), 400, /page/);
      expectError(await as(ada.token).get(`/v1/orgs/${bob.organizationId}/spaces?page=${cursor}`), 404);
    });
  });

  describe('the official client', () => {
    it('creates, lists, moves, deletes and restores a space', async () => {
      const api = new GitBookAPI({ authToken: ada.token, endpoint: service.url });
      const org = await newOrg('Client org');
      const home = await collection(org, { title: 'Client home' });
      const created = await api.orgs.createSpace(org, { title: 'From the client' });
      expect(created.data).toMatchObject({ object: 'space', title: 'From the client', visibility: 'private' });
      const id = created.data.id;
      const listed = await api.orgs.listSpacesInOrganizationById(org);
      expect(listed.data.items.map((item) => item.id)).toEqual([id]);
      const moved = await api.spaces.moveSpace(id, { parent: home });
      expect(moved.data).toMatchObject({ parent: home, visibility: 'in-collection' });
      await api.spaces.deleteSpaceById(id);
      expect((await api.orgs.listSpacesInOrganizationById(org)).data.count).toBe(0);
      const restored = await api.spaces.restoreSpace(id);
      expect(restored.data).toMatchObject({ id, parent: home });
      await expect(api.spaces.restoreSpace('no-such-space')).rejects.toMatchObject({ code: 404 });
    });
  });

  afterAll(() => {
    // Every content operation of the official spec was exercised and validated above.
    const expected = [
      'createCollection',
      'listCollectionsInOrganizationById',
      'getCollectionById',
      'updateCollectionById',
      'deleteCollectionById',
      'listSpacesInCollectionById',
      'moveCollection',
      'transferCollection',
      'createSpace',
      'listSpacesInOrganizationById',
      'getSpaceById',
      'updateSpaceById',
      'deleteSpaceById',
      'restoreSpace',
      'duplicateSpace',
      'moveSpace',
      'transferSpace',
      'getCurrentRevision',
      'listPages',
      'getPageById',
      'listFiles',
      'getFileById',
      'getRevisionById',
    ];
    if (service) expect([...service.validated].sort()).toEqual(expect.arrayContaining(expected));
  });
});

describe('content: the seven-day restore window (e2e)', () => {
  let service: TestService;
  let ada: Account;
  let carol: { userId: string; token: string };
  const { as, refused, processesCaughtUp } = harness(() => service);

  beforeAll(async () => {
    service = await TestService.start();
    ada = await service.signUp('ada@example.com', { org: 'Window' });
    carol = await service.signUp('carol@example.com');
    await as(ada.token).post(`/v1/orgs/${ada.organizationId}/invites`, { emails: ['carol@example.com'], role: 'read' });
  });

  afterAll(async () => {
    await service?.stop();
  });

  const newSpace = async (title: string) =>
    (await as(ada.token).post(`/v1/orgs/${ada.organizationId}/spaces`, { title })).body.id as string;

  it('restores a space deleted six days ago but not one deleted eight days ago', async () => {
    const recent = await newSpace('Recent');
    expect((await as(ada.token).delete(`/v1/spaces/${recent}`)).status).toBe(204);
    service.clock.advance(6 * DAY);
    const restored = await as(ada.token).post(`/v1/spaces/${recent}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body.deletedAt).toBeUndefined();

    const old = await newSpace('Old');
    expect((await as(ada.token).delete(`/v1/spaces/${old}`)).status).toBe(204);
    await processesCaughtUp();
    // the deadline check runs on a timer: pause it so the purge cannot come before the refused restore
    await service.runtime.processes.stop();
    try {
      service.clock.advance(8 * DAY);
      await refused(() => as(ada.token).post(`/v1/spaces/${old}/restore`), 409, /7 days/);
      expect((await as(ada.token).get(`/v1/spaces/${old}`)).body.deletedAt).toEqual(expect.any(String));
    } finally {
      await service.runtime.processes.start();
    }
    // the restored space was never purged
    await service.runtime.processes.tick();
    await service.runtime.catchUp();
    expect((await as(ada.token).get(`/v1/spaces/${recent}`)).body.deletedAt).toBeUndefined();
  });

  it('purges a space seven days after its deletion', async () => {
    const doomed = await newSpace('Doomed');
    const survivor = await newSpace('Survivor');
    expect((await as(ada.token).delete(`/v1/spaces/${doomed}`)).status).toBe(204);
    await processesCaughtUp();
    service.clock.advance(8 * DAY);
    await service.runtime.processes.tick();
    await service.runtime.catchUp();

    expectError(await as(ada.token).get(`/v1/spaces/${doomed}`), 404);
    expectError(await as(carol.token).get(`/v1/spaces/${doomed}`), 404);
    expectError(await as(ada.token).get(`/v1/spaces/${doomed}/content`), 404);
    expectError(await as(ada.token).post(`/v1/spaces/${doomed}/restore`), 404);
    expect(
      (await as(ada.token).get(`/v1/orgs/${ada.organizationId}/spaces`)).body.items.map((s: { id: string }) => s.id),
    ).not.toContain(doomed);
    expect((await as(ada.token).get(`/v1/spaces/${survivor}`)).status).toBe(200);
  });
});

describe('content: a purge that falls due while the service is stopped (e2e)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'quire-content-e2e-'));
  let first: TestService | undefined;
  let second: TestService | undefined;

  afterAll(async () => {
    await first?.stop(false).catch(() => undefined);
    await second?.stop(false);
    rmSync(dir, { recursive: true, force: true });
  });

  it('purges the space when the service starts again after the window closed', async () => {
    first = await TestService.start({}, dir);
    const ada = await first.signUp('ada@example.com', { org: 'Restarts' });
    const call = (service: TestService, method: string, path: string) =>
      service.call(method, path, { token: ada.token });
    const created = await first.call('POST', `/v1/orgs/${ada.organizationId}/spaces`, {
      token: ada.token,
      body: { title: 'Short-lived' },
    });
    const id = created.body.id as string;
    const kept = (
      await first.call('POST', `/v1/orgs/${ada.organizationId}/spaces`, { token: ada.token, body: { title: 'Kept' } })
    ).body.id as string;
    expect((await call(first, 'DELETE', `/v1/spaces/${id}`)).status).toBe(204);
    await first.runtime.processes.waitFor(await first.events.headPosition());
    await first.stop(false);
    first = undefined;

    second = await TestService.start({}, dir);
    // the deleted space is still there after the restart
    expect((await call(second, 'GET', `/v1/spaces/${id}`)).body.deletedAt).toEqual(expect.any(String));
    second.clock.advance(8 * DAY);
    await second.runtime.processes.waitFor(await second.events.headPosition());
    await second.runtime.processes.tick();
    await second.runtime.catchUp();
    expectError(await call(second, 'GET', `/v1/spaces/${id}`), 404);
    expectError(await call(second, 'POST', `/v1/spaces/${id}/restore`), 404);
    expect((await call(second, 'GET', `/v1/spaces/${kept}`)).status).toBe(200);
  });
});
