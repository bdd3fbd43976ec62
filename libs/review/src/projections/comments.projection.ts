import { type Projection, type RecordedEvent } from '@app/kernel';
import { type CommentEvent } from '../domain';
import {
  COMMENTS,
  COMMENT_REPLIES,
  type CommentDoc,
  type CommentReplyDoc,
  type ReactionDoc,
  threadOf,
} from '../application/read-models';

const asEvent = (recorded: RecordedEvent) => ({ type: recorded.type, data: recorded.data }) as CommentEvent;

/** Adds or removes one user's reaction; emoji stay in the order they were first used. */
function reacted(reactions: readonly ReactionDoc[], emoji: string, userId: string, at: string | null): ReactionDoc[] {
  const next = reactions
    .map((reaction) =>
      reaction.emoji === emoji
        ? { ...reaction, users: reaction.users.filter((user) => user.userId !== userId) }
        : reaction,
    )
    .filter((reaction) => reaction.users.length > 0 || reaction.emoji !== emoji);
  if (at === null) return next;
  const existing = next.find((reaction) => reaction.emoji === emoji);
  if (existing)
    return next.map((reaction) =>
      reaction === existing ? { ...reaction, users: [...reaction.users, { userId, reactedAt: at }] } : reaction,
    );
  return [...next, { emoji, users: [{ userId, reactedAt: at }] }];
}

/** One document per comment, as the API shows it (its replies counted). */
export const commentsProjection: Projection<CommentDoc> = {
  name: 'comments',
  version: 1,
  collection: COMMENTS,
  indexes: [
    {
      fields: [
        ['thread', 1],
        ['postedAt', -1],
      ],
    },
  ],
  handles: [
    'CommentPosted',
    'CommentEdited',
    'CommentResolved',
    'CommentReopened',
    'CommentReactionAdded',
    'CommentReactionRemoved',
    'CommentDeleted',
    'CommentReplyPosted',
    'CommentReplyDeleted',
  ],
  idOf: (event) => String(event.data.commentId),
  evolve(doc, recorded) {
    const event = asEvent(recorded);
    if (event.type === 'CommentPosted') {
      const data = event.data;
      return {
        id: data.commentId,
        thread: threadOf(data.spaceId, data.changeRequestId),
        spaceId: data.spaceId,
        ...(data.changeRequestId ? { changeRequestId: data.changeRequestId } : {}),
        organizationId: data.organizationId,
        status: 'open',
        body: data.body,
        target: data.target,
        ...(data.target.page ? { targetPage: data.target.page.id } : {}),
        postedBy: data.postedBy,
        postedAt: data.postedAt,
        reactions: [],
        replies: 0,
      };
    }
    if (!doc) return null;
    switch (event.type) {
      case 'CommentEdited':
        return { ...doc, body: event.data.body, editedAt: event.data.editedAt };
      case 'CommentResolved':
        return { ...doc, status: 'resolved', resolvedAt: event.data.resolvedAt, resolvedBy: event.data.resolvedBy };
      case 'CommentReopened': {
        const { resolvedAt: _at, resolvedBy: _by, ...open } = doc;
        return { ...open, status: 'open' };
      }
      case 'CommentReactionAdded':
        return { ...doc, reactions: reacted(doc.reactions, event.data.emoji, event.data.userId, event.data.reactedAt) };
      case 'CommentReactionRemoved':
        return { ...doc, reactions: reacted(doc.reactions, event.data.emoji, event.data.userId, null) };
      case 'CommentDeleted':
        return null;
      case 'CommentReplyPosted':
        return { ...doc, replies: doc.replies + 1 };
      case 'CommentReplyDeleted':
        return { ...doc, replies: Math.max(0, doc.replies - 1) };
      default:
        return doc;
    }
  },
};

/** One document per reply. */
export const commentRepliesProjection: Projection<CommentReplyDoc> = {
  name: 'comment_replies',
  version: 1,
  collection: COMMENT_REPLIES,
  indexes: [
    {
      fields: [
        ['commentId', 1],
        ['postedAt', 1],
      ],
    },
  ],
  handles: [
    'CommentReplyPosted',
    'CommentReplyEdited',
    'CommentReplyReactionAdded',
    'CommentReplyReactionRemoved',
    'CommentReplyDeleted',
  ],
  idOf: (event) => String(event.data.replyId),
  evolve(doc, recorded) {
    const event = asEvent(recorded);
    if (event.type === 'CommentReplyPosted') {
      const data = event.data;
      return {
        id: data.replyId,
        commentId: data.commentId,
        spaceId: data.spaceId,
        ...(data.changeRequestId ? { changeRequestId: data.changeRequestId } : {}),
        body: data.body,
        postedBy: data.postedBy,
        postedAt: data.postedAt,
        reactions: [],
      };
    }
    if (!doc) return null;
    switch (event.type) {
      case 'CommentReplyEdited':
        return { ...doc, body: event.data.body, editedAt: event.data.editedAt };
      case 'CommentReplyReactionAdded':
        return { ...doc, reactions: reacted(doc.reactions, event.data.emoji, event.data.userId, event.data.reactedAt) };
      case 'CommentReplyReactionRemoved':
        return { ...doc, reactions: reacted(doc.reactions, event.data.emoji, event.data.userId, null) };
      case 'CommentReplyDeleted':
        return null;
      default:
        return doc;
    }
  },
};
