import { expect } from 'chai';
import { copyFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isServiceError } from '@satyapan/core';
import {
  IfscDirectory, IfscService, branchView, SAMPLE_SNAPSHOT_PATH, SnapshotFormatError, SwappableDirectory, encodeSnapshot,
  loadSampleDirectory, type Branch, type BranchQuery,
} from '@satyapan/bank';
import { tempDir } from './support/fixtures.js';

/** The reference answer for a search: a plain filter over every branch, written independently of the index. */
function bruteForce(all: Branch[], query: Omit<BranchQuery, 'limit' | 'offset'>): string[] {
  const eq = (a: string, b: string): boolean => a.replace(/\s+/g, ' ').trim().toUpperCase() === b.trim().toUpperCase();
  const has = (a: string, b: string): boolean => a.toUpperCase().includes(b.trim().toUpperCase());
  return all.filter((b) =>
    (query.bank === undefined || eq(b.BANKCODE, query.bank) || eq(b.BANK, query.bank))
    && (query.state === undefined || eq(b.STATE, query.state) || eq(b.ISO3166, query.state))
    && (query.city === undefined || eq(b.CITY, query.city) || eq(b.CENTRE, query.city))
    && (query.district === undefined || eq(b.DISTRICT, query.district))
    && (query.q === undefined || has(b.BRANCH, query.q) || has(b.ADDRESS, query.q)),
  ).map((b) => b.IFSC);
}

async function expectServiceError(fn: () => unknown, status: number, message: string): Promise<void> {
  try {
    await fn();
    expect.fail(`expected ${status} ${message}`);
  } catch (error) {
    expect(isServiceError(error), String(error)).to.equal(true);
    expect(error).to.include({ status, message });
  }
}

