import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  EVENT_STORE,
  type EventStore,
  Forbidden,
  NotFound,
  READ_STORE,
  type ReadStore,
  ValidationFailed,
} from '@app/kernel';
import { type Role, type RoleOrGuest, atLeast } from '@app/kernel/domain';
import { type PageNode, REVISIONS, type RevisionDoc, type SpaceDoc, allPages, loadRevision } from '@app/content';
import { type CommentTarget } from '../domain';
import {
  COMMENTS,
  COMMENT_REPLIES,
  type ChangeRequestDoc,
  type CommentDoc,
  type CommentReplyDoc,
  threadOf,
} from './read-models';
import { ReviewAccess } from './review-access';

/** Where comments are posted: a space, or one of its change requests. */
export interface Thread {
  space: SpaceDoc;
  role: RoleOrGuest;
  changeRequest?: ChangeRequestDoc;
  /** The indexed thread key of its comments. */
  key: string;
  /** The content the comments of this thread are about: the space's revision or the change request's. */
  revisionId: string;
}

/** A digest of what a reader sees of a page, to tell whether it changed since a comment was posted about it. */
export const pageFingerprint = (page: Pick<PageNode, 'title' | 'markdown'> & { description?: string }) =>
  createHash('sha256')
    .update(`${page.title}\u0000${page.description ?? ''}\u0000${page.markdown}`)
    .digest('base64url')
    .slice(0, 22);

/**
 * Finding threads, comments and replies for the caller: a space the caller cannot read, a change request of
 * another space, or a comment of another thread is not found, exactly like one that does not exist.
 */
@Injectable()
export class CommentThreads {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly access: ReviewAccess,
  ) {}

  /** The thread, the caller needing `required` on the space (read to see it at all). */
  async thread(
    spaceId: string,
    changeRequestId: string | undefined,
    userId: string,
    required: Role,
    action: string,
  ): Promise<Thread> {
    if (changeRequestId === undefined) {
      const { space, role } = await this.access.requireSpace(spaceId, userId, required, action);
      return { space, role, key: threadOf(spaceId), revisionId: space.revision };
    }
    const { space, role, request } = await this.access.requireChangeRequest(
      spaceId,
      changeRequestId,
      userId,
      required,
      action,
    );
    return {
      space,
      role,
      changeRequest: request,
      key: threadOf(spaceId, request.id),
      revisionId: request.revision,
    };
  }

  async comment(thread: Thread, commentId: string): Promise<CommentDoc> {
    const comment = await this.store.get<CommentDoc>(COMMENTS, commentId);
    if (!comment || comment.thread !== thread.key) throw new NotFound(`Comment ${commentId} not found`);
    return comment;
  }

  async reply(comment: CommentDoc, replyId: string): Promise<CommentReplyDoc> {
    const reply = await this.store.get<CommentReplyDoc>(COMMENT_REPLIES, replyId);
    if (!reply || reply.commentId !== comment.id) throw new NotFound(`Reply ${replyId} not found`);
    return reply;
  }

  /** The pages of the thread's current content, by id. */
  async currentPages(thread: Thread): Promise<Map<string, PageNode>> {
    const stored = await this.store.get<RevisionDoc>(REVISIONS, thread.revisionId);
    const pages = stored ? stored.pages : (await loadRevision(this.events, thread.revisionId, thread.space.id)).pages;
    return new Map([...allPages(pages)].map((page) => [page.id, page]));
  }

  /** What a new comment is about: `page` must be in the thread's current content; `node` only with a page. */
  async target(thread: Thread, page: string | undefined, node: string | undefined): Promise<CommentTarget> {
    if (node !== undefined && page === undefined)
      throw new ValidationFailed('node: a node can only be given with its page');
    if (page === undefined) return { revision: thread.revisionId };
    const found = (await this.currentPages(thread)).get(page);
    if (!found) {
      const where = thread.changeRequest ? 'the change request' : 'the space';
      throw new ValidationFailed(`page: page ${page} is not in the current content of ${where}`);
    }
    return {
      revision: thread.revisionId,
      page: {
        id: found.id,
        title: found.title,
        path: found.path,
        ...(found.emoji ? { emoji: found.emoji } : {}),
        fingerprint: pageFingerprint(found),
      },
      ...(node !== undefined ? { node } : {}),
    };
  }
}

/**
 * Whether the caller deletes as a moderator (an admin of the space may delete what anyone wrote); otherwise only
 * their own words, which takes the comment role.
 */
export function deletesAsModerator(thread: Thread, action: string): boolean {
  if (atLeast(thread.role, 'admin')) return true;
  if (!atLeast(thread.role, 'comment')) throw new Forbidden(`You need the comment role on this space to ${action}`);
  return false;
}
