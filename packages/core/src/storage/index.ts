export * from './types.js';
export { FsStorage, type FsStorageOptions, type SignedGrant, type SignedMethod, type ObjectCreatedEvent } from './fs-storage.js';
export { S3Storage, type S3StorageOptions } from './s3-storage.js';
