// examples/batch: converts a folder of workbooks, writing TXT and reports beside each.

import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { convert } from '../src/index.js';
import { form140Parts, form26qParts, OPTIONS_140, OPTIONS_26Q } from './support/fixtures.js';
import { buildWorkbook } from './support/sheet-json.js';

const MAIN = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'examples', 'batch', 'src', 'main.ts');

describe('examples/batch', function () {
  this.timeout(30000);
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'engine-batch-test-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('converts every workbook in a folder, reads per-workbook options, and reports the ones with errors', () => {
    writeFileSync(join(dir, 'acme-26q.json'), JSON.stringify(buildWorkbook(form26qParts())));
    writeFileSync(join(dir, 'zerobook-140.json'), JSON.stringify(buildWorkbook(form140Parts())));
    writeFileSync(join(dir, 'zerobook-140.options.json'), JSON.stringify({ quarter: 'Q1', financialYear: 'TY 2026-27' }));
    const broken = form26qParts();
    broken.payees[0]!.pan = 'BAD';
    writeFileSync(join(dir, 'broken-26q.json'), JSON.stringify(buildWorkbook(broken)));
    const r = spawnSync(process.execPath, ['--conditions=satyapan-source', '--import', 'tsx', MAIN, dir, '--quarter', 'Q3', '--year', 'FY 2025-26'], { encoding: 'utf8' });
    expect(r.status, r.stdout + r.stderr).to.equal(1);
    expect(r.stdout).to.include('3 workbook(s): 2 converted, 1 with errors, 0 not read');
    // Options without `now` use today's date as the file creation date: compare everything after FH 5.
    const withoutDate = (txt: string) => txt.replace(/^(1\^FH\^\w+\^R\^)\d{8}/, '$1');
    expect(withoutDate(readFileSync(join(dir, 'acme-26q.txt'), 'latin1'))).to.equal(withoutDate(convert(buildWorkbook(form26qParts()), { ...OPTIONS_26Q, now: undefined }).txt!));
    expect(withoutDate(readFileSync(join(dir, 'zerobook-140.txt'), 'latin1'))).to.equal(withoutDate(convert(buildWorkbook(form140Parts()), { ...OPTIONS_140, now: undefined }).txt!));
    expect(existsSync(join(dir, 'broken-26q.txt'))).to.equal(false);
    const report = JSON.parse(readFileSync(join(dir, 'broken-26q.report.json'), 'utf8')) as { valid: boolean; problems: Array<{ code: string }> };
    expect(report.valid).to.equal(false);
    expect(report.problems.map((p) => p.code)).to.include('INVALID_PAN');
    for (const stem of ['acme-26q', 'zerobook-140', 'broken-26q']) expect(existsSync(join(dir, `${stem}.report.xlsx`)), stem).to.equal(true);
  });
});
