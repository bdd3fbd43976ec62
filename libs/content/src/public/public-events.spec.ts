import { mapPublicEvent, recorded } from '@app/kernel/testing';
import { contentPublicEvents } from './public-events';

describe('content public events', () => {
  const placement = { parent: 'col1', sortKey: 3 };

  it('maps a space created with its organization, and its later updates to the owner of the space', () => {
    const created = recorded('SpaceCreated', {
      spaceId: 's1',
      organizationId: 'o1',
      title: 'Guide',
      emoji: '',
      revisionId: 'r1',
      defaultLevel: 'inherit',
      editMode: 'live',
      createdBy: 'u1',
      createdAt: 't',
      ...placement,
    });
    expect(mapPublicEvent(contentPublicEvents, created)).toEqual({
      type: 'space.created',
      version: 1,
      organization: 'o1',
      subject: { object: 'space', id: 's1' },
      audience: { space: 's1' },
      data: {
        title: 'Guide',
        emoji: '',
        defaultLevel: 'inherit',
        editMode: 'live',
        revision: { id: 'r1' },
        parent: { id: 'col1' },
        sortKey: 3,
      },
    });
    expect(contentPublicEvents.owners?.(created)).toEqual([{ key: 'space:s1', organization: 'o1' }]);
    const updated = mapPublicEvent(
      contentPublicEvents,
      recorded('SpaceUpdated', { spaceId: 's1', changes: { title: 'Handbook' }, updatedAt: 't' }),
    );
    expect(updated).toMatchObject({ organization: { ownerOf: 'space:s1' }, data: { changes: { title: 'Handbook' } } });
  });

  it('maps sharing to the shared object, for those who can read it', () => {
    const draft = mapPublicEvent(
      contentPublicEvents,
      recorded('AccessGranted', {
        organizationId: 'o1',
        target: { kind: 'collection', id: 'col1' },
        grantee: { kind: 'team', id: 't1' },
        role: 'edit',
        grantedAt: 't',
      }),
    );
    expect(draft).toMatchObject({
      type: 'permission.granted',
      subject: { object: 'collection', id: 'col1' },
      audience: { collection: 'col1' },
      data: { target: { object: 'collection', id: 'col1' }, grantee: { kind: 'team', id: 't1' }, role: 'edit' },
    });
  });

  it('keeps revisions (whole page trees) internal; a space moves to a merged revision publicly', () => {
    expect(
      contentPublicEvents.map(recorded('RevisionCreated', { revisionId: 'r2', spaceId: 's1', pages: [] })),
    ).toBeNull();
    expect(
      mapPublicEvent(
        contentPublicEvents,
        recorded('SpaceRevisionChanged', { spaceId: 's1', revisionId: 'r2', previousRevisionId: 'r1', changedAt: 't' }),
      ),
    ).toMatchObject({
      type: 'space.content_updated',
      data: { revision: { id: 'r2' }, previousRevision: { id: 'r1' } },
    });
  });

  it('shows a transfer in the new organization and moves the owner there', () => {
    const event = recorded('SpaceTransferred', {
      spaceId: 's1',
      from: 'o1',
      organizationId: 'o2',
      transferredAt: 't',
      parent: null,
      sortKey: 1,
    });
    expect(mapPublicEvent(contentPublicEvents, event)).toMatchObject({
      organization: 'o2',
      data: { from: { id: 'o1' }, parent: null },
    });
    expect(contentPublicEvents.owners?.(event)).toEqual([{ key: 'space:s1', organization: 'o2' }]);
  });
});
