// satyapan-statement correct, spawned as a process: the correction TXT, and the exit codes of the CLI
// (1 refused input: a conso file malformed, truncated or of another TAN/period, or refused changes; 2 usage or
// I/O; 3 self-check).

import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { convert, correct } from '../src/index.js';
import { writeConso } from './support/conso.js';
import { form26qParts, OPTIONS_26Q } from './support/fixtures.js';
import { buildWorkbook } from './support/sheet-json.js';

const CLI = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'cli.ts');
const NOW = '2026-05-10T11:00:00+05:30';
const STATEMENT = ['--form', '26Q', '--quarter', 'Q3', '--year', 'FY 2025-26', '--now', NOW];

function cli(args: string[]) {
  const r = spawnSync(process.execPath, ['--conditions=satyapan-source', '--import', 'tsx', CLI, ...args], { encoding: 'latin1' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('satyapan-statement correct', function () {
  this.timeout(30000);
  let dir: string;
  let conso: string;
  let corrected: string;
  let unchanged: string;
  const options = { ...OPTIONS_26Q, now: () => new Date(NOW) };
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'engine-correct-cli-'));
    const original = convert(buildWorkbook(form26qParts()), options).txt!;
    conso = join(dir, 'MUMA12345E_202526_26Q_Q3.tds');
    writeFileSync(conso, writeConso(original, { token: '123456789012345' }), 'latin1');
    const parts = form26qParts();
    parts.payments[3]!.payment_amount = 115000;
    corrected = join(dir, 'corrected.json');
    writeFileSync(corrected, JSON.stringify(buildWorkbook(parts)));
    unchanged = join(dir, 'unchanged.json');
    writeFileSync(unchanged, JSON.stringify(buildWorkbook(form26qParts())));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the correction TXT (--out) and the report; the same TXT as correct()', () => {
    const out = join(dir, 'correction.txt');
    const report = join(dir, 'report.json');
    const r = cli(['correct', '--conso', conso, '--workbook', corrected, ...STATEMENT, '--out', out, '--report', report]);
    expect(r.status, r.stderr).to.equal(0);
    const parts = form26qParts();
    parts.payments[3]!.payment_amount = 115000;
    expect(readFileSync(out, 'latin1')).to.equal(correct(buildWorkbook(parts), readFileSync(conso), options).txt);
    expect(r.stderr).to.match(/^wrote a correction of 1 batch\(es\): C3 \(1 challan\(s\)\)/);
    expect(JSON.parse(readFileSync(report, 'utf8'))).to.include({ valid: true });
    const stdout = cli(['correct', '--conso', conso, '--workbook', corrected, ...STATEMENT]);
    expect(stdout.status).to.equal(0);
    expect(stdout.stdout.startsWith('1^FH^NS1^C^10052026^')).to.equal(true);
  });

  it('exit 1: a conso file cut short, of another quarter, or a workbook with nothing to correct; one line naming the conso line', () => {
    const cut = join(dir, 'cut.tds');
    writeFileSync(cut, readFileSync(conso, 'latin1').split('\r\n').slice(0, 7).join('\r\n'), 'latin1');
    const r = cli(['correct', '--conso', cut, '--workbook', corrected, ...STATEMENT]);
    expect(r.status).to.equal(1);
    expect(r.stderr).to.match(/^satyapan-statement: conso file line 7: the file ends after 1 of the 3 deductee records/);
    expect(r.stderr.trimEnd().split('\n')).to.have.length(1);
    const other = cli(['correct', '--conso', conso, '--workbook', corrected, '--form', '26Q', '--quarter', 'Q2', '--year', 'FY 2025-26', '--now', NOW]);
    expect(other.status).to.equal(1);
    expect(other.stderr).to.match(/conso file line 2: the conso file is for Form 26Q 202526 Q3/);
    const nothing = cli(['correct', '--conso', conso, '--workbook', unchanged, ...STATEMENT]);
    expect(nothing.status).to.equal(1);
    expect(nothing.stderr).to.match(/CORRECTION_NOTHING_TO_CORRECT/);
    const y = cli(['correct', '--conso', conso, '--workbook', corrected, ...STATEMENT, '--types', 'C3,Y']);
    expect(y.status).to.equal(1);
    expect(y.stderr).to.match(/CORRECTION_CANCEL_DISCONTINUED/);
  });

  it('exit 2: no --conso, a conso file that does not exist, --previous-receipt-number', () => {
    const none = cli(['correct', '--workbook', corrected, ...STATEMENT]);
    expect([none.status, none.stderr.trim()]).to.deep.equal([2, 'satyapan-statement: correct needs --conso <conso file .tds> (see --help)']);
    const missing = cli(['correct', '--conso', join(dir, 'nope.tds'), '--workbook', corrected, ...STATEMENT]);
    expect(missing.status).to.equal(2);
    expect(missing.stderr).to.match(/cannot read the conso file .*nope.tds: ENOENT/);
    const prev = cli(['correct', '--conso', conso, '--workbook', corrected, ...STATEMENT, '--previous-receipt-number', '123456789012345']);
    expect(prev.status).to.equal(2);
  });
});
