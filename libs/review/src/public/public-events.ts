/**
 * The review context's public events: change requests and comments. Each is about a space and reaches only
 * those who can read that space now. Bodies of comments and replies are not carried (read them through the API):
 * events stay small, and only say what happened and to what. The steps of a merge
 * (`ChangeRequestMergeStarted`, `ChangeRequestMergeAbandoned`) are internal: only the merge itself is public.
 */
import { js, ownerKey, publicEventMapper, publicKind, userRef } from '@app/kernel';

type Data = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const status = js.enum('draft', 'open', 'archived', 'merged');
const conflicts = js.array(js.object({ page: js.ref, path: js.string }));
const inSpace = { space: js.ref };
const commentScope = { space: js.ref, changeRequest: js.ref };
const reaction = { emoji: js.string, user: js.ref };

function changeRequest(type: string, d: Data, data: Record<string, unknown>) {
  return {
    type,
    organization: { ownerOf: ownerKey('space', d.spaceId) },
    subject: { object: 'change-request', id: d.changeRequestId as string },
    data: { space: { id: d.spaceId }, ...data },
    audience: { space: d.spaceId as string },
  };
}

function comment(type: string, d: Data, data: Record<string, unknown>) {
  return {
    type,
    organization: { ownerOf: ownerKey('space', d.spaceId) },
    subject: { object: 'comment', id: d.commentId as string },
    data: {
      space: { id: d.spaceId },
      ...(d.changeRequestId ? { changeRequest: { id: d.changeRequestId } } : {}),
      ...data,
    },
    audience: { space: d.spaceId as string },
  };
}

const conflictList = (list: { page: string; path: string }[] | undefined) =>
  (list ?? []).map((one) => ({ page: { id: one.page }, path: one.path }));

const commentKind = (type: string, description: string, data: Record<string, ReturnType<typeof js.object>> = {}) =>
  publicKind(type, 'comment', description, js.object({ ...commentScope, ...data }, ['changeRequest']));

