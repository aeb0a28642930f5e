import type { Clock, ListedObject, Logger, ObjectStorage, RedisConnection } from '@satyapan/core';
import type { JobStore } from './job-store.js';
import { allStorageKeys, parseRefMember, refMember, refOfJobFile, storageKeys, type JobRef, type StatementKeys } from './keys.js';

/**
 * Files of a job whose record is missing are only taken for orphans once their newest file is this old: far
 * beyond any moment in which a job's files exist before or after its record (there is none in normal operation).
 */
export const ORPHAN_GRACE_MS = 3600 * 1000;

/**
 * Jobs are kept for a configurable time, then deleted with every file they produced. The schedule is a global
 * sorted set (score: when to delete); files are deleted first and by their fixed names, so a purge interrupted
 * half way is simply done again by the next one.
 */
export class Retention {
  constructor(
    private readonly redis: RedisConnection,
    private readonly storage: ObjectStorage,
    private readonly store: JobStore,
    private readonly keys: StatementKeys,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  async schedule(ref: JobRef, deleteAt: number): Promise<void> {
    await this.redis.zadd(this.keys.retention, deleteAt, refMember(ref));
  }

  async purge(limit: number): Promise<number> {
    const due = await this.redis.zrangebyscore(this.keys.retention, '-inf', this.clock.now(), 'LIMIT', 0, limit);
    for (const member of due) {
      const ref = parseRefMember(member);
      if (ref) await this.deleteJob(ref);
      await this.redis.zrem(this.keys.retention, member);
    }
    return due.length;
  }

  /**
   * Deletes the files of jobs whose record is gone, which the schedule cannot find: after Redis lost data, PANs
   * would otherwise stay on disk with nothing to delete them. Walks the storage's job folders (a storage without
   * `list` is skipped). Returns how many jobs' files were deleted; stops after `limit`.
   */
  async purgeOrphans(limit: number, graceMs = ORPHAN_GRACE_MS): Promise<number> {
    if (!this.storage.list) return 0;
    const cutoff = this.clock.now() - graceMs;
    let purged = 0;
    for await (const folder of jobFolders(this.storage.list(storageKeys.root))) {
      if (purged >= limit) break;
      if (folder.newest > cutoff || (await this.store.exists(folder.ref))) continue;
      await Promise.all(folder.keys.map((key) => this.storage.delete(key)));
      this.logger.warn('deleted the files of a statement job that has no record', { job_id: folder.ref.jobId, files: folder.keys.length });
      purged += 1;
    }
    return purged;
  }

  private async deleteJob(ref: JobRef): Promise<void> {
    await Promise.all(allStorageKeys(ref).map((key) => this.storage.delete(key)));
    const record = await this.store.get(ref);
    if (record) await this.store.delete(ref, record);
    await this.redis.zrem(this.keys.pending, refMember(ref));
  }
}

interface JobFolder {
  ref: JobRef;
  keys: string[];
  /** Unix ms of its newest file. */
  newest: number;
}

/** Groups a key-ordered listing into one entry per job folder (a job's keys are consecutive). */
async function* jobFolders(objects: AsyncIterable<ListedObject>): AsyncIterable<JobFolder> {
  let current: JobFolder | null = null;
  for await (const object of objects) {
    const ref = refOfJobFile(object.key);
    if (!ref) continue;
    if (current && refMember(current.ref) === refMember(ref)) {
      current.keys.push(object.key);
      current.newest = Math.max(current.newest, object.lastModified);
      continue;
    }
    if (current) yield current;
    current = { ref, keys: [object.key], newest: object.lastModified };
  }
  if (current) yield current;
}
