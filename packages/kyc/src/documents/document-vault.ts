import { systemClock, type Clock, type KeySpace, type Logger, type ObjectStorage } from '@satyapan/core';
import type { RedisClient } from '../sessions/session-store.js';
import type { DownloadedFile, IssuedFileInfo } from '../locker/types.js';
import { listingDate, type StoredFileView } from '../sessions/representations.js';

export interface DocumentVaultOptions {
  storage: ObjectStorage;
  redis: RedisClient;
  keys: KeySpace;
  clock?: Clock;
  logger: Logger;
  /** Lifetime of download URLs and of the stored copies; 3600 s as the API promises. */
  retentionSeconds?: number;
}

const EXTENSIONS: Record<string, string> = { 'application/xml': 'xml', 'text/xml': 'xml', 'application/pdf': 'pdf', 'image/jpeg': 'jpg', 'image/png': 'png' };
const SWEEP_BATCH = 100;

/**
 * Copies of locker documents in our object storage: each is returned as a pre-signed URL and deleted when its
 * retention is over. The deletion schedule is a Redis sorted set (score = delete-at), so any process can
 * sweep, and a copy is deleted by exactly one of them (whoever removes it from the set).
 */
export class DocumentVault {
  private readonly retentionSeconds: number;
  private readonly clock: Clock;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly options: DocumentVaultOptions) {
    this.retentionSeconds = options.retentionSeconds ?? 3600;
    this.clock = options.clock ?? systemClock;
  }

  async keep(sessionId: string, listing: IssuedFileInfo, file: DownloadedFile): Promise<StoredFileView> {
    const key = `kyc/${sessionId}/${fileNameOf(listing, file.contentType)}`;
    const info = await this.options.storage.put(key, file.body, { contentType: file.contentType });
    await this.options.redis.zadd(this.scheduleKey(), this.clock.now() + this.retentionSeconds * 1000, key);
    const url = await this.options.storage.presignGet(key, { expiresInSeconds: this.retentionSeconds, downloadName: key.slice(key.lastIndexOf('/') + 1) });
    return {
      '@entity': 'org.service.drive.file',
      url,
      size: info.size,
      metadata: {
        ContentType: file.contentType, issuer_id: listing.issuerId, issuer: listing.issuer,
        LastModified: listingDate(listing.date), description: listing.description,
      },
    };
  }

  /** Deletes every copy whose time is up; returns how many this call deleted. */
  async purgeExpired(): Promise<number> {
    const due = await this.options.redis.zrangebyscore(this.scheduleKey(), '-inf', this.clock.now(), 'LIMIT', 0, SWEEP_BATCH);
    let deleted = 0;
    for (const key of due) {
      if ((await this.options.redis.zrem(this.scheduleKey(), key)) !== 1) continue; // another process took it
      await this.options.storage.delete(key);
      deleted += 1;
    }
    if (deleted > 0) this.options.logger.info('deleted expired locker documents', { count: deleted });
    return deleted;
  }

  /** Sweeps on an interval until stop(); the timer does not keep the process alive. */
  startSweeping(intervalMs = 60_000): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.purgeExpired().catch((error: unknown) => this.options.logger.warn('document sweep failed', { error: String(error) }));
    }, intervalMs);
    this.timer.unref();
  }

  stopSweeping(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private scheduleKey(): string {
    return this.options.keys.plain('document-deletions');
  }
}

/** The locker URI as a storage-safe file name, with an extension from the content type. */
function fileNameOf(listing: IssuedFileInfo, contentType: string): string {
  const base = listing.uri.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^[._-]+/, '').slice(0, 110) || 'document';
  const extension = EXTENSIONS[contentType] ?? 'bin';
  return base.endsWith(`.${extension}`) ? base : `${base}.${extension}`;
}
