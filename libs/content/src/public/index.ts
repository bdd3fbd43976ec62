export { ContentAccess } from '../application/content-access';
export { publishRevision } from '../application/publish-revision';
export {
  SPACES,
  COLLECTIONS,
  REVISIONS,
  REVISION_READ_MODELS,
  type SpaceDoc,
  type CollectionDoc,
  type RevisionDoc,
} from '../application/read-models';
export { type PageInput, type FileNode } from '../domain';
