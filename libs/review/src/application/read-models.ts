import { type ChangeRequestStatus, type ContentConflict } from '../domain';

/** Read-model collections of the review context (written by ../projections). */
export const CHANGE_REQUESTS = 'change_requests';
export const SPACE_ACTIVITY_COUNTS = 'review_space_activity';

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

/** What a change-request answer reads (what its mutating endpoints wait for). */
export const REVIEW_READ_MODELS = ['change_requests', 'review_space_activity'];
