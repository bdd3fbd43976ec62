import { type DefaultLevel, type Role } from '@app/kernel/domain';
import { type EditMode, type FileNode, type PageNode, type RevisionType } from '../domain';

/** Read-model collections of the content context (written by ../projections). */
export const COLLECTIONS = 'collections';
export const SPACES = 'spaces';
export const REVISIONS = 'revisions';

export interface CollectionDoc {
  id: string;
  organizationId: string;
  parent: string | null;
  title: string;
  description?: string;
  defaultLevel: DefaultLevel;
  sortKey: number;
  createdAt: string;
  updatedAt: string;
  /** Revision of the collection's stream (the ETag). */
  version: number;
  [key: string]: unknown;
}

export interface SpaceDoc {
  id: string;
  organizationId: string;
  parent: string | null;
  title: string;
  emoji: string;
  editMode: EditMode;
  defaultLevel: DefaultLevel;
  /** The active revision. */
  revision: string;
  sortKey: number;
  createdAt: string;
  updatedAt: string;
  deleted: boolean;
  deletedAt?: string;
  purgeAt?: string;
  /** Revision of the space's stream (the ETag). */
  version: number;
  [key: string]: unknown;
}

export interface RevisionDoc {
  id: string;
  spaceId: string;
  parents: string[];
  type: RevisionType;
  pages: PageNode[];
  files: FileNode[];
  /** The change request a merge revision comes from. */
  mergedFrom?: string;
  createdAt: string;
  [key: string]: unknown;
}

export const REVISION_LINKS = 'revision_links';

/** The references found in the pages of one revision (a `ContentRef` of libs/documents per link). */
export interface RevisionLinksDoc {
  id: string;
  spaceId: string;
  references: { from: string; ref: { kind: string; [key: string]: string }; broken: boolean }[];
  [key: string]: unknown;
}

/** The projections a collection or space answer reads (what a mutating endpoint waits for). */
export const CONTENT_READ_MODELS = ['collections', 'spaces'];
export const REVISION_READ_MODELS = ['collections', 'spaces', 'revisions', 'revision_links'];

export const GRANTS = 'content_grants';
export const GRANTEE_GRANTS = 'grantee_grants';

/** One grant: a user or team given a role on a space or collection. */
export interface GrantDoc {
  id: string;
  organizationId: string;
  targetKind: 'space' | 'collection';
  targetId: string;
  granteeKind: 'user' | 'team';
  granteeId: string;
  role: Role;
  grantedAt: string;
  [key: string]: unknown;
}

export const grantDocId = (targetId: string, granteeKind: string, granteeId: string) =>
  `${targetId}:${granteeKind}:${granteeId}`;

/**
 * Everything one user or team was given in one organization, in one document: the access policy reads the
 * caller's and their teams' documents by id (one indexed read, however many grants there are).
 */
export interface GranteeGrantsDoc {
  id: string;
  organizationId: string;
  spaces: Record<string, Role>;
  collections: Record<string, Role>;
  [key: string]: unknown;
}

export const granteeGrantsDocId = (organizationId: string, granteeKind: string, granteeId: string) =>
  `${organizationId}:${granteeKind}:${granteeId}`;

/** The projections a grant change must reach before its answer (access is read from them). */
export const GRANT_READ_MODELS = ['content_grants', 'grantee_grants'];
