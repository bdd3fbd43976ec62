import { markdownToDocument } from '@app/documents';
import { type PublicUrls } from '@app/kernel';
import { atLeast } from '@app/kernel/domain';
import { type PageNode } from '@app/content';
import { type UserBody } from '@app/identity';
import { type Thread, pageFingerprint } from './comment-threads';
import { userOf } from './presenters';
import { type CommentDoc, type CommentReplyDoc, type ReactionDoc } from './read-models';

export type BodyFormat = 'markdown' | 'document';
export const BODY_FORMATS: BodyFormat[] = ['markdown', 'document'];

export interface CommentContext {
  thread: Thread;
  userId: string;
  users: Map<string, UserBody>;
  urls: PublicUrls;
  format?: BodyFormat;
  /** The pages of the thread's current content, to tell which targets are outdated. */
  pages: Map<string, PageNode>;
}

/** The body in the form asked for: stored once as markdown, served as markdown unless a document is asked. */
const bodyOf = (markdown: string, format: BodyFormat | undefined) =>
  format === 'document' ? { document: markdownToDocument(markdown) } : { markdown };

function reactionsOf(reactions: readonly ReactionDoc[], users: Map<string, UserBody>, urls: PublicUrls) {
  return reactions.map((reaction) => ({
    emoji: reaction.emoji,
    count: reaction.users.length,
    users: reaction.users.map((one) => ({ user: userOf(users, urls, one.userId), reactedAt: one.reactedAt })),
  }));
}

/** What the caller may do with a comment or a reply they did or did not write. */
function permissionsOf(context: Pick<CommentContext, 'thread' | 'userId'>, author: string) {
  const { role } = context.thread;
  const mayComment = atLeast(role, 'comment');
  return {
    view: atLeast(role, 'read'),
    edit: mayComment && author === context.userId,
    reply: mayComment,
    delete: (mayComment && author === context.userId) || atLeast(role, 'admin'),
  };
}

const threadPath = (thread: Thread) =>
  `/spaces/${thread.space.id}${thread.changeRequest ? `/change-requests/${thread.changeRequest.id}` : ''}/comments`;

/** The spec's Comment: the target page as it is now (or as it was, once gone), `outdated` when it changed. */
export function presentComment(comment: CommentDoc, context: CommentContext) {
  const { users, urls, thread } = context;
  const { target } = comment;
  const page = target.page;
  const current = page ? context.pages.get(page.id) : undefined;
  return {
    object: 'comment' as const,
    id: comment.id,
    ...(comment.status === 'resolved' && comment.resolvedAt && comment.resolvedBy
      ? {
          status: 'resolved' as const,
          resolvedAt: comment.resolvedAt,
          resolvedBy: userOf(users, urls, comment.resolvedBy),
        }
      : { status: 'open' as const }),
    body: bodyOf(comment.body, context.format),
    postedBy: userOf(users, urls, comment.postedBy),
    postedAt: comment.postedAt,
    ...(comment.editedAt ? { editedAt: comment.editedAt } : {}),
    reactions: reactionsOf(comment.reactions, users, urls),
    replies: comment.replies,
    target: {
      space: comment.spaceId,
      revision: target.revision,
      ...(comment.changeRequestId ? { changeRequest: comment.changeRequestId } : {}),
      ...(page
        ? {
            page: {
              id: page.id,
              title: current?.title ?? page.title,
              path: current?.path ?? page.path,
              ...((current ? current.emoji : page.emoji) ? { emoji: current ? current.emoji : page.emoji } : {}),
              outdated: !current || pageFingerprint(current) !== page.fingerprint,
            },
          }
        : {}),
      ...(target.node !== undefined ? { node: { id: target.node } } : {}),
    },
    urls: { location: `${urls.api}${threadPath(thread)}/${comment.id}` },
    permissions: permissionsOf(context, comment.postedBy),
  };
}

export function presentReply(reply: CommentReplyDoc, context: Omit<CommentContext, 'pages'>) {
  const { users, urls } = context;
  return {
    object: 'comment-reply' as const,
    id: reply.id,
    body: bodyOf(reply.body, context.format),
    postedBy: userOf(users, urls, reply.postedBy),
    postedAt: reply.postedAt,
    ...(reply.editedAt ? { editedAt: reply.editedAt } : {}),
    reactions: reactionsOf(reply.reactions, users, urls),
    urls: { location: `${urls.api}${threadPath(context.thread)}/${reply.commentId}/replies/${reply.id}` },
    permissions: permissionsOf(context, reply.postedBy),
  };
}

export type CommentBody = ReturnType<typeof presentComment>;
export type CommentReplyBody = ReturnType<typeof presentReply>;

/** The users a comment or a reply shows. */
export const commentUsers = (doc: CommentDoc | CommentReplyDoc) => [
  doc.postedBy,
  ...(typeof doc.resolvedBy === 'string' ? [doc.resolvedBy] : []),
  ...doc.reactions.flatMap((reaction) => reaction.users.map((user) => user.userId)),
];