describe('bank: IFSC directory, lookup and search', () => {
  let sample: IfscDirectory;
  let all: Branch[];
  before(async () => {
    sample = await loadSampleDirectory();
    all = [...sample.branches()];
  });

  describe('the shipped sample', () => {
    it('holds a few thousand real branches of many banks and every state', () => {
      expect(sample.size).to.be.within(3000, 5000);
      expect(new Set(all.map((b) => b.BANKCODE)).size).to.be.at.least(250);
      const iso = new Set(all.map((b) => b.ISO3166));
      for (const code of ['IN-MH', 'IN-KA', 'IN-TN', 'IN-DL', 'IN-KL', 'IN-AN', 'IN-LA', 'IN-LD', 'IN-SK', 'IN-DH']) {
        expect(iso.has(code), code).to.equal(true);
      }
      expect(sample.metadata.source).to.match(/^sample of by-bank-tar:/);
    });

    it('looks up a known branch exactly in the API shape, case-insensitively', () => {
      const branch = sample.lookup('ABNA0100310');
      expect(branch).to.deep.equal({
        ADDRESS: 'BRADY HOUSE,14 VEER NARIMAN ROAD,FORT, MUMBAI - 400023', BANK: 'Royal Bank of Scotland N.V.',
        BANKCODE: 'ABNA', BRANCH: 'BRADY HOUSE, MUMBAI', CENTRE: 'MUMBAI', CITY: 'GREATER BOMBAY', CONTACT: '',
        DISTRICT: 'MUMBAI', IFSC: 'ABNA0100310', IMPS: true, ISO3166: 'IN-MH', MICR: '400030002', NEFT: false,
        RTGS: true, STATE: 'MAHARASHTRA', SWIFT: '', UPI: false,
      });
      expect(Object.keys(branch as Branch)).to.deep.equal(Object.keys(branch as Branch).sort());
      expect(sample.lookup('abna0100310')).to.deep.equal(branch);
    });

    it('gives a sublet branch the code of the bank that uses it', () => {
      expect(sample.lookup('ICIC00KURLA')).to.include({
        BANK: 'Kurla Nagarik Sahakari Bank', BANKCODE: 'KNSB', IFSC: 'ICIC00KURLA', MICR: '400077002',
      });
    });

    it('answers undefined for unknown and malformed codes', () => {
      expect(sample.lookup('ABNA0999999')).to.equal(undefined);
      expect(sample.lookup('ABNA01003')).to.equal(undefined);
      expect(sample.lookup('ABNA01003\u00e910')).to.equal(undefined);
    });
  });

  describe('IfscService (operation 11)', () => {
    it('returns the branch, 404 with the canonical IFSC for unknown ones, 422 for a bad pattern', async () => {
      const service = new IfscService(sample);
      expect(service.lookupIfsc('icic00kurla').BANKCODE).to.equal('KNSB');
      await expectServiceError(() => service.lookupIfsc('abna0999999'), 404, 'IFSC not found: ABNA0999999');
      for (const bad of ['ABNA010031', 'ABNA01003100', '1BNA0100310', 'ABNA-100310', '']) {
        await expectServiceError(() => service.lookupIfsc(bad), 422, 'Invalid IFSC pattern');
      }
    });

    it('validates search paging and text lengths', async () => {
      const service = new IfscService(sample);
      await expectServiceError(() => service.searchBranches({ limit: 0 }), 422, 'Invalid limit: must be an integer from 1 to 100');
      await expectServiceError(() => service.searchBranches({ limit: 101 }), 422, 'Invalid limit: must be an integer from 1 to 100');
      await expectServiceError(() => service.searchBranches({ offset: -1 }), 422, 'Invalid offset: must be a non-negative integer');
      await expectServiceError(() => service.searchBranches({ q: 'x'.repeat(101) }), 422, 'Invalid q: must be at most 100 characters');
      expect(service.searchBranches({}).items).to.have.length(10);
      await expectServiceError(() => service.searchBranches({ pageSize: 0 }), 422, 'Invalid page_size: must be an integer from 1 to 100');
    });

    it('pages with pageSize and lastEvaluatedKey (issue 24), refusing cursors not its own and mixed paging with 400', async () => {
      const service = new IfscService(sample);
      const expected = bruteForce(all, { state: 'IN-KA' });
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = service.searchBranches({ state: 'IN-KA', pageSize: 41, ...(cursor !== undefined ? { lastEvaluatedKey: cursor } : {}) });
        expect(page.total).to.equal(expected.length);
        seen.push(...page.items.map((b) => b.IFSC));
        expect(page.lastEvaluatedKey === null).to.equal(seen.length === expected.length);
        cursor = page.lastEvaluatedKey ?? undefined;
      } while (cursor !== undefined);
      expect(seen).to.deep.equal(expected);
      // The deprecated offset answers a cursor too, so a caller can switch mid-way.
      const legacy = service.searchBranches({ state: 'IN-KA', limit: 5, offset: 5 });
      const next = service.searchBranches({ state: 'IN-KA', pageSize: 5, lastEvaluatedKey: legacy.lastEvaluatedKey as string });
      expect(next.items.map((b) => b.IFSC)).to.deep.equal(expected.slice(10, 15));
      const refused = 'Invalid parameter: last_evaluated_key is not a cursor of a previous page';
      const ifscCursor = Buffer.from('branch:not-an-ifsc').toString('base64url');
      for (const bad of ['abc', '!!!', Buffer.from('bulk:KKBK0000131').toString('base64url'), ifscCursor, '99999999999999999999']) {
        await expectServiceError(() => service.searchBranches({ lastEvaluatedKey: bad }), 400, refused);
      }
      await expectServiceError(() => service.searchBranches({ pageSize: 5, limit: 5 }), 400,
        'Invalid parameter: limit cannot be combined with page_size (limit is its deprecated name)');
      await expectServiceError(() => service.searchBranches({ lastEvaluatedKey: next.lastEvaluatedKey as string, offset: 1 }), 400,
        'Invalid parameter: offset cannot be combined with last_evaluated_key (offset is deprecated)');
    });
  });

  describe('search', () => {
    const cases: Omit<BranchQuery, 'limit' | 'offset'>[] = [
      { bank: 'KKBK' },
      { bank: 'kotak mahindra bank' },
      { bank: 'KNSB' },
      { state: 'IN-GA' },
      { state: 'goa' },
      { state: 'Tamil Nadu', bank: 'KKBK' },
      { city: 'pune' },
      { city: 'Greater Bombay' },
      { district: 'mumbai', q: 'nariman' },
      { q: 'nariman point' },
      { q: 'ImPs' },
      { bank: 'NOSUCHBANK' },
    ];
    for (const query of cases) {
      it(`matches a brute-force filter for ${JSON.stringify(query)}`, () => {
        const expected = bruteForce(all, query);
        if (query.bank !== 'NOSUCHBANK') expect(expected, 'the sample has matches').to.not.be.empty;
        const page = sample.search({ ...query, limit: 100, offset: 0 });
        expect(page.total).to.equal(expected.length);
        expect(page.items.map((b) => b.IFSC)).to.deep.equal(expected.slice(0, 100));
      });
    }

    it('pages through a result set without gaps or repeats', () => {
      const query = { state: 'MAHARASHTRA' };
      const expected = bruteForce(all, query);
      expect(expected.length).to.be.above(250);
      const seen: string[] = [];
      for (let offset = 0; ; offset += 37) {
        const page = sample.search({ ...query, limit: 37, offset });
        expect(page).to.include({ total: expected.length, limit: 37, offset });
        seen.push(...page.items.map((b) => b.IFSC));
        expect(page.hasNext).to.equal(seen.length < expected.length);
        if (!page.hasNext) break;
      }
      expect(seen).to.deep.equal(expected);
      expect(sample.search({ ...query, limit: 10, offset: expected.length + 5 })).to.include({ hasNext: false }).and.have.property('items').that.is.empty;
    });

    it('starts after an IFSC, in the directory or not, while total still counts every match', () => {
      const query = { bank: 'KKBK' };
      const expected = bruteForce(all, query);
      const middle = expected[20] as string;
      const page = sample.search({ ...query, limit: 5, offset: 0, after: middle });
      expect(page).to.include({ total: expected.length, hasNext: true });
      expect(page.items.map((b) => b.IFSC)).to.deep.equal(expected.slice(21, 26));
      // Not a branch of the directory (a swap may remove the last one seen): the next IFSC in order.
      const absent = 'KKBK0000000';
      expect(sample.lookup(absent)).to.equal(undefined);
      expect(sample.search({ ...query, limit: 1, offset: 0, after: absent }).items[0]?.IFSC).to.equal(expected.find((ifsc) => ifsc > absent));
      const tail = sample.search({ ...query, limit: 100, offset: 0, after: expected.at(-2) as string });
      expect(tail).to.include({ hasNext: false });
      expect(tail.items.map((b) => b.IFSC)).to.deep.equal(expected.slice(-1));
    });
  });

  describe('snapshot format', () => {
    it('decodes from an unaligned buffer and rejects damaged or foreign bytes', () => {
      const bytes = encodeSnapshot(all.slice(0, 50), 'test');
      const unaligned = Buffer.alloc(bytes.length + 1).subarray(1);
      bytes.copy(unaligned);
      expect(IfscDirectory.fromSnapshot(unaligned).lookup(all[7]?.IFSC ?? '')).to.deep.equal(all[7]);
      const damaged = Buffer.from(bytes);
      damaged.writeUInt8((damaged.at(-3) ?? 0) ^ 0xff, damaged.length - 3);
      expect(() => IfscDirectory.fromSnapshot(damaged)).to.throw(SnapshotFormatError, /checksum/);
      expect(() => IfscDirectory.fromSnapshot(bytes.subarray(0, 100))).to.throw(SnapshotFormatError);
      expect(() => IfscDirectory.fromSnapshot(Buffer.from('IFSC,BANK\n'))).to.throw(SnapshotFormatError);
    });
  });

  describe('hot swap', () => {
    let dir: { path: string; cleanup: () => Promise<void> };
    before(async () => {
      dir = await tempDir('swap');
    });
    after(async () => {
      await dir.cleanup();
    });

    it('swaps a new directory in, and a failed reload keeps the old one', async () => {
      const holder = new SwappableDirectory(IfscDirectory.fromBranches(all.slice(0, 10), 'first'));
      const service = new IfscService(holder);
      const later = all[500] as Branch;
      await expectServiceError(() => service.lookupIfsc(later.IFSC), 404, `IFSC not found: ${later.IFSC}`);
      const path = join(dir.path, 'next.bin');
      await writeFile(path, encodeSnapshot(all.slice(400, 600), 'second'));
      expect((await holder.reload(path)).source).to.equal('second');
      expect(service.lookupIfsc(later.IFSC)).to.deep.equal(branchView(later));
      await writeFile(path, 'not a snapshot');
      try {
        await holder.reload(path);
        expect.fail('expected the reload to fail');
      } catch {
        expect(holder.metadata.source).to.equal('second');
        expect(service.lookupIfsc(later.IFSC)).to.deep.equal(branchView(later));
      }
    });

    it('lookupIfscJson: the serialized lookupIfsc, cached within its bound and emptied by a swap', async () => {
      const holder = new SwappableDirectory(IfscDirectory.fromBranches(all.slice(0, 10), 'first'));
      const service = new IfscService(holder, 3);
      const first = all.slice(0, 5) as Branch[];
      for (const branch of first) {
        const answer = service.lookupIfscJson(branch.IFSC.toLowerCase());
        expect(answer.json).to.equal(JSON.stringify(service.lookupIfsc(branch.IFSC)));
        expect(answer.byteLength).to.equal(Buffer.byteLength(answer.json));
      }
      const again = service.lookupIfscJson(first[4]!.IFSC.toLowerCase());
      expect(service.lookupIfscJson(first[4]!.IFSC.toLowerCase())).to.equal(again);
      // Bounded: the oldest answers were dropped (a new object comes back), the newest kept.
      expect(service.lookupIfscJson(first[0]!.IFSC.toLowerCase())).to.not.equal(again);
      await expectServiceError(() => service.lookupIfscJson('abna0999999'), 404, 'IFSC not found: ABNA0999999');
      await expectServiceError(() => service.lookupIfscJson('AB-12'), 422, 'Invalid IFSC pattern');
      const edited = { ...first[4]!, BRANCH: 'RENAMED IN THE NEXT SNAPSHOT' };
      holder.swap(IfscDirectory.fromBranches([edited], 'second'));
      expect(JSON.parse(service.lookupIfscJson(first[4]!.IFSC.toLowerCase()).json).BRANCH).to.equal('RENAMED IN THE NEXT SNAPSHOT');
      await expectServiceError(() => service.lookupIfscJson(first[0]!.IFSC.toLowerCase()), 404, `IFSC not found: ${first[0]!.IFSC}`);
    });

    it('watch() reloads when a new snapshot is renamed into place', async () => {
      const path = join(dir.path, 'watched.bin');
      await writeFile(path, encodeSnapshot(all.slice(0, 5), 'v1'));
      const holder = new SwappableDirectory(await IfscDirectory.load(path));
      const reloaded = new Promise<string>((resolve, reject) => {
        holder.watch(path, { intervalMs: 50, onReload: (m) => resolve(m.source), onError: reject });
      });
      try {
        const staged = join(dir.path, 'staged.bin');
        await writeFile(staged, encodeSnapshot(all.slice(0, 20), 'v2'));
        await rename(staged, path);
        expect(await reloaded).to.equal('v2');
        expect(holder.size).to.equal(20);
      } finally {
        holder.unwatch();
      }
    });

    it('a router-style holder can start from the sample file copied elsewhere', async () => {
      const copy = join(dir.path, 'copy.bin.gz');
      await copyFile(SAMPLE_SNAPSHOT_PATH, copy);
      const holder = new SwappableDirectory(IfscDirectory.fromBranches([], 'empty'));
      expect(holder.size).to.equal(0);
      await holder.reload(copy);
      expect(holder.size).to.equal(sample.size);
    });
  });
});
