import {
  type Command,
  type Decider,
  type DomainEvent,
  Forbidden,
  NotFound,
  ValidationFailed,
  assertNever,
  characterCount,
} from '@app/kernel/domain';

/**
 * A comment and its replies are one aggregate, in one stream: deleting a comment deletes its replies in the same
 * append, and a reply can only be posted to a comment that is still there.
 */
export const commentThreadStream = (commentId: string) => `comment-${commentId}`;

/** The longest body of a comment or a reply, in characters (Unicode code points), as markdown. */
export const COMMENT_BODY_MAX = 100_000;
export const REACTIONS_PER_REQUEST_MAX = 50;

export type CommentStatus = 'open' | 'resolved';

/** What a comment is about, as it was when the comment was posted. */
export type CommentTarget = {
  /** The space revision, or the change request's revision, the comment was posted on. */
  revision: string;
  page?: {
    id: string;
    title: string;
    path: string;
    emoji?: string;
    /** A digest of the page's title and text then, to tell later whether it has changed. */
    fingerprint: string;
  };
  node?: string;
};

/** Where a thread lives: a space, or a change request of the space. */
type ThreadScope = {
  spaceId: string;
  changeRequestId?: string;
};

interface PostFacts {
  postedBy: string;
  deleted: boolean;
  /** Per emoji, the users who reacted. */
  reactions: Readonly<Record<string, readonly string[]>>;
}

export interface CommentThreadState {
  comment:
    | (PostFacts &
        ThreadScope & {
          commentId: string;
          status: CommentStatus;
          replies: Readonly<Record<string, PostFacts>>;
        })
    | null;
}

type Meta = ThreadScope & { commentId: string };

/** `mayModerate`: the caller administers the space, so may delete what others wrote. */
export type PostComment = Command<
  'PostComment',
  Meta & { organizationId: string; body: string; target: CommentTarget }
>;
export type UpdateComment = Command<
  'UpdateComment',
  Meta & { body?: string; resolved?: boolean; addedReactions?: string[]; removedReactions?: string[] }
>;
export type DeleteComment = Command<'DeleteComment', Meta & { mayModerate: boolean }>;
export type PostReply = Command<'PostReply', Meta & { replyId: string; body: string }>;
export type UpdateReply = Command<
  'UpdateReply',
  Meta & { replyId: string; body?: string; addedReactions?: string[]; removedReactions?: string[] }
>;
export type DeleteReply = Command<'DeleteReply', Meta & { replyId: string; mayModerate: boolean }>;
export type CommentCommand = PostComment | UpdateComment | DeleteComment | PostReply | UpdateReply | DeleteReply;

type EventMeta = ThreadScope & { commentId: string };

export type CommentPosted = DomainEvent<
  'CommentPosted',
  EventMeta & { organizationId: string; body: string; target: CommentTarget; postedBy: string; postedAt: string }
>;
export type CommentEdited = DomainEvent<'CommentEdited', EventMeta & { body: string; editedAt: string }>;
export type CommentResolved = DomainEvent<'CommentResolved', EventMeta & { resolvedBy: string; resolvedAt: string }>;
export type CommentReopened = DomainEvent<'CommentReopened', EventMeta & { reopenedBy: string; reopenedAt: string }>;
export type CommentReactionAdded = DomainEvent<
  'CommentReactionAdded',
  EventMeta & { emoji: string; userId: string; reactedAt: string }
>;
export type CommentReactionRemoved = DomainEvent<
  'CommentReactionRemoved',
  EventMeta & { emoji: string; userId: string }
>;
/** `wasOpen`: the comment counted among the open comments until now. */
export type CommentDeleted = DomainEvent<
  'CommentDeleted',
  EventMeta & { wasOpen: boolean; deletedBy: string; deletedAt: string }
>;
export type ReplyPosted = DomainEvent<
  'CommentReplyPosted',
  EventMeta & { replyId: string; body: string; postedBy: string; postedAt: string }
>;
export type ReplyEdited = DomainEvent<
  'CommentReplyEdited',
  EventMeta & { replyId: string; body: string; editedAt: string }
