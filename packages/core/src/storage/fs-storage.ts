import { createReadStream } from 'node:fs';
import { copyFile, link, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { dirname, join, resolve, sep } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { EventEmitter } from 'node:events';
import { serviceError } from '../errors.js';
import { hmacSign, hmacVerify } from '../crypto.js';
import { OptionError, requirePublicUrl, requireText } from '../options.js';
import type { Clock } from '../clock.js';
import { systemClock } from '../clock.js';
import {
  assertSafeKey, contentTypeForKey,
  type ListedObject, type ObjectBody, type ObjectInfo, type ObjectStorage, type PresignGetOptions, type PresignPutOptions,
} from './types.js';

export interface FsStorageOptions {
  /** Folder that holds the objects; created when missing. */
  root: string;
  /** Secret for the HMAC of signed URLs. Every router process serving the URLs needs the same one. */
  signingSecret: string | Buffer;
  /**
   * Absolute URL of the router's storage endpoint (e.g. `http://localhost:3000/api/storage`). May be set later
   * with {@link FsStorage.setPublicBaseUrl}, when the port is only known after listen().
   */
  publicBaseUrl?: string;
  clock?: Clock;
}

export type SignedMethod = 'GET' | 'PUT';

/** What a verified signed URL allows. */
export interface SignedGrant {
  key: string;
  method: SignedMethod;
  maxBytes: number | null;
  downloadName: string | null;
}

/** What an upload guard may ask of the upload it lets through. */
export interface UploadPolicy {
  /**
   * The object is written once and never replaced: the upload is committed only if no object has the key yet,
   * checked atomically when the body is complete (a hard link, which fails when the name exists, instead of a
   * rename, which replaces it). Of concurrent uploads exactly one wins; the others get 409.
   */
  createOnly?: boolean;
}

export type UploadGuard = (key: string) => Promise<void | UploadPolicy>;

export interface ObjectCreatedEvent {
  key: string;
  size: number;
}

const QUERY = { expires: 'X-Expires', max: 'X-Max-Bytes', name: 'X-Download-Name', signature: 'X-Signature' } as const;

/**
 * Objects as files under a root folder. URLs are signed by us with HMAC-SHA256 over method, key, expiry, size
 * cap and download name, and are served by the router's storage endpoints (see `FsStorage.verifySignedUrl`).
 */
export class FsStorage implements ObjectStorage {
  readonly kind = 'fs';
  private readonly root: string;
  private readonly clock: Clock;
  private readonly events = new EventEmitter();
  private readonly uploadGuards: UploadGuard[] = [];
  private baseUrl: string | undefined;

  constructor(private readonly options: FsStorageOptions) {
    // An empty key would sign every URL with an HMAC anyone can compute; a missing one fails every URL later.
    if (!options.signingSecret || options.signingSecret.length === 0) {
      throw new OptionError('signingSecret', 'FsStorage: signingSecret is missing or empty; give the same random secret (32 bytes or more) to every process serving its URLs');
    }
    this.root = resolve(requireText('FsStorage', 'root', options.root, 'the folder that holds the objects'));
    this.clock = options.clock ?? systemClock;
    // Every signed URL a client gets starts with it: a placeholder left in sends them all elsewhere.
    this.baseUrl = options.publicBaseUrl === undefined ? undefined : requirePublicUrl('FsStorage', 'publicBaseUrl', options.publicBaseUrl);
  }

  setPublicBaseUrl(url: string): void {
    this.baseUrl = requirePublicUrl('FsStorage', 'publicBaseUrl', url);
  }

  async put(key: string, body: ObjectBody, _options?: { contentType?: string }): Promise<ObjectInfo> {
    const size = await this.writeAtomically(key, toReadable(body), null);
    return { size, contentType: contentTypeForKey(key) };
  }

  async get(key: string): Promise<Readable> {
    const path = this.pathOf(key);
    if (!(await this.head(key))) throw serviceError('OBJECT_NOT_FOUND');
    return createReadStream(path);
  }

  async head(key: string): Promise<ObjectInfo | null> {
    try {
      const info = await stat(this.pathOf(key));
      return info.isFile() ? { size: info.size, contentType: contentTypeForKey(key) } : null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.head(key)) !== null;
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async *list(prefix: string): AsyncIterable<ListedObject> {
    yield* this.walk(prefix.replace(/\/+$/, ''));
  }

  async presignPut(key: string, options: PresignPutOptions): Promise<string> {
    return this.signedUrl('PUT', key, options.expiresInSeconds, options.maxBytes, null);
  }

  async presignGet(key: string, options: PresignGetOptions): Promise<string> {
    return this.signedUrl('GET', key, options.expiresInSeconds, null, options.downloadName ?? null);
  }

  /**
   * Copies object `from` to `to`. An object's file is never changed in place (every write makes a new file and
   * renames or links it into place), so the copy is a hard link: no byte is copied, and a later write or delete of
   * either key leaves the other as it was. Throws OBJECT_NOT_FOUND when `from` is missing.
   */
  async copy(from: string, to: string): Promise<ObjectInfo> {
    const info = await this.head(from);
    if (!info) throw serviceError('OBJECT_NOT_FOUND');
    await this.placeFile(this.pathOf(from), to);
    return { size: info.size, contentType: contentTypeForKey(to) };
  }

  /**
   * Stores the local file at `path` as `key`: linked into place when it is on the storage's filesystem (no copy),
   * copied otherwise; readers never see a partial object. The file must not be changed afterwards (the object may
   * share its bytes); deleting it is fine.
   */
  async putFile(key: string, path: string): Promise<ObjectInfo> {
    const { size } = await stat(path);
    await this.placeFile(path, key);
    return { size, contentType: contentTypeForKey(key) };
  }

  /**
   * The file of an existing object, for a reader on this machine that wants a path rather than a stream (the
   * statement worker converts a frozen workbook in place); null when there is no such object. Read it, never
   * write it.
   */
  async localPath(key: string): Promise<string | null> {
    return (await this.head(key)) ? this.pathOf(key) : null;
  }

  /** Checks a signed URL's query; throws INVALID_SIGNATURE (403) when tampered with or expired. */
  verifySignedUrl(method: SignedMethod, key: string, query: Record<string, unknown>): SignedGrant {
    const expires = Number(query[QUERY.expires]);
    const maxRaw = query[QUERY.max];
    const maxBytes = typeof maxRaw === 'string' ? Number(maxRaw) : null;
    const nameRaw = query[QUERY.name];
    const downloadName = typeof nameRaw === 'string' ? nameRaw : null;
    const signature = query[QUERY.signature];
    try {
      assertSafeKey(key);
    } catch {
      throw serviceError('INVALID_SIGNATURE');
    }
    const valid = typeof signature === 'string'
      && Number.isSafeInteger(expires)
      && (maxBytes === null || Number.isSafeInteger(maxBytes))
      && hmacVerify(this.options.signingSecret, canonical(method, key, expires, maxBytes, downloadName), signature);
    if (!valid || expires * 1000 < this.clock.now()) throw serviceError('INVALID_SIGNATURE');
    return { key, method, maxBytes, downloadName };
  }

  /**
   * Stores the body of a PUT through a signed URL, refusing (413) past the URL's size cap without leaving a
   * partial file, then tells listeners that the object exists.
   */
  async receiveUpload(grant: SignedGrant, body: Readable): Promise<ObjectInfo> {
    let createOnly = false;
    for (const guard of this.uploadGuards) createOnly = (await guard(grant.key))?.createOnly === true || createOnly;
    const size = await this.writeAtomically(grant.key, body, grant.maxBytes, createOnly);
    this.events.emit('object-created', { key: grant.key, size } satisfies ObjectCreatedEvent);
    return { size, contentType: contentTypeForKey(grant.key) };
  }

  /** Called after every completed upload through a signed URL (the statement queue starts jobs from it). */
  onObjectCreated(listener: (event: ObjectCreatedEvent) => void | Promise<void>): () => void {
    const wrapped = (event: ObjectCreatedEvent): void => void Promise.resolve(listener(event)).catch(() => undefined);
    this.events.on('object-created', wrapped);
    return () => this.events.off('object-created', wrapped);
  }

  /**
   * Runs before an upload through a signed URL is accepted; a guard that throws refuses it (e.g. the
   * statement queue answers 409 to a second upload for a job that is already queued). A guard that returns
   * `{ createOnly: true }` makes the upload create-only (see {@link UploadPolicy}).
   */
  addUploadGuard(guard: UploadGuard): () => void {
    this.uploadGuards.push(guard);
    return () => {
      const index = this.uploadGuards.indexOf(guard);
      if (index >= 0) this.uploadGuards.splice(index, 1);
    };
  }

  /** The files under a folder key, depth first in name order (so in key order, as S3 lists them). */
  private async *walk(folder: string): AsyncIterable<ListedObject> {
    let entries: string[];
    try {
      entries = (await readdir(this.pathOf(folder))).sort();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return;
      throw error;
    }
    for (const name of entries) {
      const key = `${folder}/${name}`;
      const info = await stat(this.pathOf(key)).catch(() => null);
      if (info?.isDirectory()) yield* this.walk(key);
      else if (info?.isFile()) yield { key, size: info.size, lastModified: info.mtimeMs };
    }
  }

  /** Absolute path of `key` under the root; refuses anything that would escape it. */
  private pathOf(key: string): string {
    assertSafeKey(key);
    const path = resolve(this.root, key);
    if (!path.startsWith(this.root + sep)) throw serviceError('INVALID_SIGNATURE');
    return path;
  }

  private signedUrl(method: SignedMethod, key: string, ttlSeconds: number, maxBytes: number | null, name: string | null): string {
    assertSafeKey(key);
    if (!this.baseUrl) throw new Error('FsStorage has no public base URL: pass publicBaseUrl or call setPublicBaseUrl()');
    const expires = Math.floor(this.clock.now() / 1000) + Math.max(1, Math.floor(ttlSeconds));
    const params = new URLSearchParams({ [QUERY.expires]: String(expires) });
    if (maxBytes !== null) params.set(QUERY.max, String(maxBytes));
    if (name !== null) params.set(QUERY.name, name);
    params.set(QUERY.signature, hmacSign(this.options.signingSecret, canonical(method, key, expires, maxBytes, name)));
    const path = key.split('/').map(encodeURIComponent).join('/');
    return `${this.baseUrl}/${path}?${params.toString()}`;
  }

  /** Gives the file at `source` the key `key` through a temporary name: a hard link, or a copy across filesystems. */
  private async placeFile(source: string, key: string): Promise<void> {
    const target = this.pathOf(key);
    const temp = join(this.root, '.tmp', `${randomUUID()}.part`);
    await mkdir(dirname(temp), { recursive: true });
    await mkdir(dirname(target), { recursive: true });
    try {
      try {
        await link(source, temp);
      } catch (error) {
        if (!['EXDEV', 'EPERM', 'ENOTSUP', 'EMLINK'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
        await copyFile(source, temp);
      }
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  /**
   * Writes to a temporary file and renames it into place, so readers never see a partial object; `createOnly`
   * links it into place instead, which fails (409) when the object exists.
   */
  private async writeAtomically(key: string, body: Readable, maxBytes: number | null, createOnly = false): Promise<number> {
    const target = this.pathOf(key);
    const temp = join(this.root, '.tmp', `${randomUUID()}.part`);
    await mkdir(dirname(temp), { recursive: true });
    await mkdir(dirname(target), { recursive: true });
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        if (maxBytes !== null && size > maxBytes) callback(serviceError('PAYLOAD_TOO_LARGE', `${maxBytes} bytes`));
        else callback(null, chunk);
      },
    });
    // The temporary file exists before any byte flows, so removing it after a failure cannot race with a
    // write stream that is still opening it (which would leave a stray .part file behind).
    const handle = await open(temp, 'wx');
    try {
      await pipeline(body, counter, handle.createWriteStream());
      if (createOnly) await linkNew(temp, target);
      else await rename(temp, target);
      return size;
    } catch (error) {
      await handle.close().catch(() => undefined);
      await rm(temp, { force: true });
      throw error;
    }
  }
}

/** Gives `temp` the name `target` only if nothing has that name yet (atomic), then drops the temporary name. */
async function linkNew(temp: string, target: string): Promise<void> {
  try {
    await link(temp, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw serviceError('CONFLICT', 'Already uploaded');
    throw error;
  }
  await rm(temp, { force: true });
}

function canonical(method: SignedMethod, key: string, expires: number, maxBytes: number | null, name: string | null): string {
  return [method, key, expires, maxBytes ?? '', name ?? ''].join('\n');
}

function toReadable(body: ObjectBody): Readable {
  if (body instanceof Readable) return body;
  return Readable.from([typeof body === 'string' ? Buffer.from(body) : body]);
}
