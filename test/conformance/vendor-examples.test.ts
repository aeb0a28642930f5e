// Vendor conformance: every in-scope example of the vendor's Postman collection and OpenAPI documents, replayed
// against the router with the sandbox upstreams, answers as the vendor's does, or differs only as
// docs/VENDOR_COMPAT.md says. The facts come from fixtures/ (see README.md); nothing is read from ../shared.
import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { allowedBy, loadAllowed, type AllowedDifference } from './support/allowed.js';
import { differences, type ExampleCase } from './support/facts.js';
import { SCENARIOS, Unreproducible } from './support/scenarios.js';
import { startConformanceStack, type ConformanceStack } from './support/stack.js';

const FIXTURES = new URL('./fixtures/', import.meta.url);
const COMPAT_DOC = new URL('../../docs/VENDOR_COMPAT.md', import.meta.url);

/** Case files: ours, and the ones the operations added later bring when present. */
function loadCases(): ExampleCase[] {
  const files = ['vendor-examples.json', 'new-operations.json', 'pan-operations.json'].map((name) => new URL(name, FIXTURES)).filter((url) => existsSync(url));
  return files.flatMap((url) => (JSON.parse(readFileSync(url, 'utf8')) as { cases: ExampleCase[] }).cases);
}

const CASES = loadCases();

/**
 * Cases that wait for a fix made elsewhere. They run every time and pass as soon as the fix is on the branch;
 * until then a difference makes them pending, with the reason, instead of failing.
 */
const AWAITING: Readonly<Record<string, string>> = {};
const ALLOWED = loadAllowed(new URL('allowed-differences.json', FIXTURES));

describe('vendor conformance: the vendor\'s examples replayed against the router and the sandbox', function () {
  this.timeout(60_000);
  let stack: ConformanceStack;
  const tally = { matching: 0, named: 0, failing: 0 };
  const used = new Set<string>();

  before(async () => {
    stack = await startConformanceStack();
  });
  after(async () => {
    await stack?.close();
    console.log(`      conformance: ${CASES.length} cases (${CASES.reduce((n, c) => n + 1 + (c.also_in?.length ?? 0), 0)} examples); `
      + `${tally.matching} match, ${tally.named} differ only as docs/VENDOR_COMPAT.md names (${used.size} of ${new Set(ALLOWED.map((entry) => entry.id)).size} named differences seen), ${tally.failing} fail`);
  });

  it('has unique case ids and a scenario for every case', () => {
    expect(new Set(CASES.map((c) => c.id)).size).to.equal(CASES.length);
    expect(CASES.filter((c) => !(c.scenario in SCENARIOS)).map((c) => `${c.id}: ${c.scenario}`)).to.deep.equal([]);
  });

  for (const c of CASES) {
    it(c.id, async function () {
      let found: string[];
      try {
        const answer = await SCENARIOS[c.scenario]!(stack, c);
        found = differences(c.expect, answer.status, answer.body, c.omit);
      } catch (error) {
        if (!(error instanceof Unreproducible)) throw error;
        found = [`unreproducible status ${c.expect.status} "${Object.values(c.expect.messages)[0] ?? ''}"`];
      }
      const unnamed = found.filter((difference) => {
        const entry = allowedBy(ALLOWED, c.operation, difference);
        if (entry) used.add(entry.id);
        return entry === undefined;
      });
      if (unnamed.length > 0 && AWAITING[c.id]) {
        console.log(`      pending: ${c.id}: ${AWAITING[c.id]} (${unnamed.join('; ')})`);
        this.skip();
      }
      if (found.length === 0) tally.matching += 1;
      else if (unnamed.length === 0) tally.named += 1;
      else tally.failing += 1;
      expect(unnamed, `${c.operation} (${c.scenario}) differs from ${c.source} in ways docs/VENDOR_COMPAT.md does not name`).to.deep.equal([]);
    });
  }

  it('sees every named difference: the allow-list names nothing that no longer happens', () => {
    expect(ALLOWED.map((entry) => entry.id).filter((id) => !used.has(id))).to.deep.equal([]);
  });

  it('names every difference once: docs/VENDOR_COMPAT.md and the allow-list list the same ids', () => {
    const documented = [...readFileSync(COMPAT_DOC, 'utf8').matchAll(/^### (VC-\d+)\b/gm)].map((m) => m[1]);
    expect(documented).to.deep.equal([...new Set(ALLOWED.map((entry: AllowedDifference) => entry.id))]);
  });
});