>;
export type ReplyReactionAdded = DomainEvent<
  'CommentReplyReactionAdded',
  EventMeta & { replyId: string; emoji: string; userId: string; reactedAt: string }
>;
export type ReplyReactionRemoved = DomainEvent<
  'CommentReplyReactionRemoved',
  EventMeta & { replyId: string; emoji: string; userId: string }
>;
export type ReplyDeleted = DomainEvent<
  'CommentReplyDeleted',
  EventMeta & { replyId: string; deletedBy: string; deletedAt: string }
>;

export type CommentEvent =
  | CommentPosted
  | CommentEdited
  | CommentResolved
  | CommentReopened
  | CommentReactionAdded
  | CommentReactionRemoved
  | CommentDeleted
  | ReplyPosted
  | ReplyEdited
  | ReplyReactionAdded
  | ReplyReactionRemoved
  | ReplyDeleted;

export const COMMENT_EVENTS: CommentEvent['type'][] = [
  'CommentPosted',
  'CommentEdited',
  'CommentResolved',
  'CommentReopened',
  'CommentReactionAdded',
  'CommentReactionRemoved',
  'CommentDeleted',
  'CommentReplyPosted',
  'CommentReplyEdited',
  'CommentReplyReactionAdded',
  'CommentReplyReactionRemoved',
  'CommentReplyDeleted',
];

// One emoji as Unicode defines them (RGI sequences: skin tones, flags, families), built into the language.
const ONE_EMOJI = new RegExp('^\\p{RGI_Emoji}$', 'v');

/** An emoji reaction, or a ValidationFailed naming the field. */
export function checkEmoji(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.length > 50 || !ONE_EMOJI.test(value)) {
    throw new ValidationFailed(`${field}: ${JSON.stringify(value)?.slice(0, 60) ?? 'this'} is not an emoji`);
  }
  return value;
}

/** A markdown body: not blank, at most COMMENT_BODY_MAX characters. */
export function checkBody(body: string, field = 'body'): string {
  if (body.trim().length === 0) throw new ValidationFailed(`${field} must not be empty`);
  if (characterCount(body) > COMMENT_BODY_MAX) {
    throw new ValidationFailed(`${field} must have at most ${COMMENT_BODY_MAX} characters`);
  }
  return body;
}

function checkReactions(added: string[] | undefined, removed: string[] | undefined) {
  const all = [...(added ?? []), ...(removed ?? [])];
  if (all.length > REACTIONS_PER_REQUEST_MAX) {
    throw new ValidationFailed(`at most ${REACTIONS_PER_REQUEST_MAX} reactions can change at once`);
  }
  (added ?? []).forEach((emoji, index) => checkEmoji(emoji, `addedReactions[${index}]`));
  (removed ?? []).forEach((emoji, index) => checkEmoji(emoji, `removedReactions[${index}]`));
}

/** The reaction events of one user: adding what is there, or removing what is not, changes nothing. */
function reactionChanges(
  post: PostFacts,
  user: string,
  added: string[] | undefined,
  removed: string[] | undefined,
): { add: string[]; remove: string[] } {
  const has = (emoji: string) => post.reactions[emoji]?.includes(user) ?? false;
  const add = [...new Set(added ?? [])].filter((emoji) => !has(emoji));
  const remove = [...new Set(removed ?? [])].filter((emoji) => has(emoji) && !add.includes(emoji));
  return { add, remove };
}

function react(post: PostFacts, emoji: string, user: string, present: boolean): PostFacts {
  const users = (post.reactions[emoji] ?? []).filter((one) => one !== user);
  const next = present ? [...users, user] : users;
  const reactions = { ...post.reactions };
  if (next.length > 0) reactions[emoji] = next;
  else delete reactions[emoji];
  return { ...post, reactions };
}

