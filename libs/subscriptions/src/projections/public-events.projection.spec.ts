import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EventStore, ProjectionRunner, type ReadStore, type Runtime, START, newEventId } from '@app/kernel';
import { createEventStore } from '@app/event-store';
import { createReadStore } from '@app/read-store';
import { contentPublicEvents } from '@app/content';
import { reviewPublicEvents } from '@app/review';
import { ProjectedPublicEvents } from '../application/projected-public-events';
import { PUBLIC_EVENTS, publicEventsProjection, sortablePosition } from './public-events.projection';

describe('publicevents projection', () => {
  let dir: string;
  let events: EventStore;
  let reads: ReadStore;
  let runner: ProjectionRunner;
  let source: ProjectedPublicEvents;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quire-public-events-'));
    events = await createEventStore({ driver: 'sqlite', file: join(dir, 'events.sqlite') });
    reads = await createReadStore({ driver: 'sqlite', file: join(dir, 'read.sqlite') });
    runner = new ProjectionRunner(events, reads, [publicEventsProjection([contentPublicEvents, reviewPublicEvents])], {
      batchSize: 2, // owners and the events that need them land in different batches too
    });
    source = new ProjectedPublicEvents(reads, { projections: runner } as unknown as Runtime);
  });

  afterEach(async () => {
    await runner.stop();
    await events.close();
    await reads.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const append = (stream: string, type: string, data: Record<string, unknown>, userId = 'u1') =>
    events.append(stream, [{ id: newEventId(), type, data, metadata: { userId } }], 'any');

  const placement = { parent: null, sortKey: 1 };

  it('gives events without an organization the one their space belongs to, also after a transfer', async () => {
    await append('space-s1', 'SpaceCreated', {
      spaceId: 's1',
      organizationId: 'o1',
      title: 'Guide',
      emoji: '',
      revisionId: 'r1',
      defaultLevel: 'inherit',
      editMode: 'live',
      createdAt: 't',
      ...placement,
    });
    await append('space-s1', 'SpaceUpdated', { spaceId: 's1', changes: { title: 'Handbook' }, updatedAt: 't' });
    await append('revision-r2', 'RevisionCreated', { revisionId: 'r2', spaceId: 's1', pages: [], files: [] });
    await append('comment-c1', 'CommentPosted', {
      spaceId: 's1',
      commentId: 'c1',
      organizationId: 'o1',
      body: 'secret words',
      target: { revision: 'r1' },
      postedBy: 'u1',
      postedAt: 't',
    });
    await append('space-s1', 'SpaceTransferred', {
      spaceId: 's1',
      from: 'o1',
      organizationId: 'o2',
      transferredAt: 't',
      ...placement,
    });
    const last = await append('space-s1', 'SpaceUpdated', { spaceId: 's1', changes: { emoji: '📘' }, updatedAt: 't' });
    await runner.start();
    await runner.waitFor(last.position);

    const o1 = await source.read('o1', { after: START, limit: 10 });
    expect(o1.map((one) => one.event.type)).toEqual(['space.created', 'space.updated', 'comment.posted']);
    expect(o1[0].audience).toEqual({ space: 's1' });
    expect(o1[1].event).toMatchObject({
      organization: 'o1',
      actor: { id: 'u1' },
      subject: { object: 'space', id: 's1' },
      data: { changes: { title: 'Handbook' } },
    });
    expect(JSON.stringify(o1)).not.toContain('secret words');
    const o2 = await source.read('o2', { after: START, limit: 10 });
    expect(o2.map((one) => one.event.type)).toEqual(['space.transferred', 'space.updated']);
    expect(o2[1].event.position).toBe(last.position.toString());
    expect(source.position()).toBe(last.position);
  });

  it('pages by position and filters by type', async () => {
    const positions: bigint[] = [];
    for (let i = 0; i < 5; i++) {
      const result = await append(`collection-c${i}`, 'CollectionCreated', {
        collectionId: `c${i}`,
        organizationId: 'o1',
        title: `C${i}`,
        defaultLevel: 'inherit',
        createdAt: 't',
        ...placement,
      });
      positions.push(result.position);
      await append(`collection-c${i}`, 'CollectionDeleted', {
        collectionId: `c${i}`,
        organizationId: 'o1',
        deletedAt: 't',
      });
    }
    await runner.start();
    await runner.catchUp();
    const page = await source.read('o1', { after: positions[1], limit: 3 });
    expect(page.map((one) => one.event.type)).toEqual([
      'collection.deleted',
      'collection.created',
      'collection.deleted',
    ]);
    expect(page.every((one) => BigInt(one.event.position) > positions[1])).toBe(true);
    const created = await source.read('o1', { after: START, limit: 10, types: ['collection.created'] });
    expect(created.map((one) => one.event.subject.id)).toEqual(['c0', 'c1', 'c2', 'c3', 'c4']);
    // positions sort as numbers, not as text
    expect(sortablePosition(9n) < sortablePosition(10n)).toBe(true);
  });

  it('is rebuilt from the store like every projection', async () => {
    await append('space-s1', 'SpaceCreated', {
      spaceId: 's1',
      organizationId: 'o1',
      title: 'Guide',
      emoji: '',
      revisionId: 'r1',
      defaultLevel: 'inherit',
      editMode: 'live',
      createdAt: 't',
      ...placement,
    });
    await append('space-s1', 'SpaceDeleted', { spaceId: 's1', organizationId: 'o1', deletedAt: 't', purgeAt: 't2' });
    await runner.start();
    await runner.catchUp();
    const before = await reads.find(PUBLIC_EVENTS, { limit: 100 });
    await runner.rebuild('publicevents');
    const after = await reads.find(PUBLIC_EVENTS, { limit: 100 });
    expect(after.items).toEqual(before.items);
    expect(after.total).toBe(3); // two events and the owner of the space
  });

  it('wakes a waiter once the projection moves past a position, and lets an aborted wait go', async () => {
    await runner.start();
    const controller = new AbortController();
    const aborted = source.waitAfter(START, controller.signal);
    controller.abort();
    await aborted;
    const waiting = source.waitAfter(source.position(), new AbortController().signal);
    await append('collection-c1', 'CollectionCreated', {
      collectionId: 'c1',
      organizationId: 'o1',
      title: 'C',
      defaultLevel: 'inherit',
      createdAt: 't',
      ...placement,
    });
    await waiting;
    expect((await source.read('o1', { after: START, limit: 5 })).length).toBe(1);
  });
});
