export * from './types.js';
export { FsStorage, type FsStorageOptions, type SignedGrant, type SignedMethod, type ObjectCreatedEvent } from './fs-storage.js';
