export * from './types.js';
export { FsStorage, type FsStorageOptions, type SignedGrant, type SignedMethod, type ObjectCreatedEvent, type UploadGuard, type UploadPolicy } from './fs-storage.js';
