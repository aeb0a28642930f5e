// The streaming form gives the same TXT and the same problems as convert(), whatever the chunking, the key
// order or the memory budget, and cleans up its temporary files.

import { expect } from 'chai';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { convert, convertFile, convertStream, validateFile, writeSheetJsonXlsx, type ValidationReport } from '../src/index.js';
import { baseline, BASELINE_NAMES } from './support/baselines.js';
import { form140Parts, form26qParts, OPTIONS_140, OPTIONS_26Q } from './support/fixtures.js';
import { form24qQ4Parts, OPTIONS_24Q_Q4 } from './support/more-fixtures.js';
import { buildWorkbook, ist } from './support/sheet-json.js';
import { chunks, readAll, written, writtenWithSummary } from './support/streaming.js';

const sortedProblems = (r: ValidationReport) => r.problems.map((p) => JSON.stringify(p)).sort();

describe('streaming conversion', () => {
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'engine-stream-test-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const name of BASELINE_NAMES) {
    const { title, parts, options } = baseline(name);
    it(`${title}: convertFile gives convert()'s TXT and report`, async () => {
      const workbook = buildWorkbook(parts);
      const path = join(dir, `${title.replace(/\s/g, '')}.json`);
      writeFileSync(path, JSON.stringify(workbook, null, 2));
      const expected = convert(workbook, options);
      const conversion = await convertFile(path, options);
      expect(conversion.report).to.deep.equal(expected.report);
      expect(await readAll(conversion)).to.equal(expected.txt);
    });
  }

  it('chunk boundaries anywhere (3-byte chunks, multi-byte UTF-8 names) change nothing', async () => {
    const parts = form26qParts();
    parts.payees[1]!.name = 'Kiran Kumar é';
    const workbook = buildWorkbook(parts);
    const expected = convert(workbook, OPTIONS_26Q);
    const conversion = await convertStream(chunks(JSON.stringify(workbook, null, 1), 3), OPTIONS_26Q);
    expect(conversion.report).to.deep.equal(expected.report);
    expect(await readAll(conversion)).to.equal(expected.txt);
  });

  it('any key order: workbook name last, payment sheet first, rows before a block name and header, blocks before a sheet name', async () => {
    const workbook = buildWorkbook(form140Parts());
    const sheets = workbook.sheets.map((s) => ({
      blocks: s.blocks.map((b) => {
        const { name, header, ...rest } = b as Record<string, unknown>;
        return { ...rest, header, name };
      }),
      name: s.name,
    }));
    const reordered = { sheets: [sheets[3], sheets[2], sheets[0], sheets[1]], name: workbook.name };
    const expected = convert(workbook, OPTIONS_140);
    const conversion = await convertStream(chunks(JSON.stringify(reordered), 50), OPTIONS_140);
    expect(conversion.report).to.deep.equal(expected.report);
    expect(await readAll(conversion)).to.equal(expected.txt);
  });

  it('a tiny memory budget spills every record and still writes the same TXT (many challans, 24Q Q4 salary)', async () => {
    const parts = form26qParts();
    for (let i = 0; i < 400; i++) {
      const serial = String(30000 + (i % 40));
      if (i < 40) parts.challans.push({ ...parts.challans[0]!, challan_serial: serial, interest: 0, tds_amount: 1000 });
      parts.payments.push({ ...parts.payments[1]!, challan_serial: serial, payment_amount: 1000 + i, tds_amount: 100, payee_sr_no: 1 + (i % 2) * 3 });
    }
    for (const [p, o] of [
      [parts, OPTIONS_26Q],
      [form24qQ4Parts(), OPTIONS_24Q_Q4],
    ] as const) {
      const workbook = buildWorkbook(p);
      const expected = convert(workbook, o);
      const conversion = await convertStream(chunks(JSON.stringify(workbook), 4096), o, { memoryBudget: 300 });
      expect(sortedProblems(conversion.report)).to.deep.equal(sortedProblems(expected.report));
      expect(await readAll(conversion)).to.equal(expected.txt);
      // writeTo copies spilled bytes directly: it must give the same bytes.
      const again = await convertStream(chunks(JSON.stringify(workbook), 4096), o, { memoryBudget: 300 });
      const { txt, summary } = await writtenWithSummary(again);
      expect(txt).to.equal(expected.txt);
      expect(summary.lines).to.equal(expected.txt!.split('\r\n').length - 1);
    }
  });

  it('records spilled in the background: a conversion that breaks off mid-file leaves no descriptor and no file behind', async () => {
    // Linux: /proc/self/fd lists the open descriptors.
    const openFds = () => readdirSync('/proc/self/fd').length;
    const parts = form26qParts();
    for (let i = 0; i < 3000; i++) parts.payments.push({ ...parts.payments[1]!, payment_amount: 1000 + i, tds_amount: 100 });
    const text = JSON.stringify(buildWorkbook(parts));
    const tmp = join(dir, 'spill-parent');
    mkdirSync(tmp);
    const before = openFds();
    // Broken near the end: many blocks of records are written (some still in flight) when the syntax error stops it.
    const conversion = await convertStream(chunks(`${text.slice(0, text.length - 300)}}}}`, 8192), OPTIONS_26Q, { memoryBudget: 20000, tmpDir: tmp });
    expect(conversion.report.problems.map((p) => p.code)).to.deep.equal(['INVALID_JSON']);
    for (let i = 0; i < 50 && openFds() > before; i++) await new Promise((r) => setTimeout(r, 10));
    expect(openFds()).to.equal(before);
    expect(readdirSync(tmp)).to.deep.equal([]);
  });

  it('a UTF-8 byte-order mark at the start of the file is skipped', async () => {
    const workbook = buildWorkbook(form26qParts());
    const path = join(dir, 'bom.json');
    writeFileSync(path, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(workbook))]));
    const conversion = await convertFile(path, OPTIONS_26Q);
    expect(conversion.report.errorCount).to.equal(0);
    expect(await readAll(conversion)).to.equal(convert(workbook, OPTIONS_26Q).txt);
  });

  it('invalid JSON is one INVALID_JSON problem and no TXT, wherever it breaks', async () => {
    const text = JSON.stringify(buildWorkbook(form26qParts()));
    for (const broken of [text.slice(0, text.length / 2), text.replace('"rows":[[', '"rows":[[,'), `${text} x`, '', 'nul', '{"name": "form26q_workbook", "sheets": [}']) {
      const conversion = await convertStream(chunks(broken, 1000), OPTIONS_26Q);
      expect(conversion.lines).to.equal(null);
      expect(conversion.report.problems.map((p) => p.code), broken.slice(0, 40)).to.deep.equal(['INVALID_JSON']);
    }
  });

  it('a wrong workbook or a broken envelope gives the problems convert() gives', async () => {
    const wrong = { ...buildWorkbook(form26qParts()), name: 'form24q_workbook' };
    const shape = { name: 'form26q_workbook', sheets: [{ name: 'payer_sheet', blocks: [{ name: 'payer_list' }] }] };
    for (const workbook of [wrong, shape, [1, 2], 'text']) {
      const conversion = await convertStream(chunks(JSON.stringify(workbook), 64), OPTIONS_26Q);
      expect(conversion.report).to.deep.equal(convert(workbook, OPTIONS_26Q).report);
      expect(conversion.lines).to.equal(null);
    }
  });

  it('writeTo a file or a stream gives the TXT, and the temporary files are gone afterwards', async () => {
    const workbook = buildWorkbook(form26qParts());
    const path = join(dir, 'w.json');
    writeFileSync(path, JSON.stringify(workbook));
    const expected = convert(workbook, OPTIONS_26Q).txt!;
    const tmp = mkdtempSync(join(tmpdir(), 'engine-spill-'));
    const conversion = await convertFile(path, OPTIONS_26Q, { tmpDir: tmp });
    expect(readdirSync(tmp)).to.have.length(1);
    const out = join(dir, 'out.txt');
    const summary = await conversion.writeTo(out);
    expect(readFileSync(out, 'latin1')).to.equal(expected);
    expect(summary).to.deep.equal({ bytes: expected.length, lines: expected.split('\r\n').length - 1 });
    expect(readdirSync(tmp)).to.deep.equal([]);

    const again = await convertFile(path, OPTIONS_26Q);
    expect(await written(again)).to.equal(expected);
    rmSync(tmp, { recursive: true, force: true });
  });

  it('convertFile reads a file of many chunks through reused buffers: the TXT convertStream gives, and no descriptor left open', async () => {
    const parts = form26qParts();
    for (let i = 0; i < 30000; i++) parts.payments.push({ ...parts.payments[1]!, payment_amount: 1000 + i, tds_amount: 0, payee_sr_no: 1 + (i % 2) * 3 });
    const text = JSON.stringify(buildWorkbook(parts), null, 1);
    expect(text.length).to.be.greaterThan(3 << 20); // several of the reader's 1 MiB chunks
    const path = join(dir, 'many-chunks.json');
    writeFileSync(path, text);
    const expected = await written(await convertStream(chunks(text, 65536), OPTIONS_26Q, { parallel: false }));
    const fds = readdirSync('/proc/self/fd').length;
    for (const parallel of [false, true]) expect(await written(await convertFile(path, OPTIONS_26Q, { parallel })), `parallel ${parallel}`).to.equal(expected);
    const failing = await convertFile(path, { ...OPTIONS_26Q, tan: 'MUMA99999E' });
    await failing.dispose();
    expect(failing.report.valid).to.equal(false);
    for (let i = 0; i < 50 && readdirSync('/proc/self/fd').length > fds; i++) await new Promise((r) => setTimeout(r, 10));
    expect(readdirSync('/proc/self/fd').length).to.be.at.most(fds);
  });

  it('convertFile closes the file at once when it stops reading early: bad options, a syntax error in the first chunk, a big file broken off', async () => {
    const good = join(dir, 'early-good.json');
    writeFileSync(good, JSON.stringify(buildWorkbook(form26qParts())));
    const broken = join(dir, 'early-broken.json');
    writeFileSync(broken, '{"name": "form26q_workbook", "sheets": [}');
    const parts = form26qParts();
    for (let i = 0; i < 30000; i++) parts.payments.push({ ...parts.payments[1]!, payee_sr_no: 1 + (i % 2) * 3 });
    const big = join(dir, 'early-big.json');
    writeFileSync(big, `${JSON.stringify(buildWorkbook(parts)).slice(0, 2_500_000)}}}`);
    const fds = readdirSync('/proc/self/fd').length;
    const refused = await convertFile(good, { ...OPTIONS_26Q, tan: 'nonsense' }).then(() => null, (e: { code?: string }) => e.code);
    expect(refused).to.equal('INVALID_TAN');
    expect(readdirSync('/proc/self/fd').length).to.be.at.most(fds);
    for (const path of [broken, big]) {
      const conversion = await convertFile(path, OPTIONS_26Q);
      expect(conversion.report.problems.map((p) => p.code)).to.deep.equal(['INVALID_JSON']);
      expect(readdirSync('/proc/self/fd').length, path).to.be.at.most(fds);
    }
  });

  it('convertFile reads a file with the zip signature as an .xlsx workbook, whatever its name', async () => {
    const { parts, options } = baseline('26Q');
    const path = join(dir, 'workbook-upload.bin');
    await writeSheetJsonXlsx(buildWorkbook(parts), path);
    const fds = readdirSync('/proc/self/fd').length;
    expect(await readAll(await convertFile(path, options))).to.equal(convert(buildWorkbook(parts), options).txt);
    for (let i = 0; i < 50 && readdirSync('/proc/self/fd').length > fds; i++) await new Promise((r) => setTimeout(r, 10));
    expect(readdirSync('/proc/self/fd').length).to.be.at.most(fds);
  });

  it('validateFile reports without writing; a missing file throws INPUT_UNREADABLE; progress is reported', async () => {
    const parts = form26qParts();
    parts.payments[0]!.deduction_date_epoch = ist('2025-09-30');
    const path = join(dir, 'v.json');
    writeFileSync(path, JSON.stringify(buildWorkbook(parts)));
    const report = await validateFile(path, OPTIONS_26Q);
    expect(report.valid).to.equal(false);
    expect(report.problems.map((p) => p.code)).to.include('DEDUCTION_DATE_BEFORE_QUARTER');
    let error: unknown;
    try {
      await convertFile(join(dir, 'absent.json'), OPTIONS_26Q);
    } catch (e) {
      error = e;
    }
    expect((error as { code?: string }).code).to.equal('INPUT_UNREADABLE');
    const seen: number[] = [];
    const conversion = await convertFile(path, OPTIONS_26Q, { onProgress: (p) => seen.push(p.bytesRead) });
    await conversion.dispose();
    expect(seen.at(-1)).to.equal(readFileSync(path).length);
  });
});
