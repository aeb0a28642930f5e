import { expect } from 'chai';
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  IfscDirectory, SourceFormatError, TarFormatError, buildSnapshot, importBranches, loadDirectory, readCsvRows,
  readTarEntries, type Branch,
} from '@satyapan/bank';
import { runCli } from '../src/cli/ifsc-cli.js';
import { byBankFiles, ifscCsv, RAW_BRANCHES } from './support/branches.js';
import { tarArchive, tempDir, writeFiles } from './support/fixtures.js';

async function* chunksOf(text: string, size: number): AsyncGenerator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

async function rows(text: string, size = 7): Promise<string[][]> {
  const out: string[][] = [];
  for await (const row of readCsvRows(chunksOf(text, size))) out.push(row);
  return out;
}

function byIfsc(branches: Branch[]): Map<string, Branch> {
  return new Map(branches.map((b) => [b.IFSC, b]));
}

describe('bank: IFSC dataset import', () => {
  let dir: { path: string; cleanup: () => Promise<void> };
  before(async () => {
    dir = await tempDir('import');
  });
  after(async () => {
    await dir.cleanup();
  });

  describe('CSV reader', () => {
    it('handles quotes, escaped quotes, commas and line breaks inside cells, CRLF and a BOM, across chunk edges', async () => {
      const text = '\uFEFFA,B,C\r\n"x, y","say ""hi""","two\nlines"\r\nplain,,last\n\n';
      expect(await rows(text, 3)).to.deep.equal([
        ['\uFEFFA', 'B', 'C'], ['x, y', 'say "hi"', 'two\nlines'], ['plain', '', 'last'],
      ]);
    });

    it('reads a last line without a line break and rejects an unterminated quote', async () => {
      expect(await rows('a,b\n1,2')).to.deep.equal([['a', 'b'], ['1', '2']]);
      try {
        await rows('a,b\n"1,2\n');
        expect.fail('expected a CSV format error');
      } catch (error) {
        expect((error as Error).name).to.equal('CsvFormatError');
      }
    });
  });

  describe('tar reader', () => {
    it('reads ustar entries, including a pax long path, from an archive it did not write', async () => {
      const longName = `data/${'nested/'.repeat(16)}ABNA.json`;
      const archive = tarArchive({ 'data/YESB.json': '{"a":1}', [longName]: 'x'.repeat(1500) });
      const entries = [];
      for await (const entry of readTarEntries([archive.subarray(0, 700), archive.subarray(700)])) entries.push(entry);
      expect(entries.map((e) => e.path)).to.deep.equal(['data/YESB.json', longName]);
      expect(entries[1]?.data.toString()).to.equal('x'.repeat(1500));
    });

    it('rejects a damaged header and a truncated body', async () => {
      const archive = tarArchive({ 'A.json': 'y'.repeat(2000) });
      const damaged = Buffer.from(archive);
      damaged[10] = 0x41;
      const drain = async (input: Buffer): Promise<void> => {
        for await (const entry of readTarEntries([input])) void entry;
      };
      for (const input of [damaged, archive.subarray(0, 1024)]) {
        try {
          await drain(input);
          expect.fail('expected a tar format error');
        } catch (error) {
          expect(error).to.be.instanceOf(TarFormatError);
        }
      }
    });
  });

  describe('importing Razorpay layouts', () => {
    it('imports IFSC.csv: NA gaps become "", flags become booleans, the sublet gets its bank code', async () => {
      const path = join(dir.path, 'IFSC.csv');
      await writeFile(path, ifscCsv());
      const { branches, report } = await importBranches(path);
      expect(report).to.include({ kind: 'csv', records: 8, branches: 8, skipped: 0, duplicates: 0, sublets: 1 });
      const map = byIfsc(branches);
      expect(map.get('ABNA0000001')).to.deep.equal({
        ADDRESS: '414 EMPIRE COMPLEX, SENAPATI BAPAT MARG LOWER PAREL WEST MUMBAI 400013',
        BANK: 'Royal Bank of Scotland N.V.', BANKCODE: 'ABNA', BRANCH: 'RTGS-HO', CENTRE: 'MUMBAI',
        CITY: 'GREATER BOMBAY', CONTACT: '', DISTRICT: 'MUMBAI', IFSC: 'ABNA0000001', IMPS: true, ISO3166: 'IN-MH',
        MICR: '', NEFT: false, RTGS: true, STATE: 'MAHARASHTRA', SWIFT: '', UPI: false,
      });
      expect(map.get('FDRL0NCUB01')).to.include({
        BANK: 'Nilambur Co-operative Urban Bank', BANKCODE: 'NCUB', ADDRESS: 'NA', DISTRICT: 'NA', IMPS: true,
      });
      expect(map.get('YESB0DNB002')?.BANKCODE, 'no bank of that name in the data: keeps its prefix').to.equal('YESB');
      expect(map.get('YESB0000001')?.ADDRESS).to.contain('BESANT ROAD,, NEXT TO');
    });

    it('imports a by-bank folder the same way, and Razorpay metadata files found beside it are applied', async () => {
      const folder = join(dir.path, 'by-bank');
      await writeFiles(folder, {
        ...byBankFiles(),
        'sublet.json': JSON.stringify({ YESB0DNB002: 'DENS' }),
        'README.md': 'not data',
        'banks.json': JSON.stringify({ ABNA: { code: 'ABNA', type: 'Foreign' } }),
      });
      const { branches, report } = await importBranches(folder);
      expect(report).to.include({ kind: 'by-bank-folder', files: 5, branches: 8, sublets: 2 });
      const map = byIfsc(branches);
      expect(map.get('YESB0DNB002')).to.include({ BANK: 'Delhi Nagrik Sehkari Bank', BANKCODE: 'DENS' });
      expect(map.get('RBIS0AGPA01')?.IMPS, 'the upper-case flag wins over the lower-case artefact').to.equal(true);
    });

    it('gives the same directory from a by-bank .tar.gz (ours and system tar) as from the CSV', async () => {
      const csvPath = join(dir.path, 'same.csv');
      await writeFile(csvPath, ifscCsv());
      const ours = join(dir.path, 'by-bank.tar.gz');
      await writeFile(ours, tarArchive(byBankFiles('data/'), { gzip: true }));
      const staged = join(dir.path, 'staged');
      await writeFiles(staged, byBankFiles());
      const system = join(dir.path, 'system.tar.gz');
      execFileSync('tar', ['-czf', system, '-C', staged, '.']);
      const plainTar = join(dir.path, 'plain.tar');
      execFileSync('tar', ['-cf', plainTar, '-C', staged, '.']);

      const fromCsv = (await importBranches(csvPath)).branches;
      for (const archive of [ours, system, plainTar]) {
        const { branches, report } = await importBranches(archive);
        expect(report.kind).to.equal('by-bank-tar');
        expect(byIfsc(branches)).to.deep.equal(byIfsc(fromCsv));
      }
    });

    it('explicit metadata resolves sublets by custom prefix and fills missing bank names', async () => {
      const folder = join(dir.path, 'nameless');
      const rows: Record<string, unknown>[] = (RAW_BRANCHES['ABNA'] ?? []).map((row) => ({ ...row, BANK: null }));
      await writeFiles(folder, {
        'ABNA.json': JSON.stringify(Object.fromEntries(rows.map((r) => [r['IFSC'] as string, r]))),
        ...Object.fromEntries(Object.entries(byBankFiles()).filter(([name]) => name !== 'ABNA.json')),
      });
      const { branches } = await importBranches(folder, {
        metadata: { bankNames: { ABNA: 'RBS (from banknames.json)' }, customSublets: { YESB0DNB: 'DENS' } },
      });
      const map = byIfsc(branches);
      expect(map.get('ABNA0100310')?.BANK).to.equal('RBS (from banknames.json)');
      expect(map.get('YESB0DNB002')?.BANKCODE).to.equal('DENS');
    });

    it('skips records without a usable IFSC and keeps the first of duplicates', async () => {
      const path = join(dir.path, 'messy.csv');
      const csv = ifscCsv().split('\r\n');
      const duplicate = (csv[1] as string).replace('RTGS-HO', 'SECOND COPY');
      await writeFile(path, [...csv.slice(0, -1), duplicate, 'Some Bank,BAD,X,,,,,,,,,,,,,', ''].join('\n'));
      const { branches, report } = await importBranches(path);
      expect(report).to.include({ records: 10, branches: 8, duplicates: 1, skipped: 1 });
      expect(byIfsc(branches).get('ABNA0000001')?.BRANCH).to.equal('RTGS-HO');
    });

    it('rejects files that are none of the supported layouts', async () => {
      const path = join(dir.path, 'garbage.bin');
      await writeFile(path, Buffer.from([0, 1, 2, 3, 4]));
      try {
        await importBranches(path);
        expect.fail('expected a source format error');
      } catch (error) {
        expect(error).to.be.instanceOf(SourceFormatError);
      }
    });
  });

  describe('snapshots and the CLI', () => {
    it('buildSnapshot -> loadDirectory round-trips every branch, raw and gzip-compressed', async () => {
      const source = join(dir.path, 'round.csv');
      await writeFile(source, ifscCsv());
      const { snapshot } = await buildSnapshot(source);
      const { branches } = await importBranches(source);
      const directory = IfscDirectory.fromSnapshot(snapshot);
      expect(directory.size).to.equal(8);
      expect(directory.metadata).to.include({ source: 'csv:round.csv', branches: 8, banks: 5 });
      for (const branch of branches) expect(directory.lookup(branch.IFSC)).to.deep.equal(branch);
      expect([...directory.branches()].map((b) => b.IFSC)).to.deep.equal(branches.map((b) => b.IFSC).sort());
    });

    it('satyapan-ifsc import writes a snapshot that info and lookup read back', async () => {
      const archive = join(dir.path, 'cli.tar.gz');
      await writeFile(archive, tarArchive(byBankFiles(), { gzip: true }));
      const out = join(dir.path, 'directory.bin');
      const printed = await runCli(['import', archive, '--out', out]);
      expect(printed).to.match(/^8 branches of 5 banks from 5 file\(s\) \(by-bank-tar\); 1 sublet branches/);
      const info = JSON.parse(await runCli(['info', out])) as { branches: number; source: string };
      expect(info).to.include({ branches: 8, source: 'by-bank-tar:cli.tar.gz' });
      const branch = JSON.parse(await runCli(['lookup', out, 'ncub0000001'])) as Branch;
      expect(branch).to.include({ IFSC: 'NCUB0000001', BANKCODE: 'NCUB', MICR: '679792102' });
      const gz = join(dir.path, 'directory.bin.gz');
      await runCli(['import', archive, '--out', gz]);
      expect((await readFile(gz))[0]).to.equal(0x1f);
      expect((await loadDirectory(gz)).lookup('FDRL0NCUB01')?.BANKCODE).to.equal('NCUB');
    });

    it('satyapan-ifsc lookup <IFSC> without a directory answers from the bundled sample', async () => {
      const branch = JSON.parse(await runCli(['lookup', 'kkbk0000131'])) as Branch;
      expect(branch).to.include({ IFSC: 'KKBK0000131', BANKCODE: 'KKBK', CITY: 'KANPUR' });
      try {
        await runCli(['lookup', 'ZZZZ0000001']);
        expect.fail('expected an error');
      } catch (error) {
        expect((error as Error).message).to.equal('IFSC not found: ZZZZ0000001 in the bundled sample directory; give a full one: satyapan-ifsc lookup <directory.bin> <IFSC>');
      }
      // A lone argument that is no IFSC is a directory without its IFSC: usage, as before.
      await runCli(['lookup', 'directory.bin']).then(() => expect.fail('expected usage'), (error: Error) => expect(error.message).to.match(/^usage:/));
      // The command itself, as a shell runs it (from source: the tests need no build).
      const bin = fileURLToPath(new URL('../src/cli/bin.ts', import.meta.url));
      const { stdout } = await promisify(execFile)(process.execPath, ['--conditions=satyapan-source', '--import', 'tsx', bin, 'lookup', 'KKBK0000131']);
      expect(JSON.parse(stdout)).to.include({ IFSC: 'KKBK0000131' });
    });

    it('the CLI samples a source and explains its usage', async () => {
      const folder = join(dir.path, 'for-sample');
      await writeFiles(folder, byBankFiles());
      const out = join(dir.path, 'sample.bin');
      await runCli(['sample', folder, '--out', out, '--per-state', '1', '--per-bank', '1', '--per-sublet', '1']);
      const sample = await loadDirectory(out);
      const states = new Set([...sample.branches()].map((b) => b.STATE));
      const banks = new Set([...sample.branches()].map((b) => b.BANKCODE));
      expect(states).to.deep.equal(new Set(['MAHARASHTRA', 'KERALA', 'TRIPURA']));
      expect(banks).to.deep.equal(new Set(['ABNA', 'FDRL', 'NCUB', 'RBIS', 'YESB']));
      expect(await runCli([])).to.match(/^usage:/);
      try {
        await runCli(['import', folder]);
        expect.fail('expected a usage error');
      } catch (error) {
        expect((error as Error).message).to.equal('--out is required');
      }
    });

    it('loadDirectory also accepts a source directly (slower than a snapshot)', async () => {
      const folder = join(dir.path, 'direct');
      await writeFiles(folder, byBankFiles());
      const directory = await loadDirectory(folder);
      expect(directory.lookup('yesb0000001')?.BANK).to.equal('Yes Bank');
    });
  });
});
