import { mapPublicEvent, recorded } from '@app/kernel/testing';
import { reviewPublicEvents } from './public-events';

describe('review public events', () => {
  const scope = { spaceId: 's1', changeRequestId: 'cr1' };

  it('maps a change request archived to closed, other edits to updated', () => {
    const closed = mapPublicEvent(
      reviewPublicEvents,
      recorded('ChangeRequestEdited', { ...scope, status: 'archived', previousStatus: 'open', editedAt: 't' }),
    );
    expect(closed).toEqual({
      type: 'change_request.closed',
      version: 1,
      organization: { ownerOf: 'space:s1' },
      subject: { object: 'change-request', id: 'cr1' },
      audience: { space: 's1' },
      data: { space: { id: 's1' }, changes: { status: 'archived' }, previousStatus: 'open' },
    });
    const updated = mapPublicEvent(
      reviewPublicEvents,
      recorded('ChangeRequestEdited', { ...scope, subject: 'Fix', previousStatus: 'draft', editedAt: 't' }),
    );
    expect(updated?.type).toBe('change_request.updated');
  });

  it('maps a merge with its conflicts, and keeps the steps of a merge internal', () => {
    const merged = mapPublicEvent(
      reviewPublicEvents,
      recorded('ChangeRequestMerged', {
        ...scope,
        revisionId: 'r9',
        previousStatus: 'open',
        result: 'conflicts',
        conflicts: [{ page: 'p1', path: 'intro' }],
        mergedBy: 'u1',
        mergedAt: 't',
      }),
    );
    expect(merged?.data).toEqual({
      space: { id: 's1' },
      revision: { id: 'r9' },
      result: 'conflicts',
      conflicts: [{ page: { id: 'p1' }, path: 'intro' }],
    });
    expect(
      reviewPublicEvents.map(
        recorded('ChangeRequestMergeStarted', {
          ...scope,
          revisionId: 'r9',
          ours: 'a',
          theirs: 'b',
          base: 'c',
          startedAt: 't',
        }),
      ),
    ).toBeNull();
  });

  it('maps comments without their bodies, and replies with the comment as subject', () => {
    const posted = mapPublicEvent(
      reviewPublicEvents,
      recorded('CommentPosted', {
        spaceId: 's1',
        commentId: 'c1',
        organizationId: 'o1',
        body: 'private thoughts',
        target: { revision: 'r1', page: { id: 'p1', title: 'Intro', path: 'intro', fingerprint: 'f' } },
        postedBy: 'u1',
        postedAt: 't',
      }),
    );
    expect(posted?.data).toEqual({ space: { id: 's1' }, target: { revision: { id: 'r1' }, page: { id: 'p1' } } });
    const reply = mapPublicEvent(
      reviewPublicEvents,
      recorded('CommentReplyPosted', {
        ...scope,
        commentId: 'c1',
        replyId: 'rp1',
        body: 'more thoughts',
        postedBy: 'u1',
        postedAt: 't',
      }),
    );
    expect(reply).toMatchObject({
      type: 'comment.reply_posted',
      subject: { object: 'comment', id: 'c1' },
      data: { space: { id: 's1' }, changeRequest: { id: 'cr1' }, reply: { id: 'rp1' } },
    });
    expect(JSON.stringify([posted, reply])).not.toContain('thoughts');
  });
});
