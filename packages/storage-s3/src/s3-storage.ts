import {
  DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsCommand, PutObjectCommand, S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Readable } from 'node:stream';
import {
  assertSafeKey, contentTypeForKey, readAll, serviceError,
  type ListedObject, type ObjectBody, type ObjectInfo, type ObjectStorage, type PresignGetOptions, type PresignPutOptions, type PutOptions,
} from '@satyapan/core';

export interface S3StorageOptions {
  bucket: string;
  /** Prepended to every key, e.g. `satyapan/` to share a bucket. */
  keyPrefix?: string;
  /** A ready client, or the config to make one (region, endpoint, credentials, forcePathStyle). */
  client?: S3Client;
  clientConfig?: S3ClientConfig;
}

/**
 * Objects in S3 or an S3-compatible store, with real SigV4 pre-signed URLs. A pre-signed PUT cannot carry a
 * maximum size (only a presigned POST policy can), so `maxBytes` is enforced by whoever reads the object
 * next: callers check `head()` before trusting an upload.
 */
export class S3Storage implements ObjectStorage {
  readonly kind = 's3';
  readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;

  constructor(options: S3StorageOptions) {
    this.client = options.client ?? new S3Client(options.clientConfig ?? {});
    this.bucket = options.bucket;
    this.prefix = options.keyPrefix ?? '';
  }

  async put(key: string, body: ObjectBody, options: PutOptions = {}): Promise<ObjectInfo> {
    const buffer = await toBuffer(body);
    await this.client.send(new PutObjectCommand({
      Bucket: this.bucket,
      Key: this.objectKey(key),
      Body: buffer,
      ContentType: options.contentType ?? contentTypeForKey(key),
    }));
    return { size: buffer.length, contentType: options.contentType ?? contentTypeForKey(key) };
  }

  async get(key: string): Promise<Readable> {
    try {
      const result = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      return result.Body as Readable;
    } catch (error) {
      if (isNotFound(error)) throw serviceError('OBJECT_NOT_FOUND');
      throw error;
    }
  }

  async head(key: string): Promise<ObjectInfo | null> {
    try {
      const result = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      return { size: result.ContentLength ?? 0, ...(result.ContentType ? { contentType: result.ContentType } : {}) };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.head(key)) !== null;
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
  }

  /**
   * Pages with ListObjects (v1) and the last key seen as marker: every S3-compatible store answers it, while
   * some test servers cannot make v2 continuation tokens (s3rver's need DES, which OpenSSL 3 dropped).
   */
  async *list(prefix: string): AsyncIterable<ListedObject> {
    const folder = `${this.objectKey(prefix.replace(/\/+$/, ''))}/`;
    let marker: string | undefined;
    for (;;) {
      const page = await this.client.send(new ListObjectsCommand({ Bucket: this.bucket, Prefix: folder, ...(marker ? { Marker: marker } : {}) }));
      for (const object of page.Contents ?? []) {
        if (!object.Key) continue;
        marker = object.Key;
        yield { key: object.Key.slice(this.prefix.length), size: object.Size ?? 0, lastModified: object.LastModified?.getTime() ?? 0 };
      }
      if (!page.IsTruncated || !page.Contents?.length) return;
    }
  }

  async presignPut(key: string, options: PresignPutOptions): Promise<string> {
    const command = new PutObjectCommand({
      Bucket: this.bucket,
      Key: this.objectKey(key),
      ...(options.contentType ? { ContentType: options.contentType } : {}),
    });
    return getSignedUrl(this.client, command, { expiresIn: Math.floor(options.expiresInSeconds) });
  }

  async presignGet(key: string, options: PresignGetOptions): Promise<string> {
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: this.objectKey(key),
      ...(options.downloadName ? { ResponseContentDisposition: `attachment; filename="${options.downloadName}"` } : {}),
    });
    return getSignedUrl(this.client, command, { expiresIn: Math.floor(options.expiresInSeconds) });
  }

  private objectKey(key: string): string {
    assertSafeKey(key);
    return this.prefix + key;
  }
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

async function toBuffer(body: ObjectBody): Promise<Buffer> {
  if (Buffer.isBuffer(body)) return body;
  if (typeof body === 'string') return Buffer.from(body);
  return readAll(body);
}

