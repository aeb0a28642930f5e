import type { Readable } from 'node:stream';

export type ObjectBody = Buffer | string | Readable;

export interface PutOptions {
  contentType?: string;
}

export interface PresignPutOptions {
  /** Seconds the URL stays valid. */
  expiresInSeconds: number;
  /** Largest body the URL accepts, in bytes (enforced at upload by FsStorage, after upload for S3). */
  maxBytes: number;
  contentType?: string;
}

export interface PresignGetOptions {
  expiresInSeconds: number;
  /** File name offered to a browser that downloads the object. */
  downloadName?: string;
}

export interface ObjectInfo {
  size: number;
  contentType?: string;
}

export interface ListedObject {
  key: string;
  size: number;
  /** Unix ms. */
  lastModified: number;
}

/**
 * Where bytes live: uploaded workbooks, generated TXT files, reports, fetched locker documents.
 * Keys are relative paths of safe segments (`jobs/abc/workbook.json`); drivers refuse anything else.
 */
export interface ObjectStorage {
  readonly kind: string;
  put(key: string, body: ObjectBody, options?: PutOptions): Promise<ObjectInfo>;
  /** The object's bytes as a stream; rejects with OBJECT_NOT_FOUND when there is none. */
  get(key: string): Promise<Readable>;
  head(key: string): Promise<ObjectInfo | null>;
  exists(key: string): Promise<boolean>;
  /** Deleting a missing object is not an error. */
  delete(key: string): Promise<void>;
  presignPut(key: string, options: PresignPutOptions): Promise<string>;
  presignGet(key: string, options: PresignGetOptions): Promise<string>;
  /**
   * Every object under a folder (`prefix` names it, e.g. `statements`), in key order. Optional for storages of
   * a host's own: what needs it (e.g. the statement queue's sweep for orphaned files) is skipped without it.
   */
  list?(prefix: string): AsyncIterable<ListedObject>;
}

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** Throws unless `key` is a relative path of safe segments: no `..`, no absolute paths, no odd characters. */
export function assertSafeKey(key: string): void {
  if (typeof key !== 'string' || key.length === 0 || key.length > 512) throw new StorageKeyError(key);
  for (const segment of key.split('/')) {
    if (!SEGMENT.test(segment)) throw new StorageKeyError(key);
  }
}

export class StorageKeyError extends Error {
  override readonly name = 'StorageKeyError';
  constructor(key: unknown) {
    super(`Unsafe storage key: ${JSON.stringify(String(key).slice(0, 80))}`);
  }
}

const CONTENT_TYPES: Record<string, string> = {
  json: 'application/json',
  txt: 'text/plain; charset=us-ascii',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
  xml: 'application/xml',
  zip: 'application/zip',
  csv: 'text/csv',
};

export function contentTypeForKey(key: string): string {
  const extension = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  return CONTENT_TYPES[extension] ?? 'application/octet-stream';
}
