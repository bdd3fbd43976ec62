export { ContentAccess, type ContentViewer } from '../application/content-access';
export {
  publishRevision,
  recordRevision,
  switchSpaceRevision,
  spaceContentState,
  loadRevision,
  type NewRevision,
} from '../application/publish-revision';
export {
  SPACE_ACTIVITY,
  CHANGE_REQUEST_LOOKUP,
  type ChangeRequestLookup,
  type SpaceActivity,
  type SpaceActivityCounts,
} from '../application/space-activity';
export {
  ReadContentQuery,
  ContentParams,
  PageParams,
  FileListParams,
  type ContentRead,
} from '../application/read-content/read-content.query';
export { blobDownloadUrl } from '../application/read-content/content-presenters';
export { presentSpace } from '../application/presenters';
export { SHARED_SPACES, type SharedSpaces } from '../application/shared-spaces';
export { createSpace, type NewSpace, type CreatedSpace } from '../application/create-space/create-space.command';
export {
  SPACES,
  COLLECTIONS,
  REVISIONS,
  REVISION_READ_MODELS,
  type SpaceDoc,
  type CollectionDoc,
  type RevisionDoc,
} from '../application/read-models';
export {
  type PageInput,
  type PageNode,
  type FileNode,
  type RevisionType,
  type RevisionCreated,
  allPages,
  buildPageTree,
  slugify,
} from '../domain';
export { contentPublicEvents } from './public-events';
