import { KeySpace } from '@satyapan/core';

/**
 * The Redis names every job family has under its own child of the key prefix (`satyapan:statements`,
 * `satyapan:bulk`): BullMQ's prefix and the two global sets. A family adds the names of its records and indexes.
 * The global sets are written before the records they point at, so a lost write leaves a harmless dangling entry.
 */
export class FamilyKeys {
  readonly space: KeySpace;
  /** BullMQ's own prefix (never ioredis keyPrefix), shared by every family's queues. */
  readonly bullPrefix: string;

  constructor(keyPrefix: string, family: string) {
    this.space = new KeySpace(keyPrefix).child(family);
    this.bullPrefix = `${keyPrefix}:bull`;
  }

  /** Jobs whose upload is awaited or whose dispatch to the queue is not yet confirmed (score: created_at). */
  get pending(): string {
    return this.space.plain('pending');
  }

  /** Jobs by the time their record and files are to be deleted. */
  get retention(): string {
    return this.space.plain('retention');
  }
}
