export { FilesystemBlobStore } from './filesystem-blob-store';
export { GridFsBlobStore, type GridFsBlobStoreOptions } from './gridfs-blob-store';
export { BlobStoreModule, type BlobStoreOptions, createBlobStore } from './blob-store.module';
