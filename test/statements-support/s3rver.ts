// s3rver (an S3 emulator) on loopback for the statement tests, with its PUT made atomic as S3's is.
import type { S3ClientConfig } from '@aws-sdk/client-s3';
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import S3rver from 's3rver';

export interface S3Server {
  /** For `new S3Storage({ clientConfig })`. */
  clientConfig: S3ClientConfig;
  /**
   * Runs `action` (e.g. another PUT) when the next GET of `objectKey` arrives, before it is answered: a client
   * that replaces an object between someone's HEAD and GET of it, every time. HEADs pass untouched.
   */
  beforeNextGet(objectKey: string, action: () => Promise<void>): void;
  /**
   * Calls `listener` with every request's method, object key (without the bucket) and query, once it has been
   * answered with a 2xx: what a test counts (e.g. the PUTs of one object). Returns a function that stops it.
   */
  onAnswered(listener: (request: AnsweredRequest) => void): () => void;
  close(): Promise<void>;
}

export interface AnsweredRequest {
  method: string;
  key: string;
  query: Record<string, unknown>;
  status: number;
}

export async function startS3rver(bucket: string): Promise<S3Server> {
  const directory = await mkdtemp(join(tmpdir(), 'satyapan-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  makePutsAtomic(server);
  const beforeGet = new Map<string, () => Promise<void>>();
  const listeners = new Set<(request: AnsweredRequest) => void>();
  const bucketPath = `/${bucket}/`;
  // Koa composes its middleware when the server starts: this one runs ahead of s3rver's own.
  (server as unknown as { middleware: KoaMiddleware[] }).middleware.unshift(async (ctx, next) => {
    const action = ctx.method === 'GET' ? beforeGet.get(ctx.path) : undefined;
    if (action) {
      beforeGet.delete(ctx.path);
      await action();
    }
    await next();
    if (listeners.size > 0 && ctx.status >= 200 && ctx.status < 300 && ctx.path.startsWith(bucketPath)) {
      const answered = { method: ctx.method, key: decodeURIComponent(ctx.path.slice(bucketPath.length)), query: ctx.query, status: ctx.status };
      for (const listener of listeners) listener(answered);
    }
  });
  const { port } = (await server.run()) as unknown as { port: number };
  return {
    clientConfig: {
      endpoint: `http://127.0.0.1:${port}`, region: 'us-east-1', forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    },
    beforeNextGet(objectKey, action) {
      beforeGet.set(`/${bucket}/${objectKey}`, action);
    },
    onAnswered(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

type KoaMiddleware = (ctx: { method: string; path: string; query: Record<string, unknown>; status: number }, next: () => Promise<void>) => Promise<void>;

/** The parts of s3rver's (untyped) filesystem store that its PUT handler uses. */
interface FilesystemStore {
  getResourcePath(bucket: string, key: string, resource: string): string;
  putMetadata(bucket: string, key: string, metadata: unknown, md5: string): Promise<void>;
  putObject(object: { bucket: string; key: string; content: Buffer | Readable; metadata: unknown }): Promise<{ size: number; md5: string }>;
}

/**
 * s3rver 3 writes an object in place, so a HEAD or GET that comes during a PUT can see part of it (a 3 KB PUT,
 * read in a loop while it is written, showed a short size about once in 300 reads). S3 never shows a partial
 * object, and the upload sweep rightly relies on that: this PUT writes beside the object and renames it into place.
 */
function makePutsAtomic(server: S3rver): void {
  const store = (server as unknown as { store: FilesystemStore }).store;
  store.putObject = async (object) => {
    const objectPath = store.getResourcePath(object.bucket, object.key, 'object');
    await mkdir(dirname(objectPath), { recursive: true });
    // Not named like an object, so listings skip it.
    const partPath = `${objectPath}.${randomUUID()}.partial`;
    const md5 = createHash('md5');
    let size = 0;
    const measure = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        md5.update(chunk);
        size += chunk.length;
        callback(null, chunk);
      },
    });
    const content = Buffer.isBuffer(object.content) ? Readable.from([object.content]) : object.content;
    try {
      await pipeline(content, measure, createWriteStream(partPath));
      await rename(partPath, objectPath);
    } finally {
      await rm(partPath, { force: true });
    }
    const digest = md5.digest('hex');
    await store.putMetadata(object.bucket, object.key, object.metadata, digest);
    return { size, md5: digest };
  };
}
