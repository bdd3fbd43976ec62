import { type ChangeRequestStatus, type CommentStatus, type CommentTarget, type ContentConflict } from '../domain';

/** Read-model collections of the review context (written by ../projections). */
export const CHANGE_REQUESTS = 'change_requests';
export const SPACE_ACTIVITY_COUNTS = 'review_space_activity';
export const COMMENTS = 'comments';
export const COMMENT_REPLIES = 'comment_replies';

/** The thread a comment belongs to: the space itself, or one change request of it (one indexed field). */
export const threadOf = (spaceId: string, changeRequestId?: string) =>
  changeRequestId ? `change-request:${changeRequestId}` : `space:${spaceId}`;

export interface ChangeRequestDoc {
  id: string;
  spaceId: string;
  organizationId: string;
  number: number;
  subject: string;
  status: ChangeRequestStatus;
  revision: string;
  revisionInitial: string;
  revisionMergedAncestor?: string;
  revisionMerged?: string;
  outdated: boolean;
  /** Users who wrote into it: its author and whoever changed or updated its content. */
  contributors: string[];
  createdBy?: string;
  createdAt: string;
  updatedAt: string;
  mergedBy?: string;
  mergedAt?: string;
  /** Conflicts of the last update or merge (beyond the spec, so a caller can review those pages). */
  conflicts?: ContentConflict[];
  comments: number;
  [key: string]: unknown;
}

export interface SpaceActivityDoc {
  id: string;
  changeRequests: number;
  changeRequestsOpen: number;
  changeRequestsDraft: number;
  comments: number;
  [key: string]: unknown;
}

export interface ReactionDoc {
  emoji: string;
  users: { userId: string; reactedAt: string }[];
}

export interface CommentDoc {
  id: string;
  thread: string;
  spaceId: string;
  changeRequestId?: string;
  organizationId: string;
  status: CommentStatus;
  /** Markdown, as written or as converted from a JSON document. */
  body: string;
  target: CommentTarget;
  /** The page the comment is about, for the `targetPage` filter. */
  targetPage?: string;
  postedBy: string;
  postedAt: string;
  editedAt?: string;
  resolvedAt?: string;
  resolvedBy?: string;
  reactions: ReactionDoc[];
  replies: number;
  [key: string]: unknown;
}

export interface CommentReplyDoc {
  id: string;
  commentId: string;
  spaceId: string;
  changeRequestId?: string;
  body: string;
  postedBy: string;
  postedAt: string;
  editedAt?: string;
  reactions: ReactionDoc[];
  [key: string]: unknown;
}

/** What a comment answer reads, with the counters of its space or change request. */
export const COMMENT_READ_MODELS = ['comments', 'comment_replies', 'change_requests', 'review_space_activity'];

/** What a change-request answer reads (what its mutating endpoints wait for). */
export const REVIEW_READ_MODELS = ['change_requests', 'review_space_activity'];