/** The comment, if it is in the thread the caller named (a space, or one of its change requests). */
function inThread(state: CommentThreadState, where: ThreadScope) {
  const comment = state.comment;
  if (!comment || comment.deleted) return null;
  const same =
    comment.spaceId === where.spaceId && (comment.changeRequestId ?? null) === (where.changeRequestId ?? null);
  return same ? comment : null;
}

function requireComment(state: CommentThreadState, where: Meta) {
  const comment = inThread(state, where);
  if (!comment) throw new NotFound(`Comment ${where.commentId} not found`);
  return comment;
}

function requireReply(state: CommentThreadState, where: Meta, replyId: string) {
  const reply = requireComment(state, where).replies[replyId];
  if (!reply || reply.deleted) throw new NotFound(`Reply ${replyId} not found`);
  return reply;
}

function requireActor(actor: string | undefined): string {
  if (!actor) throw new Forbidden('comments are written by users');
  return actor;
}

const scopeOf = (comment: ThreadScope & { commentId: string }): EventMeta => ({
  spaceId: comment.spaceId,
  ...(comment.changeRequestId ? { changeRequestId: comment.changeRequestId } : {}),
  commentId: comment.commentId,
});

export const commentThreadDecider: Decider<CommentThreadState, CommentCommand, CommentEvent> = {
  initialState: () => ({ comment: null }),

  decide(command, state) {
    const now = command.metadata.now;
    const { commentId } = command.data;
    switch (command.type) {
      case 'PostComment': {
        const author = requireActor(command.metadata.actor);
        if (state.comment) return []; // the same command again: the comment is already there
        const { spaceId, changeRequestId, organizationId, target } = command.data;
        return [
          {
            type: 'CommentPosted',
            data: {
              ...scopeOf({ spaceId, changeRequestId, commentId }),
              organizationId,
              body: checkBody(command.data.body),
              target,
              postedBy: author,
              postedAt: now,
            },
          },
        ];
      }
      case 'UpdateComment': {
        const user = requireActor(command.metadata.actor);
        const comment = requireComment(state, command.data);
        const { body, resolved, addedReactions, removedReactions } = command.data;
        const scope = scopeOf(comment);
        const events: CommentEvent[] = [];
        if (body !== undefined) {
          if (comment.postedBy !== user) throw new Forbidden('Only its author can change the words of a comment');
          events.push({ type: 'CommentEdited', data: { ...scope, body: checkBody(body), editedAt: now } });
        }
        checkReactions(addedReactions, removedReactions);
        if (resolved === true && comment.status === 'open') {
          events.push({ type: 'CommentResolved', data: { ...scope, resolvedBy: user, resolvedAt: now } });
        }
        if (resolved === false && comment.status === 'resolved') {
          events.push({ type: 'CommentReopened', data: { ...scope, reopenedBy: user, reopenedAt: now } });
        }
        const { add, remove } = reactionChanges(comment, user, addedReactions, removedReactions);
        for (const emoji of add) {
          events.push({ type: 'CommentReactionAdded', data: { ...scope, emoji, userId: user, reactedAt: now } });
        }
        for (const emoji of remove) {
          events.push({ type: 'CommentReactionRemoved', data: { ...scope, emoji, userId: user } });
        }
        return events;
      }
      case 'DeleteComment': {
        const user = requireActor(command.metadata.actor);
        const comment = inThread(state, command.data);
        if (!comment) return []; // already gone (or never in this thread): nothing to do
        if (comment.postedBy !== user && !command.data.mayModerate) {
          throw new Forbidden('Only its author or an admin of the space can delete a comment');
        }
        const scope = scopeOf(comment);
        const replies = Object.entries(comment.replies).filter(([, reply]) => !reply.deleted);
        return [
          ...replies.map(([replyId]) => ({
            type: 'CommentReplyDeleted' as const,
            data: { ...scope, replyId, deletedBy: user, deletedAt: now },
          })),
          {
            type: 'CommentDeleted',
            data: { ...scope, wasOpen: comment.status === 'open', deletedBy: user, deletedAt: now },
          },
        ];
      }
      case 'PostReply': {
        const author = requireActor(command.metadata.actor);
        const comment = requireComment(state, command.data);
        const { replyId } = command.data;
        if (comment.replies[replyId]) return [];
        return [
          {
            type: 'CommentReplyPosted',
            data: { ...scopeOf(comment), replyId, body: checkBody(command.data.body), postedBy: author, postedAt: now },
          },
        ];
      }
      case 'UpdateReply': {
        const user = requireActor(command.metadata.actor);
        const comment = requireComment(state, command.data);
        const { replyId, body, addedReactions, removedReactions } = command.data;
        const reply = requireReply(state, command.data, replyId);
        const scope = scopeOf(comment);
        const events: CommentEvent[] = [];
        if (body !== undefined) {
          if (reply.postedBy !== user) throw new Forbidden('Only its author can change the words of a reply');
          events.push({
            type: 'CommentReplyEdited',
            data: { ...scope, replyId, body: checkBody(body), editedAt: now },
          });
        }
        checkReactions(addedReactions, removedReactions);
        const { add, remove } = reactionChanges(reply, user, addedReactions, removedReactions);
        for (const emoji of add) {
          events.push({
            type: 'CommentReplyReactionAdded',
            data: { ...scope, replyId, emoji, userId: user, reactedAt: now },
          });
        }
        for (const emoji of remove) {
          events.push({ type: 'CommentReplyReactionRemoved', data: { ...scope, replyId, emoji, userId: user } });
        }
        return events;
      }
      case 'DeleteReply': {
        const user = requireActor(command.metadata.actor);
        const comment = inThread(state, command.data);
        if (!comment) return [];
        const { replyId } = command.data;
        const reply = comment.replies[replyId];
        if (!reply || reply.deleted) return [];
        if (reply.postedBy !== user && !command.data.mayModerate) {
          throw new Forbidden('Only its author or an admin of the space can delete a reply');
        }
        return [
          { type: 'CommentReplyDeleted', data: { ...scopeOf(comment), replyId, deletedBy: user, deletedAt: now } },
        ];
      }
      default:
        return assertNever(command);
    }
  },

  evolve(state, event) {
    const comment = state.comment;
    switch (event.type) {
      case 'CommentPosted':
        return {
          comment: {
            commentId: event.data.commentId,
            spaceId: event.data.spaceId,
            ...(event.data.changeRequestId ? { changeRequestId: event.data.changeRequestId } : {}),
            postedBy: event.data.postedBy,
            status: 'open',
            deleted: false,
            reactions: {},
            replies: {},
          },
        };
      case 'CommentEdited':
        return state;
      case 'CommentResolved':
        return comment ? { comment: { ...comment, status: 'resolved' } } : state;
      case 'CommentReopened':
        return comment ? { comment: { ...comment, status: 'open' } } : state;
      case 'CommentReactionAdded':
      case 'CommentReactionRemoved': {
        if (!comment) return state;
        const reacted = react(comment, event.data.emoji, event.data.userId, event.type === 'CommentReactionAdded');
        return { comment: { ...comment, reactions: reacted.reactions } };
      }
      case 'CommentDeleted':
        return comment ? { comment: { ...comment, deleted: true } } : state;
      case 'CommentReplyPosted':
        if (!comment) return state;
        return {
          comment: {
            ...comment,
            replies: {
              ...comment.replies,
              [event.data.replyId]: { postedBy: event.data.postedBy, deleted: false, reactions: {} },
            },
          },
        };
      case 'CommentReplyEdited':
        return state;
      case 'CommentReplyReactionAdded':
      case 'CommentReplyReactionRemoved':
      case 'CommentReplyDeleted': {
        const reply = comment?.replies[event.data.replyId];
        if (!comment || !reply) return state;
        const next =
          event.type === 'CommentReplyDeleted'
            ? { ...reply, deleted: true }
            : react(reply, event.data.emoji, event.data.userId, event.type === 'CommentReplyReactionAdded');
        return { comment: { ...comment, replies: { ...comment.replies, [event.data.replyId]: next } } };
      }
      default:
        return assertNever(event);
    }
  },
};
