import { unwatchFile, watchFile, type Stats } from 'node:fs';
import type { BranchDirectory } from './directory.js';
import { loadDirectory } from './importer.js';
import type { BranchPage, BranchQuery } from './search.js';
import type { SnapshotMetadata } from './snapshot.js';
import type { Branch } from './branch.js';

/**
 * A directory whose contents can be replaced while the process serves requests. A swap replaces one
 * reference, so a request sees either the old directory or the new one, never a mix; a failed reload keeps
 * the old directory. Each router process holds its own copy: to roll out a new snapshot, copy it into place
 * (atomically: write then rename) and call `reload()` or let `watch()` notice.
 */
export class SwappableDirectory implements BranchDirectory {
  private stopWatching: (() => void) | undefined;

  constructor(private current: BranchDirectory) {}

  get size(): number {
    return this.current.size;
  }

  get metadata(): SnapshotMetadata {
    return this.current.metadata;
  }

  lookup(ifsc: string): Branch | undefined {
    return this.current.lookup(ifsc);
  }

  search(query: BranchQuery): BranchPage {
    return this.current.search(query);
  }

  /** The directory now in use (e.g. to keep serving one consistent directory across several calls). */
  get active(): BranchDirectory {
    return this.current;
  }

  /** Puts `next` in place and returns the directory it replaced. */
  swap(next: BranchDirectory): BranchDirectory {
    const previous = this.current;
    this.current = next;
    return previous;
  }

  /** Loads a snapshot (or a Razorpay source) and swaps it in; on any error the current directory stays. */
  async reload(path: string): Promise<SnapshotMetadata> {
    const next = await loadDirectory(path);
    this.swap(next);
    return next.metadata;
  }

  /**
   * Reloads whenever the file at `path` changes (polled; the poller does not keep the process alive).
   * `onError` hears about snapshots that failed to load; the old directory keeps serving meanwhile.
   */
  watch(path: string, options: { intervalMs?: number; onReload?: (m: SnapshotMetadata) => void; onError?: (e: unknown) => void } = {}): void {
    this.unwatch();
    const listener = (now: Stats, before: Stats): void => {
      if (now.mtimeMs === before.mtimeMs && now.size === before.size) return;
      if (now.nlink === 0 && now.size === 0) return;
      this.reload(path).then(options.onReload, (error: unknown) => options.onError?.(error));
    };
    watchFile(path, { interval: options.intervalMs ?? 2_000, persistent: false }, listener);
    this.stopWatching = () => unwatchFile(path, listener);
  }

  unwatch(): void {
    this.stopWatching?.();
    this.stopWatching = undefined;
  }
}
