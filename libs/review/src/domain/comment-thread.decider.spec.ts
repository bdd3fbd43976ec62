import { at, given } from '@app/kernel/testing';
import { type CommentEvent, type CommentPosted, checkEmoji, commentThreadDecider } from './comment-thread.decider';

const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-02T00:00:00.000Z';
const scope = { spaceId: 's1', commentId: 'c1' };

const posted: CommentPosted = {
  type: 'CommentPosted',
  data: { ...scope, organizationId: 'o1', body: 'Hello', target: { revision: 'r1' }, postedBy: 'ada', postedAt: T0 },
};
const reply = (replyId: string, postedBy = 'bob'): CommentEvent => ({
  type: 'CommentReplyPosted',
  data: { ...scope, replyId, body: 'Re', postedBy, postedAt: T0 },
});

describe('comment thread decider', () => {
  it('posts an open comment written by the caller', () => {
    given(commentThreadDecider)
      .when({
        type: 'PostComment',
        data: { ...scope, organizationId: 'o1', body: 'Hello', target: { revision: 'r1' } },
        metadata: at(T0, 'ada'),
      })
      .then([posted]);
  });

  it('refuses a blank or over-long body', () => {
    const post = (body: string) => ({
      type: 'PostComment' as const,
      data: { ...scope, organizationId: 'o1', body, target: { revision: 'r1' } },
      metadata: at(T0, 'ada'),
    });
    given(commentThreadDecider)
      .when(post('  \n '))
      .thenThrows('validation', /must not be empty/);
    given(commentThreadDecider)
      .when(post('x'.repeat(100_001)))
      .thenThrows('validation', /at most 100000/);
    // counted in characters, not UTF-16 units: 100,000 emoji fit
    expect(() => commentThreadDecider.decide(post('😀'.repeat(100_000)), { comment: null })).not.toThrow();
  });

  it('resolves and reopens; resolving a resolved comment changes nothing', () => {
    const update = (resolved: boolean, actor = 'bob') => ({
      type: 'UpdateComment' as const,
      data: { ...scope, resolved },
      metadata: at(T1, actor),
    });
    given(commentThreadDecider, [posted])
      .when(update(true))
      .then([{ type: 'CommentResolved', data: { ...scope, resolvedBy: 'bob', resolvedAt: T1 } }]);
    const resolved: CommentEvent = { type: 'CommentResolved', data: { ...scope, resolvedBy: 'bob', resolvedAt: T1 } };
    given(commentThreadDecider, [posted, resolved]).when(update(true)).thenNothing();
    given(commentThreadDecider, [posted, resolved])
      .when(update(false, 'ada'))
      .then([{ type: 'CommentReopened', data: { ...scope, reopenedBy: 'ada', reopenedAt: T1 } }]);
  });

  it('lets only the author change the words, whoever else asks (an admin too)', () => {
    const edit = (actor: string) => ({
      type: 'UpdateComment' as const,
      data: { ...scope, body: 'Changed' },
      metadata: at(T1, actor),
    });
    given(commentThreadDecider, [posted])
      .when(edit('ada'))
      .then([{ type: 'CommentEdited', data: { ...scope, body: 'Changed', editedAt: T1 } }]);
    given(commentThreadDecider, [posted])
      .when(edit('admin'))
      .thenThrows('forbidden', /author/);
  });

  it('counts a reaction once per user; removing one never added does nothing', () => {
    const react = (added: string[], removed: string[] = [], actor = 'bob') => ({
      type: 'UpdateComment' as const,
      data: { ...scope, addedReactions: added, removedReactions: removed },
      metadata: at(T1, actor),
    });
    const thumbs: CommentEvent = {
      type: 'CommentReactionAdded',
      data: { ...scope, emoji: '👍', userId: 'bob', reactedAt: T1 },
    };
    given(commentThreadDecider, [posted])
      .when(react(['👍', '👍']))
      .then([thumbs]);
    given(commentThreadDecider, [posted, thumbs])
      .when(react(['👍']))
      .thenNothing();
    given(commentThreadDecider, [posted])
      .when(react([], ['🎉']))
      .thenNothing();
    given(commentThreadDecider, [posted, thumbs])
      .when(react([], ['👍']))
      .then([{ type: 'CommentReactionRemoved', data: { ...scope, emoji: '👍', userId: 'bob' } }]);
    given(commentThreadDecider, [posted, thumbs])
      .when(react(['👍'], [], 'eve'))
      .then([{ type: 'CommentReactionAdded', data: { ...scope, emoji: '👍', userId: 'eve', reactedAt: T1 } }]);
    given(commentThreadDecider, [posted])
      .when(react(['smile']))
      .thenThrows('validation', /addedReactions\[0\]/);
  });

  it('tells emoji from other text', () => {
    for (const emoji of ['👍', '🎉', '👍🏽', '🇫🇷', '👨‍👩‍👧', '❤️']) expect(checkEmoji(emoji, 'e')).toBe(emoji);
    for (const text of ['a', ':+1:', '👍👍', '', '1f44d', 42])
      expect(() => checkEmoji(text, 'e')).toThrow(/not an emoji/);
  });

  it('deletes a comment with its replies; deleting again does nothing; only the author or a moderator', () => {
    const remove = (actor: string, mayModerate = false) => ({
      type: 'DeleteComment' as const,
      data: { ...scope, mayModerate },
      metadata: at(T1, actor),
    });
    const deletedReply = (replyId: string, by: string): CommentEvent => ({
      type: 'CommentReplyDeleted',
      data: { ...scope, replyId, deletedBy: by, deletedAt: T1 },
    });
    given(commentThreadDecider, [posted, reply('a'), reply('b'), deletedReply('b', 'bob')])
      .when(remove('ada'))
      .then([
        deletedReply('a', 'ada'),
        { type: 'CommentDeleted', data: { ...scope, wasOpen: true, deletedBy: 'ada', deletedAt: T1 } },
      ]);
    given(commentThreadDecider, [posted])
      .when(remove('bob'))
      .thenThrows('forbidden', /author or an admin/);
    given(commentThreadDecider, [posted])
      .when(remove('boss', true))
      .then([{ type: 'CommentDeleted', data: { ...scope, wasOpen: true, deletedBy: 'boss', deletedAt: T1 } }]);
    const deleted: CommentEvent = {
      type: 'CommentDeleted',
      data: { ...scope, wasOpen: true, deletedBy: 'ada', deletedAt: T1 },
    };
    given(commentThreadDecider, [posted, deleted]).when(remove('ada')).thenNothing();
  });

  it('posts replies only to a comment that is there; a reply of a deleted comment is gone', () => {
    const postReply = {
      type: 'PostReply' as const,
      data: { ...scope, replyId: 'r9', body: 'Yes' },
      metadata: at(T1, 'bob'),
    };
    given(commentThreadDecider, [posted])
      .when(postReply)
      .then([
        { type: 'CommentReplyPosted', data: { ...scope, replyId: 'r9', body: 'Yes', postedBy: 'bob', postedAt: T1 } },
      ]);
    given(commentThreadDecider)
      .when(postReply)
      .thenThrows('not-found', /Comment c1/);
    const deleted: CommentEvent = {
      type: 'CommentDeleted',
      data: { ...scope, wasOpen: true, deletedBy: 'ada', deletedAt: T1 },
    };
    given(commentThreadDecider, [posted, deleted]).when(postReply).thenThrows('not-found');
  });

  it('lets only its author edit a reply, and its author or a moderator delete it', () => {
    const history = [posted, reply('r1', 'bob')];
    given(commentThreadDecider, history)
      .when({ type: 'UpdateReply', data: { ...scope, replyId: 'r1', body: 'No' }, metadata: at(T1, 'ada') })
      .thenThrows('forbidden', /author/);
    given(commentThreadDecider, history)
      .when({ type: 'DeleteReply', data: { ...scope, replyId: 'r1', mayModerate: false }, metadata: at(T1, 'ada') })
      .thenThrows('forbidden');
    given(commentThreadDecider, history)
      .when({ type: 'DeleteReply', data: { ...scope, replyId: 'r1', mayModerate: false }, metadata: at(T1, 'bob') })
      .then([{ type: 'CommentReplyDeleted', data: { ...scope, replyId: 'r1', deletedBy: 'bob', deletedAt: T1 } }]);
    given(commentThreadDecider, history)
      .when({ type: 'UpdateReply', data: { ...scope, replyId: 'zz', body: 'No' }, metadata: at(T1, 'bob') })
      .thenThrows('not-found', /Reply zz/);
  });

  it('answers a comment named through another space or change request as not found, and leaves it alone', () => {
    given(commentThreadDecider, [posted])
      .when({ type: 'UpdateComment', data: { ...scope, spaceId: 's2', resolved: true }, metadata: at(T1, 'ada') })
      .thenThrows('not-found', /Comment c1/);
    given(commentThreadDecider, [posted])
      .when({
        type: 'UpdateComment',
        data: { ...scope, changeRequestId: 'cr1', resolved: true },
        metadata: at(T1, 'ada'),
      })
      .thenThrows('not-found');
    given(commentThreadDecider, [posted])
      .when({ type: 'DeleteComment', data: { ...scope, spaceId: 's2', mayModerate: true }, metadata: at(T1, 'ada') })
      .thenNothing();
  });
});
