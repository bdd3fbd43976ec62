import { at, given } from '@app/kernel/testing';
import { RESTORE_WINDOW_MS, purgeTime, withinRestoreWindow } from './levels';
import { type SpaceCommand, type SpaceEvent, spaceDecider } from './space.decider';

const DAY = 24 * 60 * 60 * 1000;
const t0 = '2026-02-01T10:00:00.000Z';
const deletedAt = '2026-02-03T12:00:00.000Z';
const plus = (iso: string, ms: number) => new Date(new Date(iso).getTime() + ms).toISOString();

const command = <C extends SpaceCommand>(type: C['type'], data: C['data'], now = t0, actor?: string) =>
  ({ type, data, metadata: actor === undefined ? at(now) : { now, actor } }) as C;

const created: SpaceEvent = {
  type: 'SpaceCreated',
  data: {
    spaceId: 's1',
    organizationId: 'o1',
    title: 'Handbook',
    emoji: '',
    revisionId: 'r1',
    defaultLevel: 'inherit',
    editMode: 'live',
    createdBy: 'user-1',
    createdAt: t0,
    parent: 'c1',
    sortKey: 1,
  },
};
const deleted: SpaceEvent = {
  type: 'SpaceDeleted',
  data: { spaceId: 's1', organizationId: 'o1', deletedAt, purgeAt: plus(deletedAt, 7 * DAY) },
};
const restored = (now: string, parent: string | null = 'c1'): SpaceEvent => ({
  type: 'SpaceRestored',
  data: { spaceId: 's1', parent, restoredAt: now },
});
const purged = (now: string): SpaceEvent => ({
  type: 'SpacePurged',
  data: { spaceId: 's1', organizationId: 'o1', purgedAt: now },
});
const locked: SpaceEvent = {
  type: 'SpaceUpdated',
  data: { spaceId: 's1', changes: { editMode: 'locked' }, updatedAt: t0 },
};

describe('restore window', () => {
  it('is seven days', () => {
    expect(RESTORE_WINDOW_MS).toBe(7 * DAY);
    expect(purgeTime(deletedAt)).toBe('2026-02-10T12:00:00.000Z');
    expect(withinRestoreWindow(deletedAt, plus(deletedAt, 7 * DAY - 1))).toBe(true);
    expect(withinRestoreWindow(deletedAt, plus(deletedAt, 7 * DAY))).toBe(false);
  });
});

