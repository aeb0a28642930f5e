import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Where conversions keep their local files: the plaintext workbook copy (S3; FsStorage's is read in place), the TXT before upload and the engine's
 * spill files. Every worker process owns one folder under a common root and keeps a heartbeat file in it fresh;
 * any worker removes the folders whose heartbeat went stale (their owner was killed), on start and periodically,
 * so a killed worker's plaintext is gone within minutes instead of lying in the temp folder for a day. A job's
 * scratch is named by its id, so a job run again after its worker died removes its predecessor's at once.
 */
export interface ScratchOptions {
  /** Parent folder; default the OS temp folder. */
  tmpDir?: string;
  /** A folder whose heartbeat is older than this belongs to a dead worker; default 15 min. */
  staleAfterMs?: number;
}

export const SCRATCH_ROOT = 'satyapan-statement-scratch';
/** The per-job folders of versions before worker-owned folders, directly in the temp folder. */
const LEGACY_PREFIX = 'satyapan-statement-';
const HEARTBEAT = '.heartbeat';
const DEFAULT_STALE_AFTER_MS = 15 * 60 * 1000;

export class ScratchSpace {
  readonly root: string;
  /** This process's folder. */
  readonly own: string;
  private readonly parent: string;
  private readonly staleAfterMs: number;
  private created: Promise<void> | null = null;

  constructor(options: ScratchOptions = {}) {
    this.parent = options.tmpDir ?? tmpdir();
    this.root = join(this.parent, SCRATCH_ROOT);
    this.own = join(this.root, `w-${process.pid}-${randomUUID()}`);
    this.staleAfterMs = options.staleAfterMs ?? DEFAULT_STALE_AFTER_MS;
  }

  /** A fresh, empty folder for one run of a job; any earlier run's folder, in any worker's, is removed first. */
  async forJob(jobId: string): Promise<string> {
    await this.ensureOwn();
    await this.removeJob(jobId);
    const folder = join(this.own, jobId);
    await mkdir(folder, { recursive: true });
    return folder;
  }

  /** Removes every worker's folder of a job (a finished run removes its own; a restarted one, its predecessor's). */
  async removeJob(jobId: string): Promise<void> {
    const owners = await readdir(this.root).catch(() => [] as string[]);
    await Promise.all(owners.map((owner) => rm(join(this.root, owner, jobId), { recursive: true, force: true })));
  }

  /** Keeps this worker's heartbeat fresh and removes the folders of dead workers. Returns how many went. */
  async sweep(now = Date.now()): Promise<number> {
    await this.beat(now);
    let removed = 0;
    for (const name of await readdir(this.root)) {
      const folder = join(this.root, name);
      if (folder !== this.own && (await this.lastSeen(folder)) < now - this.staleAfterMs) removed += await remove(folder);
    }
    for (const name of await readdir(this.parent)) {
      if (!name.startsWith(LEGACY_PREFIX) || name === SCRATCH_ROOT) continue;
      const folder = join(this.parent, name);
      const info = await stat(folder).catch(() => null);
      if (info?.isDirectory() && info.mtimeMs < now - this.staleAfterMs) removed += await remove(folder);
    }
    return removed;
  }

  /** Removes this worker's own folder (on close, once no conversion runs). */
  async close(): Promise<void> {
    await rm(this.own, { recursive: true, force: true });
    this.created = null;
  }

  /** Renews the heartbeat; makes the folder again if another worker took this one for dead (a long stall). */
  private async beat(now: number): Promise<void> {
    await this.ensureOwn();
    try {
      await utimes(join(this.own, HEARTBEAT), new Date(now), new Date(now));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      this.created = null;
      await this.ensureOwn();
    }
  }

  private ensureOwn(): Promise<void> {
    this.created ??= (async () => {
      await mkdir(this.own, { recursive: true, mode: 0o700 });
      await writeFile(join(this.own, HEARTBEAT), String(process.pid));
    })();
    return this.created;
  }

  /** When a folder's owner last gave a sign of life: its heartbeat, or the folder's own time if it has none yet. */
  private async lastSeen(folder: string): Promise<number> {
    const heartbeat = await stat(join(folder, HEARTBEAT)).catch(() => null);
    if (heartbeat) return heartbeat.mtimeMs;
    return (await stat(folder).catch(() => null))?.mtimeMs ?? Number.POSITIVE_INFINITY;
  }
}

async function remove(folder: string): Promise<number> {
  await rm(folder, { recursive: true, force: true });
  return 1;
}
