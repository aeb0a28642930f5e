import { IfscDirectory, loadSampleDirectory, type BranchDirectory } from '@satyapan/bank';
import { VENDOR_SANDBOX_BRANCHES } from '@satyapan/sandbox';

/**
 * The demo's branch directory: the shipped sample, plus the branches of the vendor's IFSC examples for the
 * lookups a test suite written against the vendor makes (a sandbox deployment answers the vendor's test
 * values). Search covers the sample only; a production directory is the full dataset (packages/bank README).
 */
export async function demoDirectory(): Promise<BranchDirectory> {
  const sample = await loadSampleDirectory();
  const vendor = IfscDirectory.fromBranches(VENDOR_SANDBOX_BRANCHES, 'vendor sandbox examples');
  return {
    get size() { return sample.size + vendor.size; },
    get metadata() { return sample.metadata; },
    lookup: (ifsc) => sample.lookup(ifsc) ?? vendor.lookup(ifsc),
    search: (query) => sample.search(query),
  };
}
