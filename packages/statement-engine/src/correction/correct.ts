// correct(): a correction statement (upload type C) from the TRACES consolidated file of a statement and the
// corrected workbook. The workbook is converted as a regular statement first (the same rules, coercions and
// validation report); its records are then compared with the conso file's, and the differences become
// batches: C1 deductor details, C2 challan, C3 deductee add/update/delete, C5 PAN update, C9 added challans,
// each with the verification keys ("last" values) taken from the conso file (tds-corrections.md §1.3, §6).
// Every line is self-checked against the correction entries of the layout tables before it is given out.
// FORMAT_NOTES.md §15 lists what is sourced, what is chosen and what is refused.

import { closeSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { RowTrail } from '../assembly/stores.js';
import { convertTraced } from '../convert.js';
import { StatementEngineError } from '../errors.js';
import { TxtSelfCheck } from '../layouts/check.js';
import { parsePaise, formatPaise } from '../money.js';
import { resolveOptions, type ResolvedOptions } from '../options.js';
import type { Fields } from '../records/fields.js';
import { convertFile, linesInPlace, PARALLEL_MIN_BYTES, type StreamHooks, type WriteSummary } from '../stream/convert-stream.js';
import type { ConvertOptions, Problem, ValidationReport } from '../types.js';
import { challanPlace, describeChallan, PAN, Problems, same, StatementComparer, toFields, type ChallanChange, type Compared, type DeducteeChange } from './compare.js';
import { ConsoStream, parseConso, type ConsoChallan, type ConsoExpectation, type ConsoSource, type ConsoStatement } from './conso.js';
import { ConsoStreamInWorker } from './conso-in-worker.js';

/** The correction types (BH 6). C4 (salary) and Y (cancellation) are refused: FORMAT_NOTES.md §15. */
export type CorrectionType = 'C1' | 'C2' | 'C3' | 'C4' | 'C5' | 'C9' | 'Y';
export const CORRECTION_TYPES: readonly CorrectionType[] = ['C1', 'C2', 'C3', 'C4', 'C5', 'C9', 'Y'];
/** The types written, in batch order. */
const WRITTEN: readonly CorrectionType[] = ['C1', 'C2', 'C3', 'C5', 'C9'];

export interface CorrectOptions extends Omit<ConvertOptions, 'previousReceiptNumber' | 'csi'> {
  /** Token (RRR) of the regular statement, 15 digits (BH 8). Default: the conso file's BH 8. */
  originalReceiptNumber?: string;
  /** Token of the last accepted correction (BH 9, "previous RRR"). Default: the conso file's BH 9, which TRACES sets
   *  to the last processed correction's token (the original's when there was none); given, it must be the same. */
  lastCorrectionReceiptNumber?: string;
  /** The correction types the caller allows (default C1, C2, C3, C5, C9). Y is refused. */
  types?: readonly string[];
  /** The Challan Status Inquiry file, checked against the corrected workbook's challans as in convert(). */
  csi?: string | Uint8Array;
}

export interface CorrectionBatch {
  type: CorrectionType;
  /** Batch updation indicator written (BH 7): '' in C1, C5 and C9 batches, which must not give it (FVU T-FV-2070). */
  batchUpdation: '0' | '1' | '';
  challans: number;
  deductees: { added: number; updated: number; panUpdated: number };
}

export interface CorrectionResult {
  /** The correction TXT (CRLF line ends), or null when the report has an error. */
  txt: string | null;
  report: ValidationReport;
  batches: CorrectionBatch[];
}

// Fields compared between the conso file and the corrected workbook: those whose conso position is sourced
// (conso.ts CONSO_LAYOUT) and that the deductor can change. A change elsewhere is not seen (FORMAT_NOTES §15).
/** The deductor and responsible-person fields the workbook gives (records/header.ts): the ones compared. */
const BH_DETAILS = [15, ...range(19, 28), ...range(32, 43), 54, 57, 58, 59, 68, 69];
/** Detail fields the workbook has no column for: a batch carrying the details repeats the conso's, so they are not erased. */
const BH_FROM_CONSO = [29, 30, 44, 45, 55, 56, ...range(60, 67)];
const BH_ADDRESS = [21, 22, 23, 24, 25, 26, 27];
const BH_RP_ADDRESS = [35, 36, 37, 38, 39, 40, 41];
/** Deductor and responsible-person detail fields a batch leaves blank unless it carries them (FVU T-FV-2141 and on). */
const BH_DETAIL_SLOTS = [15, ...range(19, 46), ...range(54, 69)];
/** ... except these, which the FVU wants in every batch (T-FV-2101 name, 2082 state, 2077 deductor type, 2235 responsible person's PAN). */
const BH_EVERY_BATCH = new Set([19, 26, 32, 59]);
/** Deductor categories that may add challans (C9): Central and State Government (FVU T_FV_6052). */
const C9_CATEGORIES = new Set(['A', 'S']);
/** CD fields left empty when the challan's own fields are not updated (indicator 0): OLTAS amounts, fee, minor head. */
const CD_NOT_UPDATED_EMPTY = [22, 23, 24, 25, 26, 40];
/** CD fields of a C5 batch's challan (it only locates the rows): none but the record number, count and "last" keys (FVU T-FV-3008 and on). */
const CD_C5_EMPTY = [7, 12, 14, 16, 18, ...range(22, 27), ...range(29, 35), 39, 40];
function range(a: number, b: number): number[] {
  return Array.from({ length: b - a + 1 }, (_, i) => a + i);
}

const TOKEN = /^[0-9]{15}$/;

function merge(base: ValidationReport, extra: Problem[]): ValidationReport {
  const errors = extra.filter((p) => p.severity === 'error').length;
  const errorCount = base.errorCount + errors;
  return { valid: errorCount === 0, errorCount, warningCount: base.warningCount + extra.length - errors, problems: [...base.problems, ...extra] };
}

const EMPTY_REPORT: ValidationReport = { valid: true, errorCount: 0, warningCount: 0, problems: [] };

/** The refusals known before reading anything: new forms, Y, unknown types. */
function preflight(resolved: ResolvedOptions, options: CorrectOptions, problems: Problems): readonly CorrectionType[] {
  if (resolved.form.family === 'new') {
    problems.add('CORRECTION_FORMAT_NOT_PUBLISHED', `Form ${resolved.form.formNumber} (${resolved.period.label}): Protean published the correction workbooks on 04-Aug-2026, but no field text of them is public; the correction is not written (FORMAT_NOTES.md §15)`);
  }
  const requested = options.types === undefined ? WRITTEN : options.types.map((t) => String(t).trim().toUpperCase());
  for (const t of requested) {
    if (!(CORRECTION_TYPES as readonly string[]).includes(t)) throw new StatementEngineError('INVALID_OPTIONS', `Unknown correction type '${t.slice(0, 10)}' (expected C1, C2, C3, C5, C9)`);
  }
  if (requested.includes('Y')) problems.add('CORRECTION_CANCEL_DISCONTINUED', 'Y (cancellation of a statement) is no longer accepted at the TIN central system (TIN-FC rejection code 3); a wrong TAN is no longer corrected this way');
  return requested as CorrectionType[];
}

function expectation(resolved: ResolvedOptions): ConsoExpectation {
  return { tan: resolved.tan, form: resolved.form.formNumber, yearCode: resolved.period.yearCode, quarter: resolved.period.quarter };
}

function regularOptions(options: CorrectOptions): ConvertOptions {
  const { originalReceiptNumber: _o, lastCorrectionReceiptNumber: _l, types: _t, ...rest } = options;
  return rest;
}

/** Takes each line of the correction (CRLF ended) once it is self-checked, in order. */
type LineSink = (line: string) => void;

/** A correction built with its lines kept in memory, for the results that give the TXT as a string. */
function inMemory(run: (sink: LineSink) => Built): CorrectionResult {
  const out: string[] = [];
  const { report, batches } = run((l) => out.push(l));
  return { txt: report.valid ? out.join('') : null, report, batches };
}

/**
 * The correction statement for a corrected workbook (Sheet JSON, parsed) against the conso file's content.
 * Option errors and a refused conso file throw StatementEngineError (ConsoFileError names the line); every
 * workbook problem and every refused change goes into the report, and any error leaves `txt` null.
 */
export function correct(workbook: unknown, conso: string | Uint8Array, options: CorrectOptions): CorrectionResult {
  const resolved = resolveOptions(regularOptions(options));
  const problems = new Problems();
  const types = preflight(resolved, options, problems);
  if (problems.errors > 0) return { txt: null, report: merge(EMPTY_REPORT, problems.list), batches: [] };
  const statement = parseConso(conso, expectation(resolved), resolved.limits);
  const trail = new RowTrail();
  const regular = convertTraced(workbook, regularOptions(options), trail);
  if (!regular.txt) return { txt: null, report: regular.report, batches: [] };
  const comparer = new StatementComparer(trail, salaryPans(statement));
  for (const c of statement.challans) comparer.addConso(c);
  for (const l of regular.txt.split(/(?<=\r\n)/)) comparer.line(l);
  const written = comparer.finish(statement);
  return inMemory((sink) => build(written, statement, resolved, options, types, regular.report, problems, trail, sink));
}

/** What build() needs, read from the files; or the result already known (a refusal before the comparison). */
type Prepared = { done: CorrectionResult } | { build: (sink: LineSink) => Built };

async function prepareFiles(workbookPath: string, consoSource: string | Readable, options: CorrectOptions, hooks: StreamHooks): Promise<Prepared> {
  const resolved = resolveOptions(regularOptions(options));
  const problems = new Problems();
  const types = preflight(resolved, options, problems);
  if (problems.errors > 0) return { done: { txt: null, report: merge(EMPTY_REPORT, problems.list), batches: [] } };
  const conso = consoStream(consoSource, expectation(resolved), resolved, hooks);
  try {
    await conso.start();
    // The salary detail rows close a 24Q Q4 conso file and every PAN update is checked against them: that file
    // is read whole first. Any other is read as the workbook's challans come.
    const salary = resolved.form.formNumber === '24Q' && resolved.period.quarter === 'Q4' ? salaryPans(await conso.end()) : undefined;
    const trail = new RowTrail();
    const conversion = await convertFile(workbookPath, regularOptions(options), { ...hooks, rowTrail: trail });
    if (!conversion.lines) {
      await conversion.dispose();
      // A refused conso file is the answer before the workbook's problems, as when it is read first.
      await conso.end();
      return { done: { txt: null, report: conversion.report, batches: [] } };
    }
    const comparer = new StatementComparer(trail, salary);
    try {
      // Synchronous lines: the loop waits only where a challan is waiting for the conso file to be read on.
      for (const l of linesInPlace(conversion)!) {
        comparer.line(l);
        if (comparer.waiting && !conso.exhausted) await readWhileWaiting(comparer, conso);
      }
    } finally {
      await conversion.dispose();
    }
    comparer.endOfLines();
    await readWhileWaiting(comparer, conso);
    let next: ConsoChallan | null;
    while ((next = await conso.next())) comparer.addConso(next);
    const statement = await conso.end();
    const written = comparer.finish(statement);
    return { build: (sink) => build(written, statement, resolved, options, types, conversion.report, problems, trail, sink) };
  } finally {
    await conso.close();
  }
}

/**
 * The conso file's reader: in a worker thread for a file of PARALLEL_MIN_BYTES or more (hooks.parallel
 * chooses), so the file is read and checked on the core the comparison leaves idle; else in this thread.
 */
function consoStream(source: string | Readable, expected: ConsoExpectation, resolved: ResolvedOptions, hooks: StreamHooks): ConsoSource {
  if (typeof source === 'string' && hooks.parallel !== false) {
    let size = 0;
    try {
      size = statSync(source).size;
    } catch {
      // Read in this thread: it reports the file it cannot read as it always did.
    }
    if (hooks.parallel === true || size >= PARALLEL_MIN_BYTES) return new ConsoStreamInWorker(source, expected, resolved.limits);
  }
  return new ConsoStream(source, expected, resolved.limits);
}

/** Reads the conso file on while a workbook challan waits for one of its CIN (or to its end). */
async function readWhileWaiting(comparer: StatementComparer, conso: ConsoSource): Promise<void> {
  while (comparer.waiting) {
    const c = await conso.next();
    if (!c) return;
    comparer.addConso(c);
  }
}

function salaryPans(conso: ConsoStatement): Set<string> {
  return new Set(conso.salary.map((s) => s.fields[7]!));
}

/**
 * The streaming form: the workbook file (JSON or .xlsx) is read as convertFile() reads it, and the conso file
 * (a path or a byte stream) line by line. Same result and errors as correct(); the correction's TXT is given
 * as a string (correctFileTo() writes it to a file instead).
 */
export async function correctFile(workbookPath: string, conso: string | Readable, options: CorrectOptions, hooks: StreamHooks = {}): Promise<CorrectionResult> {
  const prepared = await prepareFiles(workbookPath, conso, options, hooks);
  if ('done' in prepared) return prepared.done;
  return inMemory(prepared.build);
}

export interface CorrectionFileResult {
  report: ValidationReport;
  batches: CorrectionBatch[];
  /** The file written (the output path), or null when the report has an error and nothing is written. */
  txtPath: string | null;
  /** Lines and bytes written; null when nothing is. */
  written: WriteSummary | null;
}

/**
 * correctFile() writing the correction's TXT to `outputPath` as its lines are made, never holding the whole
 * TXT: the queue's correction jobs. The file is written only when the report has no error; a self-check
 * failure removes what was written and throws TxtLayoutError.
 */
export async function correctFileTo(workbookPath: string, conso: string | Readable, outputPath: string, options: CorrectOptions, hooks: StreamHooks = {}): Promise<CorrectionFileResult> {
  const prepared = await prepareFiles(workbookPath, conso, options, hooks);
  if ('done' in prepared) return { report: prepared.done.report, batches: prepared.done.batches, txtPath: null, written: null };
  const file = new TxtFileSink(outputPath);
  try {
    const built = prepared.build((l) => file.line(l));
    const written = file.finish();
    return { report: built.report, batches: built.batches, txtPath: written ? outputPath : null, written };
  } catch (error) {
    file.abandon();
    throw error;
  }
}

/**
 * A TXT file written in pieces of about 1 MiB with synchronous writes: build() makes its lines synchronously,
 * and the conversion runs off the service's event loop (a worker), so a blocking write costs nothing there.
 * Latin-1, as the regular TXT is written: every character of a checked line is one byte. The file is created
 * with the first line (a correction with errors writes none).
 */
class TxtFileSink {
  private fd: number | null = null;
  private pending: string[] = [];
  private pendingChars = 0;
  private lines = 0;
  private bytes = 0;

  constructor(private readonly path: string) {}

  line(l: string): void {
    this.fd ??= openSync(this.path, 'w');
    this.pending.push(l);
    this.pendingChars += l.length;
    this.lines++;
    if (this.pendingChars >= 1 << 20) this.flush();
  }

  private flush(): void {
    const chunk = Buffer.from(this.pending.join(''), 'latin1');
    this.pending = [];
    this.pendingChars = 0;
    for (let at = 0; at < chunk.length; ) at += writeSync(this.fd!, chunk, at);
    this.bytes += chunk.length;
  }

  /** Writes what is left and closes the file; null when no line came (no file). */
  finish(): WriteSummary | null {
    if (this.fd === null) return null;
    this.flush();
    closeSync(this.fd);
    this.fd = null;
    return { lines: this.lines, bytes: this.bytes };
  }

  /** Closes and removes a file left half-written. */
  abandon(): void {
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
    rmSync(this.path, { force: true });
  }
}

/**
 * The BH of one batch (count and total are the caller's). What the official FVU asks of each batch type (FORMAT_NOTES
 * §15): the batch updation indicator only in C2/C3 (T-FV-2070), the TAN not in C5 (T-FV-2073); the deductor details
 * and the last deductor type only in the batch that updates them (T-FV-2141 and on, T-FV-2166), but the name, state,
 * deductor type and responsible person's PAN in every batch; fields the workbook has no column for repeat the conso's.
 */
function batchHeader(written: Fields, conso: ConsoStatement, type: CorrectionType, carries: boolean, at: { batchNo: string; original: string; previous: string; formNumber: string }): Fields {
  const bh = [...written];
  bh[3] = at.batchNo;
  bh[6] = type;
  bh[7] = type === 'C2' || type === 'C3' ? (carries ? '1' : '0') : '';
  bh[8] = at.original;
  bh[9] = at.previous;
  bh[12] = conso.tan;
  if (type === 'C5') bh[13] = '';
  bh[52] = '';
  bh[53] = carries ? (conso.batchHeader[32] ?? '') : '';
  if (at.formNumber === '24Q') {
    bh[49] = '0';
    bh[50] = '';
    bh[70] = '';
    bh[71] = '';
  }
  if (carries) {
    for (const n of BH_FROM_CONSO) bh[n] = conso.batchHeader[n] ?? '';
    bh[31] = same(written, conso.batchHeader, BH_ADDRESS) ? 'N' : 'Y';
    bh[46] = same(written, conso.batchHeader, BH_RP_ADDRESS) ? 'N' : 'Y';
  } else {
    for (const n of BH_DETAIL_SLOTS) if (!BH_EVERY_BATCH.has(n)) bh[n] = '';
  }
  return bh;
}

/** DD fields a C5 row gives: the row's numbers, the new PAN and reference, and the "last" keys (FVU T-FV-4317 and on). */
const DD_C5_KEPT = new Set([1, 2, 3, 4, 5, 10, 11, 12, 18, 20]);

/**
 * A DD of the correction: the workbook's row with the correction slots (mode, the conso's "last" PAN, PAN
 * reference and totals). A C5 row gives nothing else: no mode, code, name, amounts, dates, rate, remark or section
 * (the FVU refuses each: T-FV-4211, 4183, 4132, 4186, 4112-4117, 4046, 4209, 4087-4099, 4091, 4100, 4317).
 */
function deducteeRecord(type: CorrectionType, batchNo: string, challan: number, r: DeducteeChange): Fields {
  const dd = [...r.fields];
  dd[2] = 'DD';
  dd[3] = batchNo;
  dd[4] = String(challan);
  dd[5] = String(r.record);
  dd[6] = r.mode;
  if (r.last) {
    dd[9] = r.last[10] ?? '';
    dd[11] = r.last[12] ?? '';
    dd[18] = r.last[17] ?? '';
    dd[20] = r.last[19] ?? '';
  }
  if (type === 'C5') for (let n = 1; n < dd.length; n++) if (!DD_C5_KEPT.has(n)) dd[n] = '';
  return dd;
}

/** DD field -> CD field of the challan's tax totals (29 deposited, 30-33 income tax, surcharge, cess, total). */
const CD_ROW_TOTALS: ReadonlyArray<readonly [number, number]> = [[19, 29], [14, 30], [15, 31], [16, 32], [17, 33]];

/**
 * CD 29-33 of a correction: what the batch's rows change, Σ (new − last) over its rows (an added row's last is 0),
 * signed. The FVU checks them so (T-FV-3091, T-FV-3092): an update that leaves the tax as it was sums to 0.00.
 */
function rowTotals(cd: Fields, rows: readonly DeducteeChange[]): void {
  for (const [from, to] of CD_ROW_TOTALS) {
    const paise = rows.reduce((sum, r) => sum + parsePaise(Number(r.fields[from] || 0)) - (r.last ? parsePaise(Number(r.last[from] || 0)) : 0), 0);
    cd[to] = formatPaise(paise);
  }
}

/** The report and batches of a correction; its lines went to the sink when the report is valid. */
interface Built {
  report: ValidationReport;
  batches: CorrectionBatch[];
}

function build(written: Compared, conso: ConsoStatement, resolved: ResolvedOptions, options: CorrectOptions, allowed: readonly CorrectionType[], base: ValidationReport, problems: Problems, trail: RowTrail, sink: LineSink): Built {
  // Tokens.
  const given = options.originalReceiptNumber?.trim();
  const original = given || conso.originalToken;
  if (!TOKEN.test(original ?? '')) {
    problems.add('CORRECTION_INVALID_TOKEN', given ? 'The original token (originalReceiptNumber) must be 15 digits' : 'The conso file has no original token (BH 8) and no originalReceiptNumber is given');
  } else if (given && conso.originalToken && given !== conso.originalToken) {
    problems.add('CORRECTION_INVALID_TOKEN', `The original token given differs from the conso file's (BH 8, ${conso.originalToken})`);
  }
  // BH 9: the conso's BH 9 is the token of the last processed correction (the original's when there was none).
  const givenPrevious = options.lastCorrectionReceiptNumber?.trim();
  const previous = givenPrevious || conso.previousToken || original;
  if (givenPrevious && !TOKEN.test(givenPrevious)) problems.add('CORRECTION_INVALID_TOKEN', 'The last correction token (lastCorrectionReceiptNumber) must be 15 digits');
  else if (givenPrevious && conso.previousToken && givenPrevious !== conso.previousToken) {
    problems.add('CORRECTION_INVALID_TOKEN', `The last correction token given differs from the conso file's (BH 9, ${conso.previousToken}); the conso file is refreshed after each processed correction: download it again`);
  }

  // Deductor details (C1, or carried by C2/C3 with batch updation indicator 1).
  const deductorChanged = !same(written.bh, conso.batchHeader, BH_DETAILS);

  // Salary details (24Q Q4): C4 is refused, so any change there refuses the correction.
  if (resolved.form.formNumber === '24Q' && resolved.period.quarter === 'Q4') {
    const key = (f: Fields) => `${f[7]}|${f[9]}|${f[19]}`;
    const before = conso.salary.map((s) => key(s.fields)).sort();
    const after = written.salary.map(key).sort();
    if (before.length !== after.length || before.some((k, i) => k !== after[i])) {
      problems.add('CORRECTION_SALARY_NOT_SOURCED', `The salary details (Annexure II) differ from the conso file's (${before.length} rows there, ${after.length} in the workbook): a C4 batch is needed, and its rules (delete mode, what an added row repeats) are not sourced; correct salary rows in the RPU or on TRACES`);
    }
  }

  // Challans, paired and compared as the workbook's lines came (compare.ts).
  for (const c of written.missing) problems.add('CORRECTION_CHALLAN_MISSING', `The corrected workbook has no challan for ${describeChallan(c)}; a correction cannot delete a challan (keep it, with its BSR code, date and serial or its amount, so it can be matched)`);
  const changes: ChallanChange[] = [];
  for (const pair of written.pairs) {
    for (const p of pair.problems) problems.list.push(p);
    changes.push(pair.change);
  }
  // Added challans take the number the conso gives (BH 14), else continue after its highest.
  let nextChallan = (conso.nextChallan ?? conso.challans.reduce((max, c) => Math.max(max, c.record), 0) + 1) - 1;
  const newChallans: ChallanChange[] = written.added.map((w) => ({
    record: ++nextChallan,
    fields: w.fields,
    last: null,
    ownChanged: true,
    changes: w.deductees.map((line, k) => ({ mode: 'O' as const, record: k + 1, fields: toFields(line), last: null })),
    panUpdates: [],
  }));

  // C9 only for Central or State Government deductors (FVU T_FV_6052, judged on the conso's category; the
  // workbook's is checked too, as a changed category rides on another batch).
  if (newChallans.length > 0) {
    const categories = [...new Set([conso.batchHeader[32] ?? '', written.bh[32] ?? ''])];
    const other = categories.filter((c) => !C9_CATEGORIES.has(c));
    if (other.length > 0) {
      problems.add('CORRECTION_C9_NOT_GOVERNMENT', `${newChallans.length} challan(s) of the workbook are not in the conso file, so a C9 batch would add them; the FVU allows C9 only to Central or State Government deductors (category A or S), the deductor category here is ${other.join(', ')}: add the challan online on TRACES (T_FV_6052)`, challanPlace(trail, Number(newChallans[0]!.fields[4])));
    }
  }

  // Batches.
  const c2 = changes.filter((c) => c.ownChanged && c.changes.length === 0);
  const c3 = changes.filter((c) => c.changes.length > 0);
  const c5 = changes.filter((c) => c.panUpdates.length > 0);
  const needed: CorrectionType[] = [];
  if (deductorChanged && c2.length === 0 && c3.length === 0) needed.push('C1');
  if (c2.length > 0) needed.push('C2');
  if (c3.length > 0) needed.push('C3');
  if (c5.length > 0) needed.push('C5');
  if (newChallans.length > 0) needed.push('C9');
  const refusedTypes = needed.filter((t) => !allowed.includes(t));
  if (refusedTypes.length > 0) problems.add('CORRECTION_TYPE_NOT_REQUESTED', `The changes need ${refusedTypes.join(', ')}, which the request does not allow (types: ${allowed.join(', ') || 'none'})`);
  const rowsWritten = c3.length + c5.length + newChallans.reduce((n, c) => n + c.changes.length, 0);
  if (needed.length > 0 && rowsWritten === 0) {
    problems.add('CORRECTION_NO_DEDUCTEE_RECORD', `The changes need ${needed.join(', ')} only, a correction without a deductee record, which the FVU refuses (T_FV_6381); correct the deductor's or the challan's details online on TRACES, or together with a deductee row`);
  }
  if (needed.length === 0 && problems.errors === 0) problems.add('CORRECTION_NOTHING_TO_CORRECT', `The corrected workbook has the conso file's deductor details, ${conso.challans.length} challans and their deductee rows unchanged (in the fields the conso file locates)`);

  trail.annotate?.(problems.list);
  const report = merge(base, problems.list);
  if (!report.valid) return { report, batches: [] };

  const detailsBatch: CorrectionType | null = !deductorChanged ? null : needed.includes('C2') ? 'C2' : needed.includes('C3') ? 'C3' : 'C1';
  const plan: Array<{ type: CorrectionType; challans: ChallanChange[]; pick: (c: ChallanChange) => DeducteeChange[] }> = [];
  if (needed.includes('C1')) plan.push({ type: 'C1', challans: [], pick: () => [] });
  if (needed.includes('C2')) plan.push({ type: 'C2', challans: c2, pick: () => [] });
  if (needed.includes('C3')) plan.push({ type: 'C3', challans: c3, pick: (c) => c.changes });
  if (needed.includes('C5')) plan.push({ type: 'C5', challans: c5, pick: (c) => c.panUpdates });
  if (needed.includes('C9')) plan.push({ type: 'C9', challans: newChallans, pick: (c) => c.changes });

  const check = new TxtSelfCheck(resolved.form.family, resolved.form.formNumber, resolved.period.yearCode, 'C');
  let lines = 0;
  const emit = (f: Fields) => {
    f[1] = String(++lines);
    const l = `${f.slice(1).join('^')}\r\n`;
    check.text(l);
    sink(l);
  };
  const fh = [...written.fh];
  fh[4] = 'C';
  fh[9] = String(plan.length);
  fh[18] = /^[\x20-\x5d\x5f-\x7e]{1,100}$/.test(conso.hash) ? conso.hash : '';
  emit(fh);
  const batches: CorrectionBatch[] = [];
  plan.forEach((batch, index) => {
    const batchNo = String(index + 1);
    const carries = batch.type === detailsBatch;
    const bh = batchHeader(written.bh, conso, batch.type, carries, { batchNo, original, previous, formNumber: resolved.form.formNumber });
    bh[47] = batch.type === 'C1' || batch.type === 'C5' ? '' : formatPaise(batch.challans.reduce((sum, c) => sum + parsePaise(Number(c.fields[27])), 0));
    bh[4] = batch.type === 'C1' ? '' : String(batch.challans.length);
    emit(bh);
    const summary: CorrectionBatch = { type: batch.type, batchUpdation: bh[7] as CorrectionBatch['batchUpdation'], challans: batch.challans.length, deductees: { added: 0, updated: 0, panUpdated: 0 } };
    for (const c of batch.challans) {
      const rows = batch.pick(c);
      const cd = [...c.fields];
      cd[3] = batchNo;
      cd[4] = String(c.record);
      cd[5] = String(rows.length);
      cd[7] = batch.type === 'C9' ? '0' : c.ownChanged && (batch.type === 'C2' || batch.type === 'C3') ? '1' : '0';
      // A challan whose own fields are not updated gives no OLTAS amounts nor minor head (FVU T-FV-3027, 3093,
      // 3106, 3109, 3112, 3162), but its fee (T-FV-3158): TRACES keeps its booked values.
      if (c.last && cd[7] === '0') for (const n of CD_NOT_UPDATED_EMPTY) cd[n] = '';
      if (batch.type === 'C5') for (const n of CD_C5_EMPTY) cd[n] = '';
      if (c.last) {
        cd[11] = c.last.fields[12] ?? '';
        cd[13] = c.last.fields[14] ?? '';
        cd[15] = c.last.fields[16] ?? '';
        cd[17] = c.last.fields[18] ?? '';
        cd[28] = c.last.fields[27] ?? '';
      }
      if (batch.type !== 'C5') rowTotals(cd, rows);
      emit(cd);
      for (const r of rows) {
        emit(deducteeRecord(batch.type, batchNo, c.record, r));
        if (batch.type === 'C5') summary.deductees.panUpdated++;
        else if (r.mode === 'U') summary.deductees.updated++;
        else summary.deductees.added++;
      }
    }
    batches.push(summary);
  });
  check.finish();
  return { report, batches };
}
