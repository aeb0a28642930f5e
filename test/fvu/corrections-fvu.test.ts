/**
 * The official validator on our correction statements (FH 4 = C), each handed to Protean's FVU 9.4 with the conso
 * file it was built on (`run-fvu.sh --conso`). Three sets:
 *
 * 1. Corrections of every type the FVU allows (C1 with a C5, C2 with a C3, C3 update and add, C5, C5 of a remark-C
 *    row, C9 of a government deductor) on conso files our test writer makes (packages/statement-engine/test/support/
 *    conso.ts). The FVU checks a conso file's own hash (FH 15), which only TRACES can make, and calls every other
 *    file not genuine: T-FV-1038. It then stops before reading the correction, so for these files the verdict proves
 *    only that the FVU took the pair up to that check: allowed are T-FV-1038 and T-FV-1041 (no CSI), nothing else.
 * 2. Corrections on the redacted copy of a real conso file (packages/statement-engine/test/fixtures/conso/): the
 *    redaction broke its hash, so the FVU's verdict is pinned to exactly T-FV-1038.
 * 3. When SATYAPAN_FVU_GENUINE_CONSO names a genuine conso file of the same statement (the public file the fixture
 *    was redacted from, `mki30/TdsMan` CorrectionFiles/MRTR03328D_201415_26Q_Q2.tds) and `faketime` is installed,
 *    the same corrections on it must be VALID. The FVU refuses a correction more than two years after the end of the
 *    statement's financial year (T_FV_6382), so these run with the clock at 15-Jun-2015 (faketime), the statement
 *    dated that day. The identity (TAN, names, PANs) is read from the file, so none is kept in the repository.
 *
 * Without SATYAPAN_FVU_DIR the suite is skipped with one loud line, as the regular FVU suite is.
 */
import { expect } from 'chai';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { convert, correct, parseConso, type ConvertOptions } from '@satyapan/statement-engine';
import { writeConso } from '../../packages/statement-engine/test/support/conso.js';
import { form26qParts, OPTIONS_26Q } from '../../packages/statement-engine/test/support/fixtures.js';
import { identityOf, realConso, realConsoOptions, realConsoParts, REDACTED, type ConsoIdentity } from '../../packages/statement-engine/test/support/real-conso.js';
import { buildWorkbook, ist, type WorkbookParts } from '../../packages/statement-engine/test/support/sheet-json.js';

const FVU_DIR = process.env.SATYAPAN_FVU_DIR;
const GENUINE_CONSO = process.env.SATYAPAN_FVU_GENUINE_CONSO;
const PARALLEL_RUNS = 2;
const RUN_TIMEOUT_MS = 180_000;
/** Inside the real statement's correction window (T_FV_6382): the FVU's clock and the statement's date. */
const GENUINE_CLOCK = '2015-06-15T12:00:00+05:30';
const TOKEN = '123456789012345';
const THRESHOLD = 'transaction_where_tax_not_been_deducted_as_amount_paid_to_vendor_party_has_not_exceeded_the_threshold_limit';

interface Correction { title: string; txt: string; conso: string; clock: string | null; allowed: ReadonlySet<string>; exactly: readonly string[] | null }
interface Verdict { verdict: string; codes: string[]; output: string }

type Change = (p: WorkbookParts) => void;

/** Changes of the 26Q fixture (2 challans, 5 rows), one per correction type the FVU allows, and their batches. */
const SYNTHETIC: ReadonlyArray<{ title: string; batches: string; change: Change; government?: boolean }> = [
  { title: 'C3 update (amount paid)', batches: 'C3', change: (p) => (p.payments[3]!.payment_amount = 115000) },
  { title: 'C3 add (a row under challan 1, the challan\'s tax raised)', batches: 'C3', change: (p) => {
    p.payments.push({ ...p.payments[0]!, payment_amount: 50000, tds_amount: 1000, payment_date_epoch: ist('2025-11-02'), deduction_date_epoch: ist('2025-11-02') });
    p.challans[0]!.tds_amount = 13000;
  } },
  { title: 'C5 (valid PAN to another)', batches: 'C5', change: (p) => (p.payees[3]!.pan = 'CDEHS4567K') },
  { title: 'C5 of a remark-C row (its PAN given)', batches: 'C5', change: (p) => {
    p.payees[2]!.pan = 'BCDPD1234E';
    delete p.payments[2]!.reason_for_lower_deduction;
  } },
  { title: 'C1 with a C5 (deductor e-mail and address)', batches: 'C1,C5', change: (p) => {
    p.payer.email = 'accounts@acme.example';
    p.payer.street = '14 Marine Drive';
    p.payees[3]!.pan = 'CDEHS4567K';
  } },
  { title: 'C2 with a C3 (challan interest, a row of the other challan; details ride on C2)', batches: 'C2,C3', change: (p) => {
    p.payer.email = 'accounts@acme.example';
    p.challans[1]!.interest = 100;
    p.payments[0]!.payment_amount = 410000;
  } },
  { title: 'C9 (a challan added by a State Government deductor)', batches: 'C9', government: true, change: (p) => {
    p.challans.push({ ...p.challans[1]!, challan_serial: '00303', paid_date_epoch: ist('2026-01-20'), tds_amount: 5000, interest: 0, late_filing_fees: 0, other_penalty: 0 });
    p.payments.push({ ...p.payments[3]!, challan_serial: '00303', payment_amount: 50000, tds_amount: 5000 });
  } },
];

