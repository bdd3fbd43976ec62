export { FilesystemBlobStore } from './filesystem-blob-store';
