export { S3Storage, type S3StorageOptions } from './s3-storage.js';
