import type { Clock, ListedObject, Logger, ObjectStorage, RedisConnection } from '@satyapan/core';
import { RetentionSchedule } from '@satyapan/jobs';
import type { JobStore } from './job-store.js';
import { allStorageKeys, refMember, refOfJobFile, storageKeys, type JobRef, type StatementKeys } from './keys.js';

/**
 * Files of a job whose record is missing are only taken for orphans once their newest file is this old: far
 * beyond any moment in which a job's files exist before or after its record (there is none in normal operation).
 */
export const ORPHAN_GRACE_MS = 3600 * 1000;

/**
 * Jobs are kept for a configurable time, then deleted with every file they produced, on the framework's schedule
 * (@satyapan/jobs `RetentionSchedule`): files first, by their fixed names, then the record and its indexes.
 */
export class Retention {
  private readonly timetable: RetentionSchedule;

  constructor(
    private readonly redis: RedisConnection,
    private readonly storage: ObjectStorage,
    private readonly store: JobStore,
    private readonly keys: StatementKeys,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {
    this.timetable = new RetentionSchedule(redis, keys.retention, clock, (ref) => this.deleteJob(ref));
  }

  async schedule(ref: JobRef, deleteAt: number): Promise<void> {
    await this.timetable.schedule(ref, deleteAt);
  }

  async purge(limit: number): Promise<number> {
    return this.timetable.purge(limit);
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
