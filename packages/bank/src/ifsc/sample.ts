import { fileURLToPath } from 'node:url';
import { IfscDirectory } from './directory.js';

/**
 * The sample snapshot shipped in the package (data/sample-directory.bin.gz): a few thousand real,
 * public-domain branches from Razorpay's dataset covering many banks and every state, so that lookups work
 * out of the box. Rebuild it with `scripts/build-sample.ts`; load the full dataset with the CLI (README).
 * The path is the same relative to src/ and dist/.
 */
export const SAMPLE_SNAPSHOT_PATH = fileURLToPath(new URL('../../data/sample-directory.bin.gz', import.meta.url));

let sample: Promise<IfscDirectory> | undefined;

/** The shipped sample, loaded once per process. */
export function loadSampleDirectory(): Promise<IfscDirectory> {
  sample ??= IfscDirectory.load(SAMPLE_SNAPSHOT_PATH).catch((error: unknown) => {
    sample = undefined;
    throw error;
  });
  return sample;
}
