import { at, given } from '@app/kernel/testing';
import {
  type ChangeRequestCommand,
  type ChangeRequestEvent,
  changeRequestsDecider,
  findChangeRequest,
} from './change-requests.decider';
import { fold } from '@app/kernel/domain';

const t0 = '2026-03-01T10:00:00.000Z';
const command = (type: ChangeRequestCommand['type'], data: Record<string, unknown>) =>
  ({ type, data: { spaceId: 's1', ...data }, metadata: at(t0) }) as ChangeRequestCommand;

const created = (id: string, number: number): ChangeRequestEvent => ({
  type: 'ChangeRequestCreated',
  data: {
    spaceId: 's1',
    changeRequestId: id,
    organizationId: 'o1',
    number,
    subject: '',
    status: 'draft',
    revisionId: 'r0',
    createdBy: 'user-1',
    createdAt: t0,
  },
});
const edited = (id: string, status: 'draft' | 'open' | 'archived', previousStatus = 'draft'): ChangeRequestEvent => ({
  type: 'ChangeRequestEdited',
  data: { spaceId: 's1', changeRequestId: id, status, previousStatus: previousStatus as never, editedAt: t0 },
});
const started = (id: string, revisionId = 'm1'): ChangeRequestEvent => ({
  type: 'ChangeRequestMergeStarted',
  data: { spaceId: 's1', changeRequestId: id, revisionId, ours: 'r0', theirs: 'r0', base: 'r0', startedAt: t0 },
});
const merged = (id: string): ChangeRequestEvent => ({
  type: 'ChangeRequestMerged',
  data: {
    spaceId: 's1',
    changeRequestId: id,
    revisionId: 'm1',
    previousStatus: 'draft',
    result: 'merge',
    conflicts: [],
    mergedBy: 'user-1',
    mergedAt: t0,
  },
});

describe('the change requests of a space', () => {
  it('numbers a new change request after the last one, as a draft at the given revision', () => {
    given(changeRequestsDecider, [created('a', 1), created('b', 2)])
      .when(
        command('CreateChangeRequest', { changeRequestId: 'c', organizationId: 'o1', subject: 'x', revisionId: 'r9' }),
      )
      .then([
        {
          type: 'ChangeRequestCreated',
          data: {
            spaceId: 's1',
            changeRequestId: 'c',
            organizationId: 'o1',
            number: 3,
            subject: 'x',
            status: 'draft',
            revisionId: 'r9',
            createdBy: 'user-1',
            createdAt: t0,
          },
        },
      ]);
  });

  it('creates nothing again for a repeated id, and refuses a subject over 100 characters', () => {
    given(changeRequestsDecider, [created('a', 1)])
      .when(
        command('CreateChangeRequest', { changeRequestId: 'a', organizationId: 'o1', subject: '', revisionId: 'r0' }),
      )
      .thenNothing();
    given(changeRequestsDecider)
      .when(
        command('CreateChangeRequest', {
          changeRequestId: 'a',
          organizationId: 'o1',
          subject: 'x'.repeat(101),
          revisionId: 'r0',
        }),
      )
      .thenThrows('validation', /100/);
  });

  it('finds a change request by id or by number', () => {
    const state = fold(changeRequestsDecider, [created('a', 1), created('b', 2)]);
    expect(findChangeRequest(state, 'b').number).toBe(2);
    expect(findChangeRequest(state, '1').changeRequestId).toBe('a');
    expect(() => findChangeRequest(state, '3')).toThrow(/not found/);
    expect(() => findChangeRequest(state, '01')).toThrow(/not found/);
  });

  it('moves between draft, open and archived; a merged one is final', () => {
    given(changeRequestsDecider, [created('a', 1)])
      .when(command('EditChangeRequest', { changeRequestId: 'a', status: 'open' }))
      .then([edited('a', 'open')]);
    given(changeRequestsDecider, [created('a', 1), started('a'), merged('a')])
      .when(command('EditChangeRequest', { changeRequestId: 'a', status: 'open' }))
      .thenThrows('illegal-state', /merged/);
  });

  it('refuses content for an archived or merged change request, and content prepared on an older revision', () => {
    const content = command('RecordChangeRequestContent', {
      changeRequestId: 'a',
      revisionId: 'r1',
      fromRevisionId: 'r0',
      pages: { created: [], updated: [], deleted: [] },
    });
    given(changeRequestsDecider, [created('a', 1), edited('a', 'archived')])
      .when(content)
      .thenThrows('illegal-state', /archived/);
    given(changeRequestsDecider, [created('a', 1), started('a'), merged('a')])
      .when(content)
      .thenThrows('illegal-state', /merged/);
    given(changeRequestsDecider, [created('a', 1)])
      .when({ ...content, data: { ...content.data, fromRevisionId: 'old' } } as ChangeRequestCommand)
      .thenThrows('conflict');
  });

  it('lets one merge run at a time per space', () => {
    const start = (id: string) =>
      command('StartMerge', { changeRequestId: id, revisionId: `m-${id}`, ours: 'r0', theirs: 'r0', base: 'r0' });
    given(changeRequestsDecider, [created('a', 1), created('b', 2), started('a')])
      .when(start('a'))
      .thenThrows('illegal-state', /being merged/);
    given(changeRequestsDecider, [created('a', 1), created('b', 2), started('a')])
      .when(start('b'))
      .thenThrows('illegal-state', /another/);
  });

  it('completing a merge marks the others draft or open outdated, once', () => {
    const complete = command('CompleteMerge', {
      changeRequestId: 'a',
      revisionId: 'm1',
      result: 'merge',
      conflicts: [],
    });
    given(changeRequestsDecider, [
      created('a', 1),
      created('b', 2),
      created('c', 3),
      edited('c', 'archived'),
      started('a'),
    ])
      .when(complete)
      .then([
        merged('a'),
        {
          type: 'ChangeRequestOutdated',
          data: { spaceId: 's1', changeRequestId: 'b', mergedChangeRequestId: 'a', outdatedAt: t0 },
        },
      ]);
    given(changeRequestsDecider, [created('a', 1), started('a'), merged('a')])
      .when(complete)
      .thenNothing();
  });

  it('abandoning frees the space for another merge', () => {
    given(changeRequestsDecider, [created('a', 1), started('a')])
      .when(command('AbandonMerge', { changeRequestId: 'a', revisionId: 'm1', reason: 'locked' }))
      .then([
        {
          type: 'ChangeRequestMergeAbandoned',
          data: { spaceId: 's1', changeRequestId: 'a', revisionId: 'm1', reason: 'locked', abandonedAt: t0 },
        },
      ]);
  });
});
