import { FsStorage, readAtMost, type ObjectStorage } from '@satyapan/core';

/** The outcome of freezing an upload: copied, or not copied because it is over the limit (the size seen). */
export type Frozen = { copied: true } | { copied: false; size: number };

/**
 * Copies an upload where no URL reaches before its job is queued, so a worker never reads a file an upload can
 * still change. A pre-signed S3 PUT cannot be refused a second time, so there the copy is what makes a later
 * upload change nothing; an upload over the size limit (which S3 cannot refuse either) is not copied. On
 * FsStorage (which refuses oversize and second uploads itself) the copy is a hard link that costs no bytes;
 * elsewhere the bytes are read only up to the limit, since the object can be replaced between head() and get().
 */
export async function freezeUpload(
  storage: ObjectStorage, from: string, to: string, headSize: number, maxBytes: number, contentType: string,
): Promise<Frozen> {
  if (headSize > maxBytes) return { copied: false, size: headSize };
  if (storage instanceof FsStorage) {
    await storage.copy(from, to);
    return { copied: true };
  }
  const copy = await readAtMost(await storage.get(from), maxBytes);
  if (copy === null) {
    const current = await storage.head(from);
    return { copied: false, size: Math.max(current?.size ?? 0, maxBytes + 1) };
  }
  await storage.put(to, copy, { contentType });
  return { copied: true };
}