/** Changes of the real conso file's statement (3 matched challans of one row: no C2, and C9 is refused for a firm). */
const REAL: ReadonlyArray<{ title: string; batches: string; change: (p: WorkbookParts, id: ConsoIdentity) => void }> = [
  { title: 'C3 update (amount paid)', batches: 'C3', change: (p) => (p.payments[0]!.payment_amount = 31000) },
  { title: 'C3 update (tax deducted lowered)', batches: 'C3', change: (p) => (p.payments[1]!.tds_amount = 2900) },
  { title: 'C3 add (a row without tax under challan 3)', batches: 'C3', change: (p) => p.payments.push({ ...p.payments[2]!, payment_amount: 2000, tds_amount: 0, deduction_date_epoch: null, reason_for_lower_deduction: THRESHOLD }) },
  { title: 'C1 with a C5 (the responsible person\'s PAN the file lacks; a PAN changed)', batches: 'C1,C5', change: (p, id) => {
    p.payees.push({ sr_no: 2, pan: 'ABCPK1234G', name: id.deducteeName });
    p.payments[0]!.payee_sr_no = 2;
  } },
  { title: 'C3 with a C5 and the deductor\'s e-mail', batches: 'C3,C5', change: (p, id) => {
    p.payer.email = 'ACCOUNTS@EXAMPLE.COM';
    p.payments[1]!.payment_amount = 30500;
    p.payees.push({ sr_no: 2, pan: 'ABCPK1234G', name: id.deducteeName });
    p.payments[2]!.payee_sr_no = 2;
  } },
];

function built(title: string, workbook: unknown, conso: string, options: ConvertOptions, batches: string): string {
  const result = correct(workbook, conso, options);
  if (result.txt === null) throw new Error(`${title}: no correction: ${result.report.problems.filter((p) => p.severity === 'error').map((p) => `${p.code} ${p.message}`).join('; ')}`);
  expect(result.batches.map((b) => b.type).join(','), title).to.equal(batches);
  return result.txt;
}

function syntheticCorrections(): Correction[] {
  const options = { ...OPTIONS_26Q, now: () => new Date() };
  return SYNTHETIC.map(({ title, batches, change, government }) => {
    const parts = () => {
      const p = form26qParts();
      if (government) Object.assign(p.payer, { deductor_type: 'S', government_state_code: 'MAHARASHTRA' });
      return p;
    };
    const original = convert(buildWorkbook(parts()), options).txt!;
    const conso = writeConso(original, { token: TOKEN });
    const changed = parts();
    change(changed);
    return { title: `synthetic conso: ${title}`, txt: built(title, buildWorkbook(changed), conso, options, batches), conso, clock: null, allowed: new Set(['T-FV-1038', 'T-FV-1041']), exactly: null };
  });
}

function realCorrections(conso: string, id: ConsoIdentity, options: ConvertOptions, label: string, pinned: readonly string[] | null, clock: string | null): Correction[] {
  return REAL.map(({ title, batches, change }) => {
    const parts = realConsoParts(id);
    change(parts, id);
    return { title: `${label}: ${title}`, txt: built(title, buildWorkbook(parts), conso, options, batches), conso, clock, allowed: new Set(), exactly: pinned };
  });
}

function genuineCorrections(): Correction[] {
  const conso = readFileSync(GENUINE_CONSO!, 'latin1');
  const id = identityOf(parseConso(conso, { tan: /\^BH\^(?:[^^]*\^){10}([A-Z0-9]{10})\^/.exec(conso)![1]!, form: '26Q', yearCode: '201415', quarter: 'Q2' }));
  return realCorrections(conso, id, realConsoOptions(id, () => new Date(GENUINE_CLOCK)), 'genuine conso', null, GENUINE_CLOCK);
}

function hasFaketime(): boolean {
  try {
    execFileSync('faketime', ['-f', '@2015-06-15 12:00:00', 'true']);
    return true;
  } catch {
    return false;
  }
}

