// A progress bar on stderr, only when stderr is a terminal and the input is large.

import type { StreamProgress } from '../stream/convert-stream.js';

const LARGE_INPUT = 20 * 1024 * 1024;
const WIDTH = 30;

export interface ProgressBar {
  update(progress: StreamProgress): void;
  done(): void;
}

const NONE: ProgressBar = { update() {}, done() {} };

export function progressBar(stream: NodeJS.WriteStream, totalBytes: number): ProgressBar {
  if (!stream.isTTY || totalBytes < LARGE_INPUT) return NONE;
  let last = 0;
  let shown = false;
  return {
    update(p) {
      const now = Date.now();
      if (now - last < 100) return;
      last = now;
      const fraction = Math.min(1, p.bytesRead / totalBytes);
      const filled = Math.round(fraction * WIDTH);
      stream.write(`\r[${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${(fraction * 100).toFixed(0).padStart(3)}%  ${p.rowsRead.toLocaleString('en')} rows`);
      shown = true;
    },
    done() {
      if (shown) stream.write(`\r${' '.repeat(WIDTH + 40)}\r`);
    },
  };
}