export const reviewPublicEvents = publicEventMapper({
  kinds: [
    publicKind(
      'change_request.created',
      'change-request',
      'A change request was opened on a space (as a draft).',
      js.object({ ...inSpace, number: js.integer, subject: js.string, status, revision: js.ref }),
    ),
    publicKind(
      'change_request.updated',
      'change-request',
      "A change request's subject or status changed (to `draft` or `open`); `changes` holds what was set.",
      js.object({
        ...inSpace,
        changes: js.partial({ subject: js.string, status }),
        previousStatus: status,
      }),
    ),
    publicKind(
      'change_request.closed',
      'change-request',
      'A change request was archived (closed without merging); `changes` holds what was set with it.',
      js.object({
        ...inSpace,
        changes: js.partial({ subject: js.string, status }),
        previousStatus: status,
      }),
    ),
    publicKind(
      'change_request.content_updated',
      'change-request',
      "Edits became a change request's content, as a new revision; `pages` lists the page ids touched.",
      js.object({
        ...inSpace,
        revision: js.ref,
        previousRevision: js.ref,
        pages: js.object({
          created: js.array(js.string),
          updated: js.array(js.string),
          deleted: js.array(js.string),
        }),
      }),
    ),
    publicKind(
      'change_request.updated_from_space',
      'change-request',
      "The space's latest content was merged into a change request (`POST …/update`).",
      js.object({
        ...inSpace,
        revision: js.ref,
        previousRevision: js.ref,
        spaceRevision: js.ref,
        result: js.enum('update', 'conflicts'),
        conflicts,
      }),
    ),
    publicKind(
      'change_request.merged',
      'change-request',
      "A change request was merged: the space's content is now `revision`.",
      js.object({ ...inSpace, revision: js.ref, result: js.enum('merge', 'conflicts'), conflicts }),
    ),
    publicKind(
      'change_request.outdated',
      'change-request',
      'Another change request of the space was merged: this one no longer holds the latest content.',
      js.object({ ...inSpace, mergedChangeRequest: js.ref }),
    ),
    commentKind(
      'comment.posted',
      'A comment was posted on a space or a change request (read its body through the API).',
      {
        target: js.object({ revision: js.ref, page: js.ref }, ['page']),
      },
    ),
    commentKind('comment.updated', 'Its author changed the words of a comment.'),
    commentKind('comment.resolved', 'A comment was resolved.'),
    commentKind('comment.reopened', 'A resolved comment was reopened.'),
    commentKind('comment.reaction_added', 'Someone reacted to a comment.', reaction),
    commentKind('comment.reaction_removed', 'Someone took a reaction to a comment back.', reaction),
    commentKind('comment.deleted', 'A comment was deleted, with its replies.'),
    commentKind('comment.reply_posted', 'A reply was posted to a comment.', { reply: js.ref }),
    commentKind('comment.reply_updated', 'Its author changed the words of a reply.', { reply: js.ref }),
    commentKind('comment.reply_deleted', 'A reply was deleted.', { reply: js.ref }),
    commentKind('comment.reply_reaction_added', 'Someone reacted to a reply.', { reply: js.ref, ...reaction }),
    commentKind('comment.reply_reaction_removed', 'Someone took a reaction to a reply back.', {
      reply: js.ref,
      ...reaction,
    }),
  ],
  rules: {
    ChangeRequestCreated: (d) =>
      changeRequest('change_request.created', d, {
        number: d.number,
        subject: d.subject,
        status: d.status,
        revision: { id: d.revisionId },
      }),
    ChangeRequestEdited: (d) =>
      changeRequest(d.status === 'archived' ? 'change_request.closed' : 'change_request.updated', d, {
        changes: {
          ...(d.subject !== undefined ? { subject: d.subject } : {}),
          ...(d.status !== undefined ? { status: d.status } : {}),
        },
        previousStatus: d.previousStatus,
      }),
    ChangeRequestContentChanged: (d) =>
      changeRequest('change_request.content_updated', d, {
        revision: { id: d.revisionId },
        previousRevision: { id: d.previousRevisionId },
        pages: { created: d.pages.created, updated: d.pages.updated, deleted: d.pages.deleted },
      }),
    ChangeRequestUpdated: (d) =>
      changeRequest('change_request.updated_from_space', d, {
        revision: { id: d.revisionId },
        previousRevision: { id: d.previousRevisionId },
        spaceRevision: { id: d.spaceRevisionId },
        result: d.result,
        conflicts: conflictList(d.conflicts),
      }),
    ChangeRequestMerged: (d) =>
      changeRequest('change_request.merged', d, {
        revision: { id: d.revisionId },
        result: d.result,
        conflicts: conflictList(d.conflicts),
      }),
    ChangeRequestOutdated: (d) =>
      changeRequest('change_request.outdated', d, { mergedChangeRequest: { id: d.mergedChangeRequestId } }),
    CommentPosted: (d) =>
      comment('comment.posted', d, {
        target: {
          revision: { id: d.target.revision },
          ...(d.target.page ? { page: { id: d.target.page.id } } : {}),
        },
      }),
    CommentEdited: (d) => comment('comment.updated', d, {}),
    CommentResolved: (d) => comment('comment.resolved', d, {}),
    CommentReopened: (d) => comment('comment.reopened', d, {}),
    CommentReactionAdded: (d) => comment('comment.reaction_added', d, { emoji: d.emoji, user: userRef(d.userId) }),
    CommentReactionRemoved: (d) => comment('comment.reaction_removed', d, { emoji: d.emoji, user: userRef(d.userId) }),
    CommentDeleted: (d) => comment('comment.deleted', d, {}),
    CommentReplyPosted: (d) => comment('comment.reply_posted', d, { reply: { id: d.replyId } }),
    CommentReplyEdited: (d) => comment('comment.reply_updated', d, { reply: { id: d.replyId } }),
    CommentReplyDeleted: (d) => comment('comment.reply_deleted', d, { reply: { id: d.replyId } }),
    CommentReplyReactionAdded: (d) =>
      comment('comment.reply_reaction_added', d, { reply: { id: d.replyId }, emoji: d.emoji, user: userRef(d.userId) }),
    CommentReplyReactionRemoved: (d) =>
      comment('comment.reply_reaction_removed', d, {
        reply: { id: d.replyId },
        emoji: d.emoji,
        user: userRef(d.userId),
      }),
  },
});
