import type { Readable } from 'node:stream';

/**
 * Reads a stream into memory unless it is longer than `maxBytes` (null then, the rest unread): for an object whose
 * size an upload's limit promises but whose bytes may have been replaced since (a pre-signed S3 PUT).
 */
export async function readAtMost(stream: Readable, maxBytes: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    size += buffer.length;
    if (size > maxBytes) {
      stream.destroy();
      return null;
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/** Reads a whole stream into memory; for objects known to be small (reports, documents). */
export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}