describe('space decider', () => {
  describe('CreateSpace', () => {
    it('creates a live space with no emoji, inheriting its default level', () => {
      given(spaceDecider)
        .when(
          command('CreateSpace', {
            spaceId: 's1',
            organizationId: 'o1',
            title: 'Handbook',
            revisionId: 'r1',
            parent: 'c1',
            sortKey: 1,
          }),
        )
        .then([created]);
    });

    it('keeps an emoji and the space it was duplicated from; no createdBy without an actor', () => {
      given(spaceDecider)
        .when(
          command(
            'CreateSpace',
            {
              spaceId: 's2',
              organizationId: 'o1',
              title: 'Handbook (copy)',
              emoji: '1f4d8',
              revisionId: 'r2',
              duplicatedFrom: 's1',
              parent: null,
              sortKey: 2,
            },
            t0,
            '',
          ),
        )
        .then([
          {
            type: 'SpaceCreated',
            data: {
              spaceId: 's2',
              organizationId: 'o1',
              title: 'Handbook (copy)',
              emoji: '1f4d8',
              revisionId: 'r2',
              duplicatedFrom: 's1',
              defaultLevel: 'inherit',
              editMode: 'live',
              createdAt: t0,
              parent: null,
              sortKey: 2,
            },
          },
        ]);
    });

    it('refuses a blank or over-long title and an over-long emoji', () => {
      const base = { spaceId: 's1', organizationId: 'o1', revisionId: 'r1', parent: null, sortKey: 1 };
      given(spaceDecider)
        .when(command('CreateSpace', { ...base, title: ' ' }))
        .thenThrows('validation', /title/);
      given(spaceDecider)
        .when(command('CreateSpace', { ...base, title: 'x'.repeat(51) }))
        .thenThrows('validation', /title/);
      given(spaceDecider)
        .when(command('CreateSpace', { ...base, title: 'Handbook', emoji: 'e'.repeat(51) }))
        .thenThrows('validation', /emoji/);
    });

    it('refuses to create a space twice', () => {
      given(spaceDecider, [created])
        .when(
          command('CreateSpace', {
            spaceId: 's1',
            organizationId: 'o1',
            title: 'Handbook',
            revisionId: 'r1',
            parent: 'c1',
            sortKey: 1,
          }),
        )
        .thenThrows('illegal-state');
    });
  });

  describe('UpdateSpace', () => {
    it('records only the fields that are set', () => {
      given(spaceDecider, [created])
        .when(
          command('UpdateSpace', {
            spaceId: 's1',
            changes: { title: 'Manual', emoji: undefined, editMode: 'locked', defaultLevel: null },
          }),
        )
        .then([
          {
            type: 'SpaceUpdated',
            data: {
              spaceId: 's1',
              changes: { title: 'Manual', editMode: 'locked', defaultLevel: null },
              updatedAt: t0,
            },
          },
        ]);
    });

    it('changes nothing when no field is set', () => {
      given(spaceDecider, [created])
        .when(command('UpdateSpace', { spaceId: 's1', changes: {} }))
        .thenNothing();
      given(spaceDecider, [created])
        .when(command('UpdateSpace', { spaceId: 's1', changes: { title: undefined, emoji: undefined } }))
        .thenNothing();
    });

    it('refuses invalid values', () => {
      given(spaceDecider, [created])
        .when(command('UpdateSpace', { spaceId: 's1', changes: { title: '' } }))
        .thenThrows('validation', /title/);
      given(spaceDecider, [created])
        .when(command('UpdateSpace', { spaceId: 's1', changes: { emoji: 'e'.repeat(51) } }))
        .thenThrows('validation', /emoji/);
    });

    it('does not find a missing or deleted space', () => {
      const update = command('UpdateSpace', { spaceId: 's1', changes: { title: 'Manual' } });
      given(spaceDecider).when(update).thenThrows('not-found');
      given(spaceDecider, [created, deleted]).when(update).thenThrows('not-found');
    });

    it('locks and unlocks the space', () => {
      given(spaceDecider, [created, locked]).thenState({
        status: 'active',
        spaceId: 's1',
        organizationId: 'o1',
        parent: 'c1',
        sortKey: 1,
        revisionId: 'r1',
        locked: true,
      });
      const unlocked: SpaceEvent = {
        type: 'SpaceUpdated',
        data: { spaceId: 's1', changes: { editMode: 'live' }, updatedAt: t0 },
      };
      given(spaceDecider, [created, locked, unlocked]).thenState({
        status: 'active',
        spaceId: 's1',
        organizationId: 'o1',
        parent: 'c1',
        sortKey: 1,
        revisionId: 'r1',
        locked: false,
      });
    });
  });

  describe('ChangeSpaceRevision', () => {
    const changed: SpaceEvent = {
      type: 'SpaceRevisionChanged',
      data: { spaceId: 's1', revisionId: 'r2', previousRevisionId: 'r1', changedAt: t0 },
    };

    it('makes another revision current, remembering the previous one', () => {
      given(spaceDecider, [created])
        .when(command('ChangeSpaceRevision', { spaceId: 's1', revisionId: 'r2' }))
        .then([changed]);
      given(spaceDecider, [created, changed])
        .when(command('ChangeSpaceRevision', { spaceId: 's1', revisionId: 'r3' }))
        .then([
          {
            type: 'SpaceRevisionChanged',
            data: { spaceId: 's1', revisionId: 'r3', previousRevisionId: 'r2', changedAt: t0 },
          },
        ]);
    });

    it('changes nothing when the revision is already current', () => {
      given(spaceDecider, [created])
        .when(command('ChangeSpaceRevision', { spaceId: 's1', revisionId: 'r1' }))
        .thenNothing();
      given(spaceDecider, [created, changed])
        .when(command('ChangeSpaceRevision', { spaceId: 's1', revisionId: 'r2' }))
        .thenNothing();
    });

    it('refuses to change the content of a locked space', () => {
      given(spaceDecider, [created, locked])
        .when(command('ChangeSpaceRevision', { spaceId: 's1', revisionId: 'r2' }))
        .thenThrows('illegal-state', /locked/);
    });

    it('does not find a missing or deleted space', () => {
      const change = command('ChangeSpaceRevision', { spaceId: 's1', revisionId: 'r2' });
      given(spaceDecider).when(change).thenThrows('not-found');
      given(spaceDecider, [created, deleted]).when(change).thenThrows('not-found');
    });
  });

  describe('MoveSpace', () => {
    it('moves a space, recording where it came from', () => {
      given(spaceDecider, [created])
        .when(command('MoveSpace', { spaceId: 's1', parent: null, sortKey: 4 }))
        .then([{ type: 'SpaceMoved', data: { spaceId: 's1', from: 'c1', parent: null, sortKey: 4, movedAt: t0 } }]);
      given(spaceDecider, [created])
        .when(command('MoveSpace', { spaceId: 's1', parent: 'c1', sortKey: 4 }))
        .then([{ type: 'SpaceMoved', data: { spaceId: 's1', from: 'c1', parent: 'c1', sortKey: 4, movedAt: t0 } }]);
    });

    it('changes nothing when moved to where it already is', () => {
      given(spaceDecider, [created])
        .when(command('MoveSpace', { spaceId: 's1', parent: 'c1', sortKey: 1 }))
        .thenNothing();
    });

    it('does not find a missing or deleted space', () => {
      const move = command('MoveSpace', { spaceId: 's1', parent: null, sortKey: 1 });
      given(spaceDecider).when(move).thenThrows('not-found');
      given(spaceDecider, [created, deleted]).when(move).thenThrows('not-found');
    });
  });

  describe('TransferSpace', () => {
    it('transfers a space to another organization', () => {
      given(spaceDecider, [created])
        .when(command('TransferSpace', { spaceId: 's1', organizationId: 'o2', parent: null, sortKey: 3 }))
        .then([
          {
            type: 'SpaceTransferred',
            data: { spaceId: 's1', from: 'o1', organizationId: 'o2', parent: null, sortKey: 3, transferredAt: t0 },
          },
        ]);
    });

    it('changes nothing when transferred to its own organization and collection', () => {
      given(spaceDecider, [created])
        .when(command('TransferSpace', { spaceId: 's1', organizationId: 'o1', parent: 'c1', sortKey: 9 }))
        .thenNothing();
    });

    it('within its organization, moves the space into another collection', () => {
      given(spaceDecider, [created])
        .when(command('TransferSpace', { spaceId: 's1', organizationId: 'o1', parent: 'c2', sortKey: 3 }))
        .then([
          {
            type: 'SpaceTransferred',
            data: { spaceId: 's1', from: 'o1', organizationId: 'o1', parent: 'c2', sortKey: 3, transferredAt: t0 },
          },
        ]);
    });

    it('does not find a missing or deleted space', () => {
      const transfer = command('TransferSpace', { spaceId: 's1', organizationId: 'o2', parent: null, sortKey: 1 });
      given(spaceDecider).when(transfer).thenThrows('not-found');
      given(spaceDecider, [created, deleted]).when(transfer).thenThrows('not-found');
    });

    it('deletes the space from its new organization', () => {
      const transferred: SpaceEvent = {
        type: 'SpaceTransferred',
        data: { spaceId: 's1', from: 'o1', organizationId: 'o2', parent: null, sortKey: 3, transferredAt: t0 },
      };
      given(spaceDecider, [created, transferred])
        .when(command('DeleteSpace', { spaceId: 's1' }, deletedAt))
        .then([{ ...deleted, data: { ...deleted.data, organizationId: 'o2' } } as SpaceEvent]);
    });
  });

  describe('DeleteSpace', () => {
    it('deletes a space, to be purged seven days later', () => {
      given(spaceDecider, [created])
        .when(command('DeleteSpace', { spaceId: 's1' }, deletedAt))
        .then([
          {
            type: 'SpaceDeleted',
            data: { spaceId: 's1', organizationId: 'o1', deletedAt, purgeAt: '2026-02-10T12:00:00.000Z' },
          },
        ]);
    });

    it('changes nothing when deleted twice', () => {
      given(spaceDecider, [created, deleted])
        .when(command('DeleteSpace', { spaceId: 's1' }, plus(deletedAt, DAY)))
        .thenNothing();
    });

    it('does not find a space that never existed', () => {
      given(spaceDecider)
        .when(command('DeleteSpace', { spaceId: 's1' }))
        .thenThrows('not-found');
    });
  });

  describe('RestoreSpace', () => {
    it('restores a space on the sixth day after its deletion, where asked', () => {
      const day6 = plus(deletedAt, 6 * DAY);
      given(spaceDecider, [created, deleted])
        .when(command('RestoreSpace', { spaceId: 's1', parent: null }, day6))
        .then([restored(day6, null)]);
      given(spaceDecider, [created, deleted, restored(day6, null)]).thenState({
        status: 'active',
        spaceId: 's1',
        organizationId: 'o1',
        parent: null,
        sortKey: 1,
        revisionId: 'r1',
        locked: false,
      });
    });

    it('restores up to the last moment of the window, and not at its end', () => {
      const lastMoment = plus(deletedAt, 7 * DAY - 1);
      given(spaceDecider, [created, deleted])
        .when(command('RestoreSpace', { spaceId: 's1', parent: 'c1' }, lastMoment))
        .then([restored(lastMoment)]);
      given(spaceDecider, [created, deleted])
        .when(command('RestoreSpace', { spaceId: 's1', parent: 'c1' }, plus(deletedAt, 7 * DAY)))
        .thenThrows('illegal-state', /7 days/);
    });

    it('refuses on the eighth day, even though the space was not purged yet', () => {
      given(spaceDecider, [created, deleted])
        .when(command('RestoreSpace', { spaceId: 's1', parent: 'c1' }, plus(deletedAt, 8 * DAY)))
        .thenThrows('illegal-state', /7 days/);
    });

    it('changes nothing for an active space', () => {
      given(spaceDecider, [created])
        .when(command('RestoreSpace', { spaceId: 's1', parent: 'c1' }, deletedAt))
        .thenNothing();
      const day1 = plus(deletedAt, DAY);
      given(spaceDecider, [created, deleted, restored(day1)])
        .when(command('RestoreSpace', { spaceId: 's1', parent: 'c1' }, plus(deletedAt, 2 * DAY)))
        .thenNothing();
    });

    it('does not find a space that never existed', () => {
      given(spaceDecider)
        .when(command('RestoreSpace', { spaceId: 's1', parent: null }))
        .thenThrows('not-found');
    });

    it('keeps the lock of a restored space', () => {
      const day1 = plus(deletedAt, DAY);
      given(spaceDecider, [created, locked, deleted, restored(day1)])
        .when(command('ChangeSpaceRevision', { spaceId: 's1', revisionId: 'r2' }, day1))
        .thenThrows('illegal-state', /locked/);
    });
  });

  describe('PurgeSpace', () => {
    const purge = (now: string) => command('PurgeSpace', { spaceId: 's1' }, now, '');

    it('changes nothing before the seven days are over', () => {
      given(spaceDecider, [created, deleted])
        .when(purge(plus(deletedAt, 6 * DAY)))
        .thenNothing();
      given(spaceDecider, [created, deleted])
        .when(purge(plus(deletedAt, 7 * DAY - 1)))
        .thenNothing();
    });

    it('purges a space still deleted when its window has closed', () => {
      const end = plus(deletedAt, 7 * DAY);
      given(spaceDecider, [created, deleted])
        .when(purge(end))
        .then([purged(end)]);
      const day8 = plus(deletedAt, 8 * DAY);
      given(spaceDecider, [created, deleted])
        .when(purge(day8))
        .then([purged(day8)]);
    });

    it('changes nothing for a restored, active, purged or unknown space', () => {
      const day8 = plus(deletedAt, 8 * DAY);
      given(spaceDecider, [created, deleted, restored(plus(deletedAt, DAY))])
        .when(purge(day8))
        .thenNothing();
      given(spaceDecider, [created]).when(purge(day8)).thenNothing();
      given(spaceDecider, [created, deleted, purged(day8)])
        .when(purge(plus(day8, DAY)))
        .thenNothing();
      given(spaceDecider).when(purge(day8)).thenNothing();
    });

    it('counts the window from the latest deletion', () => {
      const restoredAt = plus(deletedAt, DAY);
      const deletedAgainAt = plus(deletedAt, 5 * DAY);
      const deletedAgain: SpaceEvent = {
        type: 'SpaceDeleted',
        data: {
          spaceId: 's1',
          organizationId: 'o1',
          deletedAt: deletedAgainAt,
          purgeAt: plus(deletedAgainAt, 7 * DAY),
        },
      };
      const history = [created, deleted, restored(restoredAt), deletedAgain];
      given(spaceDecider, history)
        .when(purge(plus(deletedAt, 8 * DAY)))
        .thenNothing();
      given(spaceDecider, history)
        .when(command('RestoreSpace', { spaceId: 's1', parent: 'c1' }, plus(deletedAt, 8 * DAY)))
        .then([restored(plus(deletedAt, 8 * DAY))]);
      const end = plus(deletedAgainAt, 7 * DAY);
      given(spaceDecider, history)
        .when(purge(end))
        .then([purged(end)]);
    });

    it('leaves a purged space gone for good: every command is not-found or changes nothing', () => {
      const day8 = plus(deletedAt, 8 * DAY);
      const history = [created, deleted, purged(day8)];
      const day9 = plus(day8, DAY);
      given(spaceDecider, history).thenState({ status: 'purged', spaceId: 's1' });
      given(spaceDecider, history)
        .when(command('UpdateSpace', { spaceId: 's1', changes: { title: 'Back' } }, day9))
        .thenThrows('not-found');
      given(spaceDecider, history)
        .when(command('ChangeSpaceRevision', { spaceId: 's1', revisionId: 'r2' }, day9))
        .thenThrows('not-found');
      given(spaceDecider, history)
        .when(command('MoveSpace', { spaceId: 's1', parent: null, sortKey: 1 }, day9))
        .thenThrows('not-found');
      given(spaceDecider, history)
        .when(command('TransferSpace', { spaceId: 's1', organizationId: 'o2', parent: null, sortKey: 1 }, day9))
        .thenThrows('not-found');
      given(spaceDecider, history)
        .when(command('DeleteSpace', { spaceId: 's1' }, day9))
        .thenThrows('not-found');
      given(spaceDecider, history)
        .when(command('RestoreSpace', { spaceId: 's1', parent: null }, day9))
        .thenThrows('not-found');
      given(spaceDecider, history).when(purge(day9)).thenNothing();
      // a space id is never reused: creating it again is refused as its existence was
      given(spaceDecider, history)
        .when(
          command(
            'CreateSpace',
            { spaceId: 's1', organizationId: 'o1', title: 'Again', revisionId: 'r9', parent: null, sortKey: 1 },
            day9,
          ),
        )
        .thenThrows('illegal-state');
    });
  });
});
