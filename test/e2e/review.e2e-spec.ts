import { GitBookAPI } from '@gitbook/api';
import { handleCommand, newId } from '@app/kernel';
import { changeRequestsStream } from '@app/review';
import { changeRequestsDecider } from '../../libs/review/src/domain';
import { type Response, TestService, expectError } from '../support/service';

/**
 * Change requests over real HTTP on the embedded backends: their life, their content, merge and update. Every
 * 2xx answer of an official operation is checked against the official schema by `TestService.call`; refused
 * changes are checked to append no event.
 */

type Account = { userId: string; token: string; organizationId: string };

describe('review: change requests', () => {
  let service: TestService;
  let ada: Account;
  let bob: Account;
  /** Members of Ada's organization with the read, edit and review roles. */
  let reader: { token: string; userId: string };
  let editor: { token: string; userId: string };
  let reviewer: { token: string; userId: string };

  const as = (token: string) => service.as(token);

  const refused = (run: () => Promise<Response>, status: number, message?: RegExp) =>
    service.refused(run, status, message);

  async function member(email: string, role: string) {
    const account = await service.signUp(email, { name: email.split('@')[0] });
    const invited = await as(ada.token).post(`/v1/orgs/${ada.organizationId}/invites`, { emails: [email], role });
    expect(invited.status).toBe(200);
    return account;
  }

  beforeAll(async () => {
    service = await TestService.start();
    ada = await service.signUp('ada@example.com', { name: 'Ada', org: 'Analytical Engines' });
    bob = await service.signUp('bob@example.com', { name: 'Bob', org: "Bob's Org" });
    reader = await member('rita@example.com', 'read');
    editor = await member('eddie@example.com', 'edit');
    reviewer = await member('rev@example.com', 'review');
  });

  afterAll(async () => {
    await service?.stop();
  });

  async function space(title = 'Handbook'): Promise<string> {
    service.clock.advance(1000);
    const created = await as(ada.token).post(`/v1/orgs/${ada.organizationId}/spaces`, { title });
    expect(created.status).toBe(201);
    return created.body.id;
  }

  const crPath = (spaceId: string, cr?: string | number) =>
    `/v1/spaces/${spaceId}/change-requests${cr === undefined ? '' : `/${cr}`}`;

  async function changeRequest(spaceId: string, subject = 'Proposal', token = ada.token) {
    service.clock.advance(1000);
    const created = await as(token).post(crPath(spaceId), { subject });
    expect(created.status).toBe(201);
    return created.body as { id: string; number: number; revision: string };
  }

  async function write(spaceId: string, cr: string, changes: unknown[], token = ada.token) {
    const response = await as(token).post(`${crPath(spaceId, cr)}/content`, { changes });
    expect(response.status).toBe(200);
    return response.body;
  }

  const insert = (title: string | undefined, markdown: string, extra: Record<string, unknown> = {}) => ({
    operation: 'insert_page',
    ...(title !== undefined ? { title } : {}),
    document: { markdown },
    ...extra,
  });

  async function pagesOf(path: string) {
    const response = await as(ada.token).get(path);
    expect(response.status).toBe(200);
    const flat: { id: string; title: string; markdown: string; path: string; depth: number }[] = [];
    const walk = (pages: any[], depth: number) =>
      pages.forEach((page) => {
        flat.push({ id: page.id, title: page.title, markdown: page.markdown, path: page.path, depth });
        walk(page.pages ?? [], depth + 1);
      });
    walk(response.body.pages, 0);
    return flat;
  }

  describe('life of a change request', () => {
    it('creates a draft at the space revision, with a Location, counted on the space', async () => {
      const spaceId = await space();
      const spaceBefore = (await as(ada.token).get(`/v1/spaces/${spaceId}`)).body;
      const created = await as(ada.token).post(crPath(spaceId), { subject: 'Fix the intro' });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        object: 'change-request',
        number: 1,
        status: 'draft',
        subject: 'Fix the intro',
        space: spaceId,
        revision: spaceBefore.revision,
        revisionInitial: spaceBefore.revision,
        outdated: false,
        comments: 0,
        createdBy: { object: 'user', id: ada.userId, displayName: 'Ada' },
      });
      expect(created.headers.get('location')).toBe(created.body.urls.location);
      const after = (await as(ada.token).get(`/v1/spaces/${spaceId}`)).body;
      expect(after).toMatchObject({ changeRequests: 1, changeRequestsDraft: 1, changeRequestsOpen: 0 });
    });

    it('is found by id and by number; an unknown one, or one of another space, is 404', async () => {
      const spaceId = await space();
      const other = await space('Other');
      const first = await changeRequest(spaceId);
      const second = await changeRequest(spaceId);
      expect(second.number).toBe(2);
      expect((await as(ada.token).get(crPath(spaceId, first.id))).body.id).toBe(first.id);
      expect((await as(ada.token).get(crPath(spaceId, 2))).body.id).toBe(second.id);
      expectError(await as(ada.token).get(crPath(spaceId, 3)), 404);
      expectError(await as(ada.token).get(crPath(spaceId, 'nope')), 404);
      expectError(await as(ada.token).get(crPath(other, first.id)), 404);
      expectError(await as(ada.token).get(crPath(other, 1)), 404);
      expectError(await as(bob.token).get(crPath(spaceId, first.id)), 404);
      expectError(await as(bob.token).get(crPath(spaceId)), 404);
    });

    it('numbers concurrent creations 1..n with no gap and no duplicate', async () => {
      const spaceId = await space();
      const created = await Promise.all(
        Array.from({ length: 12 }, (_, i) => as(ada.token).post(crPath(spaceId), { subject: `cr ${i}` })),
      );
      expect(created.map((r) => r.status)).toEqual(Array(12).fill(201));
      expect(created.map((r) => r.body.number).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 12 }, (_, i) => i + 1),
      );
    });

    it('moves between draft, open and archived, the space counters following; merged is final', async () => {
      const spaceId = await space();
      const cr = await changeRequest(spaceId);
      const counters = async () => {
        const body = (await as(ada.token).get(`/v1/spaces/${spaceId}`)).body;
        return [body.changeRequests, body.changeRequestsOpen, body.changeRequestsDraft];
      };
      const opened = await as(ada.token).patch(crPath(spaceId, cr.number), { status: 'open', subject: 'Ready' });
      expect(opened.body).toMatchObject({ status: 'open', subject: 'Ready' });
      expect(await counters()).toEqual([1, 1, 0]);
      await as(ada.token).patch(crPath(spaceId, cr.id), { status: 'archived' });
      expect(await counters()).toEqual([1, 0, 0]);
      await refused(() => as(ada.token).post(`${crPath(spaceId, cr.id)}/merge`), 409, /archived/);
      await as(ada.token).patch(crPath(spaceId, cr.id), { status: 'draft' });
      expect(await counters()).toEqual([1, 0, 1]);
      await refused(() => as(ada.token).patch(crPath(spaceId, cr.id), { status: 'merged' }), 400);
      await refused(() => as(ada.token).patch(crPath(spaceId, cr.id), { subject: 'x'.repeat(101) }), 400);
      expect((await as(ada.token).patch(crPath(spaceId, cr.id), { subject: '✨'.repeat(100) })).status).toBe(200);
      const merged = await as(ada.token).post(`${crPath(spaceId, cr.id)}/merge`);
      expect(merged.status).toBe(200);
      expect(await counters()).toEqual([1, 0, 0]);
      await refused(() => as(ada.token).patch(crPath(spaceId, cr.id), { status: 'open' }), 409, /merged/);
      await refused(() => as(ada.token).post(`${crPath(spaceId, cr.id)}/merge`), 409, /merged/);
      await refused(() => as(ada.token).post(`${crPath(spaceId, cr.id)}/update`), 409, /merged/);
    });

    it('lists open ones by default, others by status, and by contributor', async () => {
      const spaceId = await space();
      const a = await changeRequest(spaceId, 'a');
      const b = await changeRequest(spaceId, 'b', editor.token);
      await as(ada.token).patch(crPath(spaceId, b.id), { status: 'open' });
      await write(spaceId, a.id, [insert('Page', 'text')], editor.token);
      const ids = async (query: string) =>
        (await as(ada.token).get(`${crPath(spaceId)}${query}`)).body.items.map((i: { id: string }) => i.id);
      expect(await ids('')).toEqual([b.id]);
      expect(await ids('?status=draft')).toEqual([a.id]);
      expect(await ids(`?status=draft&contributor=${editor.userId}`)).toEqual([a.id]);
      expect(await ids(`?status=draft&contributor=${reader.userId}`)).toEqual([]);
      expect(await ids(`?status=open&contributor=${editor.userId}`)).toEqual([b.id]);
      expectError(await as(ada.token).get(`${crPath(spaceId)}?status=nope`), 400);
      const paged = await as(ada.token).get(`${crPath(spaceId)}?status=draft&limit=0`);
      expect(paged.body).toMatchObject({ items: [], count: 1 });
    });
  });

  describe('content', () => {
    it('writes pages into the change request only, all changes as one revision', async () => {
      const spaceId = await space();
      const cr = await changeRequest(spaceId);
      const body = await write(spaceId, cr.id, [
        insert('Guide', '# Guide\n\nSee [the setup](./setup).', { ref: 'guide' }),
        insert('Setup', 'Run it.', { ref: 'setup', into: 'guide' }),
        insert(undefined, '# Derived title\n\ntext'),
      ]);
      expect(body.object).toBe('change-request');
      expect(body.revision).not.toBe(cr.revision);
      const pages = await pagesOf(`${crPath(spaceId, cr.id)}/content/pages`);
      expect(pages.map((p) => [p.title, p.path, p.depth])).toEqual([
        ['Guide', 'guide', 0],
        ['Setup', 'guide/setup', 1],
        ['Derived title', 'derived-title', 0],
      ]);
      expect(pages[0].markdown).toBe(`# Guide\n\nSee [the setup](/pages/${pages[1].id}).`);
      expect(await pagesOf(`/v1/spaces/${spaceId}/content/pages`)).toEqual([]);
      const revision = await as(ada.token).get(`${crPath(spaceId, cr.id)}/content`);
      expect(revision.body).toMatchObject({ object: 'revision', id: body.revision, parents: [cr.revision] });
      const page = await as(ada.token).get(`${crPath(spaceId, cr.id)}/content/page/${pages[1].id}?format=document`);
      expect(page.body.document.object).toBe('document');
      expectError(await as(ada.token).get(`${crPath(spaceId, cr.id)}/content/page/nope`), 404);
    });

    it('updates, moves, deletes and reverts pages, and answers the affected pages with compat=false', async () => {
      const spaceId = await space();
      const cr = await changeRequest(spaceId);
      await write(spaceId, cr.id, [insert('One', 'first'), insert('Two', 'second')]);
      const merged = await as(ada.token).post(`${crPath(spaceId, cr.id)}/merge`);
      expect(merged.body.result).toBe('merge');
      const [one, two] = await pagesOf(`/v1/spaces/${spaceId}/content/pages`);
      const next = await changeRequest(spaceId);
      const response = await as(ada.token).post(`${crPath(spaceId, next.id)}/content?compat=false`, {
        changes: [
          { operation: 'update_page', page: one.id, title: 'Uno', document: { markdown: 'primero' } },
          { operation: 'update_page', page: two.id, into: one.id },
          { operation: 'delete_page', page: two.id },
          { operation: 'revert_page', page: two.id },
          { operation: 'revert_page', page: one.id },
        ],
      });
      expect(response.status).toBe(200);
      expect(response.body.changeRequest.object).toBe('change-request');
      expect(response.body.changes.map((c: { object: string }) => c.object)).toEqual([
        'updated_page',
        'updated_page',
        'deleted_page',
        'created_page',
        'updated_page',
      ]);
      const pages = await pagesOf(`${crPath(spaceId, next.id)}/content/pages`);
      expect(pages.map((p) => [p.id, p.title, p.markdown])).toEqual([
        [one.id, 'One', 'first'],
        [two.id, 'Two', 'second'],
      ]);
    });

    it('takes page bodies as JSON documents, stored as their markdown', async () => {
      const spaceId = await space();
      const cr = await changeRequest(spaceId);
      const text = (value: string, marks: string[] = []) => ({
        object: 'text',
        leaves: [{ object: 'leaf', text: value, marks: marks.map((type) => ({ object: 'mark', type })) }],
      });
      const document = {
        object: 'document',
        data: {},
        nodes: [
          { object: 'block', type: 'heading-1', data: {}, nodes: [text('Intro')] },
          { object: 'block', type: 'paragraph', nodes: [text('Read '), text('this', ['italic'])] },
        ],
      };
      await write(spaceId, cr.id, [{ operation: 'insert_page', title: 'From JSON', document: { document } }]);
      const [page] = await pagesOf(`${crPath(spaceId, cr.id)}/content/pages`);
      expect(page.markdown).toBe('# Intro\n\nRead _this_');
      const path = `${crPath(spaceId, cr.id)}/content`;
      await refused(
        () =>
          as(ada.token).post(path, {
            changes: [{ operation: 'insert_page', title: 'X', document: { document: { object: 'page' } } }],
          }),
        400,
        /changes\[0\]\.document\.document: object must be document/,
      );
    });

    it('refuses a bad batch whole: nothing is written, the revision does not move', async () => {
      const spaceId = await space();
      const cr = await changeRequest(spaceId);
      const path = `${crPath(spaceId, cr.id)}/content`;
      const tooMany = Array.from({ length: 51 }, (_, i) => insert(`P${i}`, 'x'));
      await refused(() => as(ada.token).post(path, { changes: tooMany }), 400);
      await refused(() => as(ada.token).post(path, { changes: [] }), 400);
      await refused(
        () => as(ada.token).post(path, { changes: [insert('ok', 'x'), { operation: 'delete_page', page: 'nope' }] }),
        400,
        /changes\[1\]/,
      );
      await refused(() => as(ada.token).post(path, { changes: [{ operation: 'explode' }] }), 400, /operation/);
      await refused(
        () =>
          as(ada.token).post(path, {
            changes: [{ operation: 'insert_files', files: [{ name: 'a.png', base64: 'not base64!' }] }],
          }),
        400,
        /base64/,
      );
      await refused(() => as(ada.token).post(path, { changes: [insert('x', 'y', { into: 'nowhere' })] }), 400);
      await refused(() => as(ada.token).post(path, { changes: [insert('x', 'y', { at: 5 })] }), 400, /at/);
      expect((await as(ada.token).get(crPath(spaceId, cr.id))).body.revision).toBe(cr.revision);
    });

    it('stores files by content and serves them at a signed address', async () => {
      const spaceId = await space();
      const cr = await changeRequest(spaceId);
      const bytes = Buffer.from('hello, file');
      const response = await as(ada.token).post(`${crPath(spaceId, cr.id)}/content?compat=false`, {
        changes: [{ operation: 'insert_files', files: [{ name: 'hello.txt', base64: bytes.toString('base64') }] }],
      });
      expect(response.status).toBe(200);
      const [file] = response.body.insertedFiles;
      expect(file).toMatchObject({ name: 'hello.txt', contentType: 'text/plain', size: bytes.length });
      const listed = await as(ada.token).get(`${crPath(spaceId, cr.id)}/content/files`);
      expect(listed.body.items.map((f: { id: string }) => f.id)).toEqual([file.id]);
      const one = await as(ada.token).get(`${crPath(spaceId, cr.id)}/content/files/${file.id}`);
      const url = new URL(one.body.downloadURL);
      const download = await fetch(`${service.url}${url.pathname}${url.search}`);
      expect(download.status).toBe(200);
      expect(Buffer.from(await download.arrayBuffer()).toString()).toBe('hello, file');
      const tampered = await fetch(`${service.url}${url.pathname}?signature=AAAA`);
      expect(tampered.status).toBe(404);
    });

    it('refuses edits in a locked space (409), and readers and commenters (403)', async () => {
      const spaceId = await space();
      const cr = await changeRequest(spaceId);
      await refused(() => as(reader.token).post(crPath(spaceId), { subject: 'no' }), 403);
      await refused(
        () => as(reader.token).post(`${crPath(spaceId, cr.id)}/content`, { changes: [insert('a', 'b')] }),
        403,
      );
      expect((await as(ada.token).patch(`/v1/spaces/${spaceId}`, { editMode: 'locked' })).status).toBe(200);
      await refused(
        () => as(ada.token).post(`${crPath(spaceId, cr.id)}/content`, { changes: [insert('a', 'b')] }),
        409,
        /locked/,
      );
      await refused(() => as(ada.token).post(`${crPath(spaceId, cr.id)}/merge`), 409, /locked/);
    });
  });

  describe('merge and update', () => {
    it('merges into the space: merge revision with both parents, merged by, others outdated', async () => {
      const spaceId = await space();
      const before = (await as(ada.token).get(`/v1/spaces/${spaceId}`)).body.revision;
      const cr = await changeRequest(spaceId);
      const other = await changeRequest(spaceId, 'other');
      await write(spaceId, cr.id, [insert('Hello', 'world')]);
      const written = (await as(ada.token).get(crPath(spaceId, cr.id))).body.revision;
      const merged = await as(reviewer.token).post(`${crPath(spaceId, cr.number)}/merge`);
      expect(merged.status).toBe(200);
      expect(merged.body).toEqual({ revision: expect.any(String), result: 'merge', conflicts: [] });
      const spaceAfter = (await as(ada.token).get(`/v1/spaces/${spaceId}`)).body;
      expect(spaceAfter.revision).toBe(merged.body.revision);
      const revision = (await as(ada.token).get(`/v1/spaces/${spaceId}/content`)).body;
      expect(revision).toMatchObject({ type: 'merge', parents: [before, written] });
      expect((await pagesOf(`/v1/spaces/${spaceId}/content/pages`)).map((p) => p.title)).toEqual(['Hello']);
      const done = (await as(ada.token).get(crPath(spaceId, cr.id))).body;
      expect(done).toMatchObject({
        status: 'merged',
        revisionMerged: merged.body.revision,
        mergedBy: { id: reviewer.userId },
        mergedAt: expect.any(String),
      });
      expect((await as(ada.token).get(crPath(spaceId, other.id))).body.outdated).toBe(true);
    });

    it('needs the review role to merge; editors can update', async () => {
      const spaceId = await space();
      const cr = await changeRequest(spaceId, 'by editor', editor.token);
      expect((await as(editor.token).get(crPath(spaceId, cr.id))).body.permissions).toMatchObject({
        edit: true,
        merge: false,
      });
      expect((await as(editor.token).get(`/v1/spaces/${spaceId}`)).body.permissions.merge).toBe(false);
      await refused(() => as(editor.token).post(`${crPath(spaceId, cr.id)}/merge`), 403, /review/);
      expect((await as(editor.token).post(`${crPath(spaceId, cr.id)}/update`)).status).toBe(200);
      await refused(() => as(reader.token).post(`${crPath(spaceId, cr.id)}/update`), 403);
      expect((await as(reviewer.token).get(`/v1/spaces/${spaceId}`)).body.permissions.merge).toBe(true);
      expect((await as(reviewer.token).post(`${crPath(spaceId, cr.id)}/merge`)).status).toBe(200);
    });

    it('updates an outdated change request from the space; an up-to-date one is left as it is', async () => {
      const spaceId = await space();
      const first = await changeRequest(spaceId, 'first');
      const second = await changeRequest(spaceId, 'second');
      const unchanged = await as(ada.token).post(`${crPath(spaceId, second.id)}/update`);
      expect(unchanged.body).toEqual({ revision: second.revision, result: 'update', conflicts: [] });
      await write(spaceId, first.id, [insert('From first', 'a')]);
      await write(spaceId, second.id, [insert('From second', 'b')]);
      await as(ada.token).post(`${crPath(spaceId, first.id)}/merge`);
      expect((await as(ada.token).get(crPath(spaceId, second.id))).body.outdated).toBe(true);
      const updated = await as(ada.token).post(`${crPath(spaceId, second.id)}/update`);
      expect(updated.body.result).toBe('update');
      const after = (await as(ada.token).get(crPath(spaceId, second.id))).body;
      const spaceRevision = (await as(ada.token).get(`/v1/spaces/${spaceId}`)).body.revision;
      expect(after).toMatchObject({
        outdated: false,
        revision: updated.body.revision,
        revisionMergedAncestor: spaceRevision,
      });
      const titles = (await pagesOf(`${crPath(spaceId, second.id)}/content/pages`)).map((p) => p.title).sort();
      expect(titles).toEqual(['From first', 'From second']);
      const again = await as(ada.token).post(`${crPath(spaceId, second.id)}/update`);
      expect(again.body.revision).toBe(updated.body.revision);
    });

    it('two merges of one change request at once: one lands, the other is 409', async () => {
      const spaceId = await space();
      const cr = await changeRequest(spaceId);
      await write(spaceId, cr.id, [insert('Once', 'x')]);
      const answers = await Promise.all([0, 1].map(() => as(ada.token).post(`${crPath(spaceId, cr.id)}/merge`)));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      expect((await pagesOf(`/v1/spaces/${spaceId}/content/pages`)).map((p) => p.title)).toEqual(['Once']);
    });

    it('two change requests merged at once both land, the second on top of the first', async () => {
      const spaceId = await space();
      const a = await changeRequest(spaceId, 'a');
      const b = await changeRequest(spaceId, 'b');
      await write(spaceId, a.id, [insert('From a', 'a')]);
      await write(spaceId, b.id, [insert('From b', 'b')]);
      const answers = await Promise.all([a, b].map((cr) => as(ada.token).post(`${crPath(spaceId, cr.id)}/merge`)));
      expect(answers.map((r) => r.status)).toEqual([200, 200]);
      const titles = (await pagesOf(`/v1/spaces/${spaceId}/content/pages`)).map((p) => p.title).sort();
      expect(titles).toEqual(['From a', 'From b']);
    });

    it('refuses a merge whose result would be nested too deep (409), records nothing, and merges others after', async () => {
      const spaceId = await space();
      const setup = await changeRequest(spaceId);
      await write(spaceId, setup.id, [insert('P', 'p'), insert('Q', 'q')]);
      expect((await as(ada.token).post(`${crPath(spaceId, setup.id)}/merge`)).status).toBe(200);
      const [p, q] = await pagesOf(`/v1/spaces/${spaceId}/content/pages`);
      // one side nests ten pages under P, the other ten under Q and moves P to the bottom of that chain:
      // each side is 12 levels deep at most, together they would be 22
      const chain = (prefix: string, top: string) =>
        Array.from({ length: 10 }, (_, i) =>
          insert(`${prefix}${i}`, 'x', { ref: `${prefix}${i}`, into: i === 0 ? top : `${prefix}${i - 1}` }),
        );
      const under = await changeRequest(spaceId, 'under P');
      const over = await changeRequest(spaceId, 'P under Q');
      await write(spaceId, under.id, chain('d', p.id));
      await write(spaceId, over.id, [...chain('c', q.id), { operation: 'update_page', page: p.id, into: 'c9' }]);
      expect((await as(ada.token).post(`${crPath(spaceId, under.id)}/merge`)).status).toBe(200);
      await refused(() => as(ada.token).post(`${crPath(spaceId, over.id)}/merge`), 409, /nested more than 20 levels/);
      expect((await as(ada.token).get(crPath(spaceId, over.id))).body.status).toBe('draft');
      const another = await changeRequest(spaceId, 'still mergeable');
      await write(spaceId, another.id, [insert('Later', 'x')]);
      expect((await as(ada.token).post(`${crPath(spaceId, another.id)}/merge`)).status).toBe(200);
    });

    it('finishes a merge whose start was recorded but which never landed (a crash between the steps)', async () => {
      const spaceId = await space();
      const cr = await changeRequest(spaceId);
      await write(spaceId, cr.id, [insert('Recovered', 'x')]);
      const spaceRevision = (await as(ada.token).get(`/v1/spaces/${spaceId}`)).body.revision;
      const written = (await as(ada.token).get(crPath(spaceId, cr.id))).body.revision;
      const revisionId = newId();
      // what the merge endpoint records first; the service "crashed" before the rest
      await handleCommand(service.events, changeRequestsDecider, changeRequestsStream(spaceId), {
        type: 'StartMerge',
        data: {
          spaceId,
          changeRequestId: cr.id,
          revisionId,
          ours: spaceRevision,
          theirs: written,
          base: spaceRevision,
        },
        metadata: { now: service.clock.now().toISOString(), actor: ada.userId },
      });
      await service.runtime.processes.waitFor(await service.events.headPosition());
      await service.runtime.catchUp();
      expect((await as(ada.token).get(`/v1/spaces/${spaceId}`)).body.revision).toBe(revisionId);
      expect((await as(ada.token).get(crPath(spaceId, cr.id))).body).toMatchObject({
        status: 'merged',
        revisionMerged: revisionId,
        mergedBy: { id: ada.userId },
      });
    });
  });

  describe('links', () => {
    it('lists links by target with their status, per page of a change request, file backlinks, and for the space', async () => {
      const spaceId = await space();
      const cr = await changeRequest(spaceId);
      const appUrl = (await as(ada.token).get(`/v1/spaces/${spaceId}`)).body.urls.app as string;
      const inApp = `${new URL(appUrl).origin}/s/elsewhere`;
      const written = await as(ada.token).post(`${crPath(spaceId, cr.id)}/content?compat=false`, {
        changes: [
          {
            operation: 'insert_files',
            files: [{ name: 'chart.txt', ref: 'chart', base64: Buffer.from('1,2').toString('base64') }],
          },
          insert('Target', 'I am linked to', { ref: 'target' }),
          insert(
            'Source',
            `See [the target](./target), [the chart](./chart), [a site](https://example.com), [app](${inApp}), ` +
              '[gone](/pages/nowhere) and [the target again](./target).',
            { ref: 'source' },
          ),
        ],
      });
      expect(written.status).toBe(200);
      const pages = await pagesOf(`${crPath(spaceId, cr.id)}/content/pages`);
      const source = pages.find((p) => p.title === 'Source')!;
      const target = pages.find((p) => p.title === 'Target')!;
      const fileId = written.body.insertedFiles[0].id;

      const links = await as(ada.token).get(`${crPath(spaceId, cr.id)}/content/page/${source.id}/links`);
      expect(links.status).toBe(200);
      const byStatus = (items: any[]) =>
        items.map((item) => [item.status, item.targetReference?.kind ?? null, item.locationReferences.length]);
      expect(byStatus(links.body.items)).toEqual([
        ['ok', 'page', 1],
        ['ok', 'file', 1],
        ['ok', 'url', 1],
        ['in-app', 'url', 1],
        ['broken', null, 1],
      ]);
      expect(links.body.items[0].targetReference.page.id).toBe(target.id);
      expect(links.body.items[0].locationReferences[0].page.id).toBe(source.id);
      expect(links.body.stats).toEqual({ total: 5, broken: { total: 1 } });
      const withFlags = `${crPath(spaceId, cr.id)}/content/page/${source.id}/links?metadata=true&computed=false`;
      expect((await as(ada.token).get(withFlags)).status).toBe(200);
      const targetLinks = await as(ada.token).get(`${crPath(spaceId, cr.id)}/content/page/${target.id}/links`);
      expect(targetLinks.body.items).toEqual([]);

      const backlinks = await as(ada.token).get(`${crPath(spaceId, cr.id)}/content/files/${fileId}/backlinks`);
      expect(backlinks.status).toBe(200);
      expect(backlinks.body.items.map((l: any) => [l.kind, l.page.id])).toEqual([['page', source.id]]);

      // the space has none until the change request is merged
      expect((await as(ada.token).get(`/v1/spaces/${spaceId}/links`)).body.stats.total).toBe(0);
      expect((await as(ada.token).post(`${crPath(spaceId, cr.id)}/merge`)).status).toBe(200);
      const spaceLinks = await as(ada.token).get(`/v1/spaces/${spaceId}/links`);
      expect(spaceLinks.body.count).toBe(5);
      const broken = await as(ada.token).get(`/v1/spaces/${spaceId}/links?status=broken`);
      expect(broken.body.items.map((item: any) => item.status)).toEqual(['broken']);
      expect(broken.body.stats).toEqual({ total: 5, broken: { total: 1 } });
      const inAppOnly = await as(ada.token).get(`/v1/spaces/${spaceId}/links?status=in-app&limit=1`);
      expect(inAppOnly.body.items).toHaveLength(1);

      expectError(await as(ada.token).get(`/v1/spaces/${spaceId}/links?status=fine`), 400, /status/);
      expectError(await as(ada.token).get(`${crPath(spaceId, cr.id)}/content/page/nope/links`), 404);
      expectError(await as(ada.token).get(`${crPath(spaceId, cr.id)}/content/files/nope/backlinks`), 404);
      expectError(await as(bob.token).get(`/v1/spaces/${spaceId}/links`), 404);
    });
  });

  it('exports a PDF of the change request at a signed address that expires after an hour', async () => {
    const spaceId = await space('PDF');
    const cr = await changeRequest(spaceId, 'Printable');
    await write(spaceId, cr.id, [
      insert('Chapter', '# Title\n\nSome *text*.', { ref: 'ch' }),
      insert('Sub', 'x', { into: 'ch' }),
    ]);
    const [chapter] = await pagesOf(`${crPath(spaceId, cr.id)}/content/pages`);
    const answer = await as(reader.token).get(`${crPath(spaceId, cr.id)}/pdf`);
    expect(answer.status).toBe(200);
    const url = new URL(answer.body.url);
    const download = await fetch(`${service.url}${url.pathname}${url.search}`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await download.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const only = await as(ada.token).get(`${crPath(spaceId, cr.id)}/pdf?only=true&page=${chapter.id}`);
    expect(only.body.url).not.toBe(answer.body.url);
    expectError(await as(ada.token).get(`${crPath(spaceId, cr.id)}/pdf?page=nope`), 404);
    expectError(await as(bob.token).get(`${crPath(spaceId, cr.id)}/pdf`), 404);
    service.clock.advance(61 * 60 * 1000);
    expect((await fetch(`${service.url}${url.pathname}${url.search}`)).status).toBe(404);
  });

  it('works through the official client: create, write pages, merge, read the space', async () => {
    const api = new GitBookAPI({ authToken: ada.token, endpoint: service.url });
    const spaceId = await space('Client');
    const created = await api.spaces.createChangeRequest(spaceId, { subject: 'From the client' });
    expect(created.data).toMatchObject({ object: 'change-request', number: 1, status: 'draft' });
    const written = await api.spaces.updateChangeRequestContent(spaceId, created.data.id, {
      changes: [{ operation: 'insert_page', title: 'Client page', document: { markdown: 'Hello from the SDK' } }],
    });
    expect(written.data).toMatchObject({ object: 'change-request' });
    const merged = await api.spaces.mergeChangeRequest(spaceId, String(created.data.number));
    expect(merged.data.result).toBe('merge');
    const pages = await api.spaces.listPages(spaceId);
    expect(pages.data.pages.map((page) => page.title)).toEqual(['Client page']);
    const fetched = await api.spaces.getChangeRequestById(spaceId, created.data.id);
    expect(fetched.data.status).toBe('merged');
  });
});
