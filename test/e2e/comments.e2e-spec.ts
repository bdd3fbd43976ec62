import { GitBookAPI } from '@gitbook/api';
import { type Response, TestService, expectError } from '../support/service';

/**
 * Comments, replies and reactions on spaces and change requests, over real HTTP on the embedded backends. Every
 * 2xx answer of an official operation is checked against the official schema by `TestService.call`; refused
 * calls are checked to append no event.
 */

type Account = { userId: string; token: string; organizationId: string };

describe('review: comments', () => {
  let service: TestService;
  let ada: Account;
  let bob: Account;
  let reader: { token: string; userId: string };
  let commenter: { token: string; userId: string };
  let other: { token: string; userId: string };

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
    commenter = await member('cole@example.com', 'comment');
    other = await member('otto@example.com', 'comment');
  });

  afterAll(async () => {
    await service?.stop();
  });

  /** A space with two pages, One and Two, written through a merged change request. */
  async function space(): Promise<{ spaceId: string; one: string; two: string }> {
    service.clock.advance(1000);
    const created = await as(ada.token).post(`/v1/orgs/${ada.organizationId}/spaces`, { title: 'Handbook' });
    const spaceId = created.body.id;
    const cr = await as(ada.token).post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Pages' });
    const written = await as(ada.token).post(`/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content`, {
      changes: [
        { operation: 'insert_page', title: 'One', document: { markdown: 'first' } },
        { operation: 'insert_page', title: 'Two', document: { markdown: 'second' } },
      ],
    });
    expect(written.status).toBe(200);
    expect((await as(ada.token).post(`/v1/spaces/${spaceId}/change-requests/${cr.body.id}/merge`)).status).toBe(200);
    const pages = (await as(ada.token).get(`/v1/spaces/${spaceId}/content/pages`)).body.pages;
    return { spaceId, one: pages[0].id, two: pages[1].id };
  }

  async function post(spaceId: string, body: unknown, token = ada.token, base = `/v1/spaces/${spaceId}`) {
    service.clock.advance(1000);
    const response = await as(token).post(`${base}/comments`, body);
    expect(response.status).toBe(200);
    return response.body;
  }

  const spaceCounter = async (spaceId: string) => (await as(ada.token).get(`/v1/spaces/${spaceId}`)).body.comments;

  describe('space comments', () => {
    it('posts an open comment about a page, counted on the space, with the caller permissions', async () => {
      const { spaceId, one } = await space();
      const comment = await post(spaceId, { body: { markdown: 'Is this **right**?' }, page: one, node: 'block-1' });
      expect(comment).toMatchObject({
        object: 'comment',
        status: 'open',
        body: { markdown: 'Is this **right**?' },
        postedBy: { id: ada.userId, displayName: 'Ada' },
        replies: 0,
        reactions: [],
        target: {
          space: spaceId,
          page: { id: one, title: 'One', path: 'one', outdated: false },
          node: { id: 'block-1' },
        },
        permissions: { view: true, edit: true, reply: true, delete: true },
      });
      expect(comment.urls.location).toMatch(new RegExp(`/v1/spaces/${spaceId}/comments/${comment.id}$`));
      expect(comment.target.revision).toBe((await as(ada.token).get(`/v1/spaces/${spaceId}`)).body.revision);
      expect(await spaceCounter(spaceId)).toBe(1);
      const seenByCommenter = await as(commenter.token).get(`/v1/spaces/${spaceId}/comments/${comment.id}`);
      expect(seenByCommenter.body.permissions).toEqual({ view: true, edit: false, reply: true, delete: false });
      const asDocument = await as(ada.token).get(`/v1/spaces/${spaceId}/comments/${comment.id}?format=document`);
      expect(asDocument.body.body.document.nodes[0].type).toBe('paragraph');
    });

    it('takes a JSON document body and stores it once, served as markdown or as a document', async () => {
      const { spaceId } = await space();
      const document = {
        object: 'document',
        data: {},
        nodes: [
          {
            object: 'block',
            type: 'paragraph',
            nodes: [
              { object: 'text', leaves: [{ object: 'leaf', text: 'Bold', marks: [{ object: 'mark', type: 'bold' }] }] },
            ],
          },
        ],
      };
      const comment = await post(spaceId, { body: { document } });
      expect(comment.body).toEqual({ markdown: '**Bold**' });
      const again = await as(ada.token).get(`/v1/spaces/${spaceId}/comments/${comment.id}?format=document`);
      expect(again.body.body.document.nodes).toEqual(document.nodes);
    });

    it('refuses bad input with 400 and writes nothing', async () => {
      const { spaceId } = await space();
      const path = `/v1/spaces/${spaceId}/comments`;
      await refused(() => as(ada.token).post(path, {}), 400, /body/);
      await refused(() => as(ada.token).post(path, { body: {} }), 400, /body must not be empty/);
      await refused(() => as(ada.token).post(path, { body: { markdown: '   ' } }), 400, /must not be empty/);
      await refused(() => as(ada.token).post(path, { body: 'text' }), 400, /body/);
      await refused(
        () => as(ada.token).post(path, { body: { markdown: 'x'.repeat(100_001) } }),
        400,
        /at most 100000 characters/,
      );
      await refused(() => as(ada.token).post(path, { body: { document: { object: 'nope' } } }), 400, /body.document/);
      await refused(() => as(ada.token).post(path, { body: { markdown: 'a' }, page: 'missing' }), 400, /page missing/);
      await refused(() => as(ada.token).post(path, { body: { markdown: 'a' }, node: 'n1' }), 400, /only be given with/);
      await refused(() => as(ada.token).post(path, { body: { markdown: 'a' }, extra: 1 }), 400, /extra/);
      const openapi = await service.call('GET', '/openapi.json');
      expect(JSON.stringify(openapi.body)).toContain('"maxLength":100000');
    });

    it('resolves and reopens, following the counter; reacts once per user; only the author edits', async () => {
      const { spaceId } = await space();
      const comment = await post(spaceId, { body: { markdown: 'Typo here' } }, commenter.token);
      const path = `/v1/spaces/${spaceId}/comments/${comment.id}`;
      service.clock.advance(1000);
      const resolved = await as(other.token).put(path, { resolved: true });
      expect(resolved.status).toBe(200);
      expect(resolved.body).toMatchObject({ status: 'resolved', resolvedBy: { id: other.userId } });
      expect(resolved.body.resolvedAt).toBe(service.clock.now().toISOString());
      expect(await spaceCounter(spaceId)).toBe(0);
      const reopened = await as(commenter.token).put(path, { resolved: false });
      expect(reopened.body.status).toBe('open');
      expect(reopened.body.resolvedAt).toBeUndefined();
      expect(await spaceCounter(spaceId)).toBe(1);

      await as(other.token).put(path, { addedReactions: ['👍', '👍'] });
      await as(ada.token).put(path, { addedReactions: ['👍', '🎉'] });
      const unchanged = await service.eventCount();
      expect((await as(ada.token).put(path, { addedReactions: ['👍'] })).status).toBe(200);
      expect(await service.eventCount()).toBe(unchanged);
      const reacted = (await as(ada.token).get(path)).body;
      expect(reacted.reactions.map((r: { emoji: string; count: number }) => [r.emoji, r.count])).toEqual([
        ['👍', 2],
        ['🎉', 1],
      ]);
      expect(reacted.reactions[0].users.map((u: { user: { id: string } }) => u.user.id)).toEqual([
        other.userId,
        ada.userId,
      ]);
      const before = await service.eventCount();
      expect((await as(ada.token).put(path, { removedReactions: ['🚀'], addedReactions: ['👍'] })).status).toBe(200);
      expect(await service.eventCount()).toBe(before);
      const removed = await as(ada.token).put(path, { removedReactions: ['🎉'] });
      expect(removed.body.reactions.map((r: { emoji: string }) => r.emoji)).toEqual(['👍']);
      await refused(() => as(ada.token).put(path, { addedReactions: ['smile'] }), 400, /not an emoji/);

      await refused(() => as(ada.token).put(path, { body: { markdown: 'Admin words' } }), 403, /author/);
      const edited = await as(commenter.token).put(path, { body: { markdown: 'Typo in line 2' } });
      expect(edited.body).toMatchObject({ body: { markdown: 'Typo in line 2' }, editedAt: expect.any(String) });
    });

    it('marks the target page outdated once a later revision changes or deletes it', async () => {
      const { spaceId, one, two } = await space();
      const first = await post(spaceId, { body: { markdown: 'About one' }, page: one });
      const second = await post(spaceId, { body: { markdown: 'About two' }, page: two });
      const cr = await as(ada.token).post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Change' });
      await as(ada.token).post(`/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content`, {
        changes: [
          { operation: 'update_page', page: one, title: 'Uno', document: { markdown: 'primero' } },
          { operation: 'delete_page', page: two },
        ],
      });
      expect((await as(ada.token).get(`/v1/spaces/${spaceId}/comments/${first.id}`)).body.target.page.outdated).toBe(
        false,
      );
      await as(ada.token).post(`/v1/spaces/${spaceId}/change-requests/${cr.body.id}/merge`);
      const list = (await as(ada.token).get(`/v1/spaces/${spaceId}/comments?order=asc`)).body.items;
      expect(list.map((c: { id: string }) => c.id)).toEqual([first.id, second.id]);
      expect(list[0].target.page).toMatchObject({ id: one, title: 'Uno', outdated: true });
      expect(list[1].target.page).toMatchObject({ id: two, title: 'Two', outdated: true });
    });

    it('lists with filters: order, status, targetPage, authors (repeated or comma list), limit and pages', async () => {
      const { spaceId, one } = await space();
      const a = await post(spaceId, { body: { markdown: 'a' }, page: one });
      const b = await post(spaceId, { body: { markdown: 'b' } }, commenter.token);
      const c = await post(spaceId, { body: { markdown: 'c' } }, other.token);
      await as(ada.token).put(`/v1/spaces/${spaceId}/comments/${b.id}`, { resolved: true });
      const ids = async (query: string) =>
        (await as(ada.token).get(`/v1/spaces/${spaceId}/comments${query}`)).body.items.map((x: { id: string }) => x.id);
      expect(await ids('')).toEqual([c.id, b.id, a.id]);
      expect(await ids('?order=asc')).toEqual([a.id, b.id, c.id]);
      expect(await ids('?status=open')).toEqual([c.id, a.id]);
      expect(await ids('?status=resolved')).toEqual([b.id]);
      expect(await ids(`?targetPage=${one}`)).toEqual([a.id]);
      expect(await ids(`?authors=${commenter.userId}&authors=${other.userId}`)).toEqual([c.id, b.id]);
      expect(await ids(`?authors=${ada.userId},${other.userId}`)).toEqual([c.id, a.id]);
      const first = await as(ada.token).get(`/v1/spaces/${spaceId}/comments?limit=2`);
      expect(first.body.count).toBe(3);
      const rest = await as(ada.token).get(`/v1/spaces/${spaceId}/comments?limit=2&page=${first.body.next.page}`);
      expect(rest.body.items.map((x: { id: string }) => x.id)).toEqual([a.id]);
      await refused(() => as(ada.token).get(`/v1/spaces/${spaceId}/comments?order=sideways`), 400, /order/);
      await refused(() => as(ada.token).get(`/v1/spaces/${spaceId}/comments?status=closed`), 400, /status/);
      await refused(() => as(ada.token).get(`/v1/spaces/${spaceId}/comments?format=html`), 400, /format/);
    });

    it('replies oldest first, counted on the comment; deleting the comment deletes them', async () => {
      const { spaceId } = await space();
      const comment = await post(spaceId, { body: { markdown: 'Question' } });
      const path = `/v1/spaces/${spaceId}/comments/${comment.id}`;
      service.clock.advance(1000);
      const r1 = await as(commenter.token).post(`${path}/replies`, { body: { markdown: 'First' } });
      expect(r1.status).toBe(200);
      expect(r1.body).toMatchObject({
        object: 'comment-reply',
        body: { markdown: 'First' },
        postedBy: { id: commenter.userId },
      });
      service.clock.advance(1000);
      const r2 = await as(ada.token).post(`${path}/replies`, { body: { markdown: 'Second' } });
      expect((await as(ada.token).get(path)).body.replies).toBe(2);
      const list = (await as(ada.token).get(`${path}/replies`)).body;
      expect(list.items.map((r: { id: string }) => r.id)).toEqual([r1.body.id, r2.body.id]);
      const reacted = await as(ada.token).put(`${path}/replies/${r1.body.id}`, { addedReactions: ['🎉'] });
      expect(reacted.body.reactions).toMatchObject([{ emoji: '🎉', count: 1 }]);
      await refused(() => as(ada.token).put(`${path}/replies/${r1.body.id}`, { resolved: true }), 400, /no status/);
      await refused(() => as(ada.token).put(`${path}/replies/${r1.body.id}`, { body: { markdown: 'x' } }), 403);
      await refused(() => as(other.token).delete(`${path}/replies/${r1.body.id}`), 403);
      await refused(() => as(ada.token).post(`${path}/replies`, { body: {} }), 400);

      expect((await as(ada.token).delete(path)).status).toBe(204);
      expect((await as(ada.token).delete(path)).status).toBe(204);
      expectError(await as(ada.token).get(path), 404);
      expectError(await as(ada.token).get(`${path}/replies/${r1.body.id}`), 404);
      await refused(() => as(ada.token).post(`${path}/replies`, { body: { markdown: 'late' } }), 404);
      expect(await spaceCounter(spaceId)).toBe(0);
    });

    it('lets authors and space admins delete, nobody else; a resolved comment leaves the counter alone', async () => {
      const { spaceId } = await space();
      const byCommenter = await post(spaceId, { body: { markdown: 'Mine' } }, commenter.token);
      const path = `/v1/spaces/${spaceId}/comments/${byCommenter.id}`;
      await refused(() => as(other.token).delete(path), 403, /author or an admin/);
      await refused(() => as(reader.token).delete(path), 403);
      expect((await as(ada.token).delete(path)).status).toBe(204);
      const resolved = await post(spaceId, { body: { markdown: 'Done' } }, other.token);
      await as(other.token).put(`/v1/spaces/${spaceId}/comments/${resolved.id}`, { resolved: true });
      expect(await spaceCounter(spaceId)).toBe(0);
      expect((await as(other.token).delete(`/v1/spaces/${spaceId}/comments/${resolved.id}`)).status).toBe(204);
      expect(await spaceCounter(spaceId)).toBe(0);
    });

    it('role matrix: readers read, commenters post, react and resolve', async () => {
      const { spaceId } = await space();
      const comment = await post(spaceId, { body: { markdown: 'Hello' } });
      const path = `/v1/spaces/${spaceId}/comments/${comment.id}`;
      expect((await as(reader.token).get(path)).status).toBe(200);
      expect((await as(reader.token).get(`${path}/replies`)).status).toBe(200);
      expect((await as(reader.token).get(path)).body.permissions).toEqual({
        view: true,
        edit: false,
        reply: false,
        delete: false,
      });
      await refused(
        () => as(reader.token).post(`/v1/spaces/${spaceId}/comments`, { body: { markdown: 'x' } }),
        403,
        /comment role/,
      );
      await refused(() => as(reader.token).post(`${path}/replies`, { body: { markdown: 'x' } }), 403);
      await refused(() => as(reader.token).put(path, { addedReactions: ['👍'] }), 403);
      await refused(() => as(reader.token).put(path, { resolved: true }), 403);
      expect((await as(commenter.token).put(path, { addedReactions: ['👍'], resolved: true })).status).toBe(200);
    });

    it("hides another organization's spaces and comments (404), and comments of another space", async () => {
      const { spaceId } = await space();
      const elsewhere = await space();
      const comment = await post(spaceId, { body: { markdown: 'Private' } });
      const foreign = await post(elsewhere.spaceId, { body: { markdown: 'Other space' } });
      const path = `/v1/spaces/${spaceId}/comments`;
      await refused(() => as(bob.token).get(path), 404);
      await refused(() => as(bob.token).get(`${path}/${comment.id}`), 404);
      await refused(() => as(bob.token).post(path, { body: { markdown: 'x' } }), 404);
      await refused(() => as(bob.token).put(`${path}/${comment.id}`, { resolved: true }), 404);
      await refused(() => as(bob.token).delete(`${path}/${comment.id}`), 404);
      await refused(() => as(ada.token).get(`${path}/${foreign.id}`), 404);
      await refused(() => as(ada.token).post(`${path}/${foreign.id}/replies`, { body: { markdown: 'x' } }), 404);
      await refused(() => as(ada.token).put(`${path}/${foreign.id}`, { resolved: true }), 404);
      await refused(() => as(ada.token).get(`${path}/unknown`), 404, /Comment unknown/);
      // deleting through the wrong space changes nothing
      expect((await as(ada.token).delete(`${path}/${foreign.id}`)).status).toBe(204);
      expect((await as(ada.token).get(`/v1/spaces/${elsewhere.spaceId}/comments/${foreign.id}`)).status).toBe(200);
    });
  });

  describe('change request comments', () => {
    it('comments on a change request by number, about its own pages, counted on it and not on the space', async () => {
      const { spaceId } = await space();
      const cr = await as(ada.token).post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Draft' });
      const written = await as(ada.token).post(`/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content`, {
        changes: [{ operation: 'insert_page', title: 'Fresh', document: { markdown: 'new' } }],
      });
      const fresh =
        written.body.changes?.[0]?.page ??
        (await as(ada.token).get(`/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content/pages`)).body.pages.find(
          (p: { title: string }) => p.title === 'Fresh',
        ).id;
      const base = `/v1/spaces/${spaceId}/change-requests/${cr.body.number}`;
      const comment = await post(spaceId, { body: { markdown: 'Nice page' }, page: fresh }, commenter.token, base);
      expect(comment.target).toMatchObject({ changeRequest: cr.body.id, page: { title: 'Fresh', outdated: false } });
      expect(comment.urls.location).toContain(`/change-requests/${cr.body.id}/comments/${comment.id}`);
      expect((await as(ada.token).get(`/v1/spaces/${spaceId}/change-requests/${cr.body.id}`)).body.comments).toBe(1);
      expect(await spaceCounter(spaceId)).toBe(0);
      expect((await as(ada.token).get(`/v1/spaces/${spaceId}/comments`)).body.items).toEqual([]);
      await refused(() => as(ada.token).get(`/v1/spaces/${spaceId}/comments/${comment.id}`), 404);
      const list = (await as(ada.token).get(`${base}/comments`)).body.items;
      expect(list.map((c: { id: string }) => c.id)).toEqual([comment.id]);

      const reply = await as(ada.token).post(`${base}/comments/${comment.id}/replies?format=document`, {
        body: { markdown: 'Thanks' },
      });
      expect(reply.status).toBe(200);
      expect(reply.body.body.document.object).toBe('document');
      const replyPath = `${base}/comments/${comment.id}/replies/${reply.body.id}`;
      expect((await as(ada.token).get(replyPath)).status).toBe(200);
      expect((await as(ada.token).delete(replyPath)).status).toBe(204);
      expectError(await as(ada.token).get(replyPath), 404);
      expect((await as(ada.token).put(`${base}/comments/${comment.id}`, { resolved: true })).status).toBe(200);
      expect((await as(ada.token).get(`/v1/spaces/${spaceId}/change-requests/${cr.body.id}`)).body.comments).toBe(0);
      await refused(() => as(ada.token).post(`${base}/comments`, { body: { markdown: 'x' }, page: 'nope' }), 400);
      await refused(() => as(ada.token).get(`/v1/spaces/${spaceId}/change-requests/999/comments`), 404);
    });
  });

  it('works through the official client: post, reply, react, resolve, list with filters', async () => {
    const { spaceId, one } = await space();
    const api = new GitBookAPI({ authToken: ada.token, endpoint: service.url });
    const posted = await api.spaces.postCommentInSpace(spaceId, { body: { markdown: 'From the client' }, page: one });
    expect(posted.data.status).toBe('open');
    const reply = await api.spaces.postCommentReplyInSpace(spaceId, posted.data.id, { body: { markdown: 'Reply' } });
    expect(reply.data.object).toBe('comment-reply');
    const updated = await api.spaces.updateCommentInSpace(spaceId, posted.data.id, {
      addedReactions: ['👍'],
      resolved: true,
    });
    expect(updated.data).toMatchObject({ status: 'resolved', replies: 1, reactions: [{ emoji: '👍', count: 1 }] });
    const listed = await api.spaces.listCommentsInSpace(spaceId, {
      status: 'resolved',
      targetPage: one,
      authors: [ada.userId],
      order: 'asc',
    });
    expect(listed.data.items.map((c) => c.id)).toEqual([posted.data.id]);
    const replies = await api.spaces.listCommentRepliesInSpace(spaceId, posted.data.id);
    expect(replies.data.items.map((r) => r.id)).toEqual([reply.data.id]);
    await api.spaces.deleteCommentInSpace(spaceId, posted.data.id);
    const after = await api.spaces.listCommentsInSpace(spaceId);
    expect(after.data.items).toEqual([]);
  });
});
