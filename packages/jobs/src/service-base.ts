import type { Queue } from 'bullmq';
import {
  FsStorage, duplicateConnection, readyOrLetCommandFail, serviceError, silentLogger, systemClock, watchRedisConnection,
  type Clock, type JobStatus, type Logger, type ObjectStorage, type RedisConnection, type SatyapanMetrics, type UploadPolicy,
} from '@satyapan/core';
import type { JobRetryOptions } from './queue.js';
import type { JobRef } from './refs.js';
import { watchFsUploads } from './uploads.js';

/** How a family's uploads are guarded (see JobServiceBase.watchUploads). */
export interface UploadRules<R> {
  load(ref: JobRef): Promise<R | null>;
  /** Throws (a 409) for an upload this job does not take, e.g. a CSI file it did not ask for. */
  refuse?(key: string, ref: JobRef, record: R): void;
  /** The 409's message for a second upload to the slot `key` names. */
  alreadyUploaded(key: string, ref: JobRef): string;
}

export interface JobServiceBaseOptions {
  /** A producer-flavour connection: the service duplicates it into one that never re-sends a command. */
  redis: RedisConnection;
  storage: ObjectStorage;
  clock?: Clock;
  logger?: Logger;
  /** `statement`, `bulk`: names the log lines. */
  family: string;
  /** The name of the service's Redis connection (`CLIENT LIST`). */
  connectionName: string;
  /** The job an upload key belongs to, or null for any other object. */
  uploadOf(key: string): JobRef | null;
}

/**
 * What the API side of every job family does alike (docs/ARCHITECTURE.md, "Jobs"): its own fail-fast Redis
 * connection, the reaction to uploads (FsStorage's own events, or S3 notifications passed to
 * `handleObjectCreated`), the pending sweep, the retention purge and a bounded close. A family adds submit, poll
 * and list, its dispatcher and retention.
 */
export abstract class JobServiceBase {
  /** The service's own connection: see the constructor. */
  protected readonly redis: RedisConnection;
  protected readonly clock: Clock;
  protected readonly logger: Logger;
  abstract readonly queue: Queue<any>;
  protected abstract readonly dispatcher: { dispatch(ref: JobRef): Promise<boolean>; sweep(limit: number): Promise<number> };
  protected abstract readonly retention: { purge(limit: number): Promise<number> };
  private readonly detach: Array<() => void> = [];

  constructor(private readonly base: JobServiceBaseOptions) {
    // A connection of its own that never re-sends a command after a reconnect (ioredis does by default): a
    // submit that was answered 503 must not create its job later, when the connection comes back.
    this.redis = duplicateConnection(base.redis, { autoResendUnfulfilledCommands: false, connectionName: base.connectionName });
    this.clock = base.clock ?? systemClock;
    this.logger = base.logger ?? silentLogger();
    watchRedisConnection(this.redis, this.logger);
  }

  /**
   * Reacts to a completed upload (FsStorage calls it by itself; wire S3 `ObjectCreated` notifications to it with
   * the object key as the event gives it): queues the job when all its files are there; ignores other keys.
   * Without notifications, the worker's sweep finds uploads by polling storage.
   */
  async handleObjectCreated(key: string): Promise<void> {
    const ref = this.base.uploadOf(key);
    if (!ref) return;
    await this.connected();
    await this.dispatcher.dispatch(ref);
  }

  /**
   * Looks at every job whose upload or dispatch is outstanding: queues those whose files have arrived (the S3
   * poll, and recovery after a crash between upload and queueing). Returns how many entries were looked at.
   */
  async sweepPending(limit = 500): Promise<number> {
    await this.connected();
    return this.dispatcher.sweep(limit);
  }

  /** Deletes jobs past retention with their files. Returns how many were deleted. */
  async purgeExpired(limit = 500): Promise<number> {
    await this.connected();
    return this.retention.purge(limit);
  }

  async close(): Promise<void> {
    for (const detach of this.detach.splice(0)) detach();
    await this.queue.close();
    this.redis.disconnect();
  }

  /**
   * The own connection is a fail-fast one (no offline queue), so a call right after start-up or a reconnect waits
   * briefly for it; if Redis stays away, the command then fails and the caller gets a 503.
   */
  protected async connected(): Promise<void> {
    await readyOrLetCommandFail(this.redis);
  }

  /**
   * With FsStorage (unless `watch` is false): guards uploads and queues a job as soon as its last file is in.
   * Only a job still waiting for its files takes one, once per slot: the checks here refuse most second uploads
   * early (409); the create-only commit settles a race between two that both passed them (exactly one wins),
   * and keeps a late one from replacing the file afterwards.
   */
  protected watchUploads<R extends { status: JobStatus }>(watch: boolean | undefined, rules: UploadRules<R>): void {
    if (watch === false || !(this.base.storage instanceof FsStorage)) return;
    const storage = this.base.storage;
    const guard = async (key: string): Promise<UploadPolicy | undefined> => {
      const ref = this.base.uploadOf(key);
      if (!ref) return undefined;
      await this.connected();
      const record = await rules.load(ref);
      if (!record) throw serviceError('CONFLICT', 'Job no longer exists');
      rules.refuse?.(key, ref, record);
      // The file check closes the moment between a finished upload and its job being queued.
      if (record.status !== 'created' || (await storage.exists(key))) throw serviceError('CONFLICT', rules.alreadyUploaded(key, ref));
      return { createOnly: true };
    };
    this.detach.push(...watchFsUploads(storage, {
      guard, created: (key) => this.handleObjectCreated(key), label: this.base.family, logger: this.logger,
    }));
  }
}

/** The settings every family's service takes besides its connections (each family documents its defaults). */
export interface JobServiceSettings {
  /** Prefix of every Redis key (the router's `keyPrefix`); default `satyapan`. */
  keyPrefix?: string;
  clock?: Clock;
  logger?: Logger;
  /** Validity of the upload URLs; default 24 h. */
  uploadTtlSeconds?: number;
  /** Largest upload accepted in each slot; default 50 MB. */
  maxUploadBytes?: number;
  /** Validity of the download URLs in a poll answer; default 1 h. */
  downloadTtlSeconds?: number;
  /** How long a job and its files are kept. */
  retentionDays?: number;
  /** Tries and backoff for infrastructure failures. */
  retry?: JobRetryOptions;
  /**
   * With FsStorage, refuse a second upload (409) and queue the job as soon as its files are in. Default true; set
   * false in a process that must not react to uploads (e.g. a second service on the same storage).
   */
  watchUploads?: boolean;
  /** Where jobs entering each state and the queue's depth are reported (`createMetrics()` from @satyapan/core). */
  metrics?: SatyapanMetrics;
}
