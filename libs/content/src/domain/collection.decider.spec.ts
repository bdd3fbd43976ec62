import { at, given } from '@app/kernel/testing';
import { type CollectionCommand, type CollectionEvent, collectionDecider } from './collection.decider';

const t0 = '2026-02-01T10:00:00.000Z';
const t1 = '2026-02-02T10:00:00.000Z';

const command = <C extends CollectionCommand>(type: C['type'], data: C['data'], now = t1, actor?: string) =>
  ({ type, data, metadata: actor === undefined ? at(now) : { now, actor } }) as C;

const created: CollectionEvent = {
  type: 'CollectionCreated',
  data: {
    collectionId: 'c1',
    organizationId: 'o1',
    title: 'Guides',
    defaultLevel: 'inherit',
    createdBy: 'user-1',
    createdAt: t0,
    parent: null,
    sortKey: 1,
  },
};
const deleted: CollectionEvent = {
  type: 'CollectionDeleted',
  data: { collectionId: 'c1', organizationId: 'o1', deletedAt: t1 },
};

describe('collection decider', () => {
  describe('CreateCollection', () => {
    it('creates a collection inheriting its default level, placed where asked, by its creator', () => {
      given(collectionDecider)
        .when(
          command(
            'CreateCollection',
            { collectionId: 'c1', organizationId: 'o1', title: 'Guides', parent: null, sortKey: 1 },
            t0,
          ),
        )
        .then([created]);
    });

    it('keeps a description, and leaves createdBy out when no actor is known', () => {
      given(collectionDecider)
        .when(
          command(
            'CreateCollection',
            {
              collectionId: 'c2',
              organizationId: 'o1',
              title: 'API',
              description: 'Reference',
              parent: 'c1',
              sortKey: 3,
            },
            t0,
            '',
          ),
        )
        .then([
          {
            type: 'CollectionCreated',
            data: {
              collectionId: 'c2',
              organizationId: 'o1',
              title: 'API',
              description: 'Reference',
              defaultLevel: 'inherit',
              createdAt: t0,
              parent: 'c1',
              sortKey: 3,
            },
          },
        ]);
    });

    it('refuses a blank or over-long title and an over-long description', () => {
      const base = { collectionId: 'c1', organizationId: 'o1', parent: null, sortKey: 1 };
      given(collectionDecider)
        .when(command('CreateCollection', { ...base, title: '   ' }))
        .thenThrows('validation', /title/);
      given(collectionDecider)
        .when(command('CreateCollection', { ...base, title: 'x'.repeat(51) }))
        .thenThrows('validation', /title/);
      given(collectionDecider)
        .when(command('CreateCollection', { ...base, title: 'x'.repeat(50) }))
        .then([
          {
            type: 'CollectionCreated',
            data: { ...base, title: 'x'.repeat(50), defaultLevel: 'inherit', createdBy: 'user-1', createdAt: t1 },
          },
        ]);
      given(collectionDecider)
        .when(command('CreateCollection', { ...base, title: 'Guides', description: 'd'.repeat(101) }))
        .thenThrows('validation', /description/);
    });

    it('refuses a collection that would contain itself', () => {
      given(collectionDecider)
        .when(
          command('CreateCollection', {
            collectionId: 'c1',
            organizationId: 'o1',
            title: 'Loop',
            parent: 'c1',
            sortKey: 0,
          }),
        )
        .thenThrows('validation', /parent/);
    });

    it('refuses to create a collection twice, also after it was deleted', () => {
      const again = command('CreateCollection', {
        collectionId: 'c1',
        organizationId: 'o1',
        title: 'Guides',
        parent: null,
        sortKey: 1,
      });
      given(collectionDecider, [created]).when(again).thenThrows('illegal-state');
      given(collectionDecider, [created, deleted]).when(again).thenThrows('illegal-state');
    });
  });

  describe('UpdateCollection', () => {
    it('records only the fields that are set', () => {
      given(collectionDecider, [created])
        .when(
          command('UpdateCollection', {
            collectionId: 'c1',
            changes: { title: 'Handbooks', description: undefined, defaultLevel: 'read' },
          }),
        )
        .then([
          {
            type: 'CollectionUpdated',
            data: { collectionId: 'c1', changes: { title: 'Handbooks', defaultLevel: 'read' }, updatedAt: t1 },
          },
        ]);
      given(collectionDecider, [created])
        .when(command('UpdateCollection', { collectionId: 'c1', changes: { description: '', defaultLevel: null } }))
        .then([
          {
            type: 'CollectionUpdated',
            data: { collectionId: 'c1', changes: { description: '', defaultLevel: null }, updatedAt: t1 },
          },
        ]);
    });

    it('changes nothing when no field is set', () => {
      given(collectionDecider, [created])
        .when(command('UpdateCollection', { collectionId: 'c1', changes: {} }))
        .thenNothing();
      given(collectionDecider, [created])
        .when(command('UpdateCollection', { collectionId: 'c1', changes: { title: undefined } }))
        .thenNothing();
    });

    it('refuses invalid values', () => {
      given(collectionDecider, [created])
        .when(command('UpdateCollection', { collectionId: 'c1', changes: { title: '' } }))
        .thenThrows('validation', /title/);
      given(collectionDecider, [created])
        .when(command('UpdateCollection', { collectionId: 'c1', changes: { description: 'd'.repeat(101) } }))
        .thenThrows('validation', /description/);
    });

    it('does not find a collection that does not exist or was deleted', () => {
      const update = command('UpdateCollection', { collectionId: 'c1', changes: { title: 'Handbooks' } });
      given(collectionDecider).when(update).thenThrows('not-found');
      given(collectionDecider, [created, deleted]).when(update).thenThrows('not-found');
    });
  });

  describe('MoveCollection', () => {
    it('moves a collection, recording where it came from', () => {
      given(collectionDecider, [created])
        .when(command('MoveCollection', { collectionId: 'c1', parent: 'c9', sortKey: 2 }))
        .then([
          {
            type: 'CollectionMoved',
            data: { collectionId: 'c1', from: null, parent: 'c9', sortKey: 2, movedAt: t1 },
          },
        ]);
    });

    it('reorders among the same siblings', () => {
      given(collectionDecider, [created])
        .when(command('MoveCollection', { collectionId: 'c1', parent: null, sortKey: 5 }))
        .then([
          {
            type: 'CollectionMoved',
            data: { collectionId: 'c1', from: null, parent: null, sortKey: 5, movedAt: t1 },
          },
        ]);
    });

    it('changes nothing when moved to where it already is', () => {
      given(collectionDecider, [created])
        .when(command('MoveCollection', { collectionId: 'c1', parent: null, sortKey: 1 }))
        .thenNothing();
      const moved: CollectionEvent = {
        type: 'CollectionMoved',
        data: { collectionId: 'c1', from: null, parent: 'c9', sortKey: 2, movedAt: t1 },
      };
      given(collectionDecider, [created, moved])
        .when(command('MoveCollection', { collectionId: 'c1', parent: 'c9', sortKey: 2 }))
        .thenNothing();
      given(collectionDecider, [created, moved])
        .when(command('MoveCollection', { collectionId: 'c1', parent: null, sortKey: 1 }))
        .then([
          {
            type: 'CollectionMoved',
            data: { collectionId: 'c1', from: 'c9', parent: null, sortKey: 1, movedAt: t1 },
          },
        ]);
    });

    it('refuses to put a collection into itself', () => {
      given(collectionDecider, [created])
        .when(command('MoveCollection', { collectionId: 'c1', parent: 'c1', sortKey: 1 }))
        .thenThrows('validation', /itself/);
    });

    it('does not find a missing or deleted collection', () => {
      const move = command('MoveCollection', { collectionId: 'c1', parent: 'c9', sortKey: 1 });
      given(collectionDecider).when(move).thenThrows('not-found');
      given(collectionDecider, [created, deleted]).when(move).thenThrows('not-found');
    });
  });

  describe('TransferCollection', () => {
    const transferred: CollectionEvent = {
      type: 'CollectionTransferred',
      data: { collectionId: 'c1', from: 'o1', organizationId: 'o2', parent: null, sortKey: 7, transferredAt: t1 },
    };

    it('transfers a collection to another organization', () => {
      given(collectionDecider, [created])
        .when(command('TransferCollection', { collectionId: 'c1', organizationId: 'o2', parent: null, sortKey: 7 }))
        .then([transferred]);
    });

    it('changes nothing when transferred to its own organization', () => {
      given(collectionDecider, [created])
        .when(command('TransferCollection', { collectionId: 'c1', organizationId: 'o1', parent: null, sortKey: 7 }))
        .thenNothing();
      given(collectionDecider, [created, transferred])
        .when(command('TransferCollection', { collectionId: 'c1', organizationId: 'o2', parent: null, sortKey: 7 }))
        .thenNothing();
    });

    it('does not find a missing or deleted collection', () => {
      const transfer = command('TransferCollection', {
        collectionId: 'c1',
        organizationId: 'o2',
        parent: null,
        sortKey: 1,
      });
      given(collectionDecider).when(transfer).thenThrows('not-found');
      given(collectionDecider, [created, deleted]).when(transfer).thenThrows('not-found');
    });

    it('follows the collection to its new organization and place', () => {
      given(collectionDecider, [created, transferred]).thenState({
        status: 'active',
        collectionId: 'c1',
        organizationId: 'o2',
        parent: null,
        sortKey: 7,
      });
      given(collectionDecider, [created, transferred])
        .when(command('DeleteCollection', { collectionId: 'c1' }))
        .then([{ type: 'CollectionDeleted', data: { collectionId: 'c1', organizationId: 'o2', deletedAt: t1 } }]);
    });
  });

  describe('DeleteCollection', () => {
    it('deletes a collection of its organization', () => {
      given(collectionDecider, [created])
        .when(command('DeleteCollection', { collectionId: 'c1' }))
        .then([deleted]);
      given(collectionDecider, [created, deleted]).thenState({
        status: 'deleted',
        collectionId: 'c1',
        organizationId: 'o1',
      });
    });

    it('changes nothing when deleted twice', () => {
      given(collectionDecider, [created, deleted])
        .when(command('DeleteCollection', { collectionId: 'c1' }))
        .thenNothing();
    });

    it('does not find a collection that never existed', () => {
      given(collectionDecider)
        .when(command('DeleteCollection', { collectionId: 'c1' }))
        .thenThrows('not-found');
    });
  });
});