/**
 * One FVU run. Under faketime the FVU sometimes ends before writing its .err (its window code throws), so the codes
 * are read from the HTML error file it wrote when the runner reports NO-RESULT.
 */
function runFvu(dir: string, work: string, name: string, c: Correction): Promise<Verdict> {
  const txt = join(work, `${name}.txt`);
  const conso = join(work, `${name}.tds`);
  const keep = join(work, `${name}.keep`);
  writeFileSync(txt, c.txt, 'latin1');
  writeFileSync(conso, c.conso, 'latin1');
  const runner = join(dir, 'run-fvu.sh');
  const args = ['--conso', conso, '--keep', keep, txt];
  const [command, argv] = c.clock ? ['faketime', ['-f', `@${c.clock.slice(0, 10)} 12:00:00`, runner, ...args]] : [runner, args];
  return new Promise((resolve) => {
    execFile(command, argv as string[], { env: { ...process.env, TZ: 'Asia/Kolkata' }, timeout: RUN_TIMEOUT_MS, maxBuffer: 16 << 20 }, (error, stdout, stderr) => {
      const output = `${stdout}${stderr}${error?.killed ? `\n(killed after ${RUN_TIMEOUT_MS} ms)` : ''}`;
      let verdict = /VERDICT: (\S+)/.exec(stdout)?.[1] ?? 'NO-RESULT';
      let text = stdout.split('\n').filter((l) => /\^(T[-_]FV[-_]\d+)\^/.test(l)).join('\n');
      const html = join(keep, 'stmterr.html');
      if (verdict === 'NO-RESULT' && existsSync(html)) {
        text = readFileSync(html, 'latin1');
        verdict = 'INVALID';
      }
      resolve({ verdict, codes: [...new Set(text.match(/T[-_]FV[-_]\d+/g) ?? [])], output: `${output}\n${verdict === 'INVALID' && !stdout.includes('INVALID') ? text.replace(/<[^>]*>/g, ' ') : ''}` });
    });
  });
}

async function inPool<T>(items: readonly T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => { while (next < items.length) await work(items[next++]!); };
  await Promise.all(Array.from({ length: size }, lane));
}

describe('the official FVU (9.4) on our correction statements, with their conso files', function () {
  if (!FVU_DIR) {
    console.log('!!! FVU correction suite SKIPPED: SATYAPAN_FVU_DIR is not set (point it at a folder like ../shared/tools/fvu)');
    it.skip('needs SATYAPAN_FVU_DIR');
    return;
  }
  const corrections: Correction[] = [
    ...syntheticCorrections(),
    ...realCorrections(realConso(), REDACTED, realConsoOptions(REDACTED, () => new Date()), 'redacted real conso', ['T-FV-1038'], null),
  ];
  if (!GENUINE_CONSO) console.log('!!! FVU corrections on a genuine conso file SKIPPED: SATYAPAN_FVU_GENUINE_CONSO is not set (see the header of corrections-fvu.test.ts)');
  else if (!hasFaketime()) console.log('!!! FVU corrections on a genuine conso file SKIPPED: faketime is not installed (Debian package faketime)');
  else corrections.push(...genuineCorrections());
  const verdicts = new Map<string, Verdict | Error>();
  let work = '';

  before(async function () {
    this.timeout(corrections.length * RUN_TIMEOUT_MS);
    work = mkdtempSync(join(tmpdir(), 'satyapan-fvu-corr-'));
    await inPool(corrections.map((c, i) => ({ c, i })), PARALLEL_RUNS, async ({ c, i }) => {
      try {
        verdicts.set(c.title, await runFvu(FVU_DIR, work, `c${i}`, c));
      } catch (error) {
        verdicts.set(c.title, error as Error);
      }
    });
  });

  after(() => { if (work) rmSync(work, { recursive: true, force: true }); });

  for (const c of corrections) {
    const expectation = c.exactly ? `refused with exactly ${c.exactly.join(', ')} (not genuine: its hash is TRACES')` : c.allowed.size > 0 ? `no code but ${[...c.allowed].join(', ')}` : 'VALID';
    it(`${c.title}: ${expectation}`, () => {
      const verdict = verdicts.get(c.title);
      if (verdict instanceof Error) throw verdict;
      expect(verdict, 'no FVU run').to.not.equal(undefined);
      if (c.exactly) {
        expect(verdict!.codes, verdict!.output).to.deep.equal(c.exactly);
      } else if (c.allowed.size > 0) {
        expect(verdict!.verdict, verdict!.output).to.be.oneOf(['VALID', 'INVALID']);
        expect(verdict!.codes.filter((code) => !c.allowed.has(code)), verdict!.output).to.deep.equal([]);
      } else {
        expect(verdict!.verdict, verdict!.output).to.equal('VALID');
      }
    });
  }
});
