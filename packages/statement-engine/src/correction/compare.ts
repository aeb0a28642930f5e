// The comparison of a corrected workbook with the conso file, one challan at a time. The workbook's regular TXT
// comes line by line (FH, BH, each CD followed by its DD rows, then any SD); as soon as a challan's rows are
// complete it is paired with the conso's challan of the same CIN and its rows are compared, the changed ones
// kept and the rest dropped. So a correction holds the conso file and the changes, never the whole corrected
// statement: that is what kept its cost linear in the number of rows (issue 23, FORMAT_NOTES.md §15).
// A challan without an exact match is kept whole, to be paired by the looser rule once every challan is known.

import type { RowTrail } from '../assembly/stores.js';
import type { Place } from '../problems.js';
import type { Fields } from '../records/fields.js';
import { RULES, type RuleCode } from '../rules.js';
import type { Problem } from '../types.js';
import type { ConsoChallan, ConsoDeductee, ConsoStatement } from './conso.js';

const NOWHERE: Place = { sheet: null, row: null, column: null };

/** The problems a correction finds, in the order found. */
export class Problems {
  readonly list: Problem[] = [];
  add(code: RuleCode, message: string, place: Place = NOWHERE): void {
    this.list.push({ sheet: place.sheet, row: place.row, column: place.column, code, message, severity: RULES[code].severity });
  }
  get errors(): number {
    return this.list.filter((p) => p.severity === 'error').length;
  }
}

export const PAN = /^[A-Z]{3}[PCHFATBLJG][A-Z][0-9]{4}[A-Z]$/;

/** CD fields the deductor may change on a challan; a change is refused once TRACES has booked it. */
const CD_OWN = [6, 12, 14, 16, 18, 22, 23, 24, 25, 26, 27, 39, 40];
export const DD_COMPARED = [7, 8, 10, 12, 13, 14, 15, 16, 17, 19, 21, 22, 23, 24, 25, 26, 27, 30, 33];
/** Fields a PAN update (C5) may change; everything else compared must be equal. */
const DD_PAN_FIELDS = new Set([10, 12, 13]);
/** Form 26A/27BA rows (mode F): these may not change (tdsman FVU 2.150 note). */
const DD_LOCKED_FIELDS = [10, 17, 22, 33];
/** Remark C rows: only PAN, amount paid and date of payment may be updated (CPC); the rate follows the amount. */
const DD_REMARK_C_FIELDS = new Set([22, 23, 26]);
const DD_OTHERS = DD_COMPARED.filter((n) => !DD_PAN_FIELDS.has(n));
const DD_OTHERS_BUT_REMARK = DD_OTHERS.filter((n) => n !== 30);
/** The parts of a CIN: CD 16 BSR code, 18 date of deposit, 12 serial. */
const CIN = [16, 18, 12];

export const toFields = (line: string): Fields => ['', ...line.split('^')];

export const same = (a: Fields, b: Fields, fields: readonly number[]) => fields.every((n) => (a[n] ?? '') === (b[n] ?? ''));
const changedFields = (a: Fields, b: Fields, fields: readonly number[]) => fields.filter((n) => (a[n] ?? '') !== (b[n] ?? ''));

/** The fields `fields` of a record joined: what a pairing pass matches on. */
function keyOf(fields: readonly number[]): (f: Fields) => string {
  return (f) => {
    let key = f[fields[0]!] ?? '';
    for (let k = 1; k < fields.length; k++) key += `^${f[fields[k]!] ?? ''}`;
    return key;
  };
}

const cinKey = (f: Fields) => `${f[16]}^${f[18]}^${f[12]}^${f[6]}`;

export interface DeducteeChange {
  mode: 'A' | 'U' | 'O';
  record: number;
  fields: Fields;
  /** The row as in the conso file (its fields), for U and PAN-update rows. */
  last: Fields | null;
}

export interface ChallanChange {
  record: number;
  fields: Fields;
  last: ConsoChallan | null;
  ownChanged: boolean;
  changes: DeducteeChange[];
  panUpdates: DeducteeChange[];
}

/** A challan of the corrected workbook (its index among the workbook's challans), its rows still text. */
export interface WrittenChallan {
  index: number;
  fields: Fields;
  deductees: string[];
}

/** A paired challan, compared: its change and the problems found in it, in the order found. */
interface PairedChallan {
  change: ChallanChange;
  problems: Problem[];
}

/** What the comparison gives build(): the workbook's headers and salary rows, and the challans paired or not. */
export interface Compared {
  fh: Fields;
  bh: Fields;
  salary: Fields[];
  /** The paired challans compared, by the conso's challan record number. */
  pairs: PairedChallan[];
  /** The conso's challans the workbook has no challan for, in the conso's order. */
  missing: ConsoChallan[];
  /** The workbook's challans the conso has none for, in the workbook's order: added challans (C9). */
  added: WrittenChallan[];
}

/** Where a refused change sits in the workbook: the challan's row. */
export function challanPlace(trail: RowTrail, record: number): Place {
  return { sheet: 'challan_sheet', row: trail.challanRow(record), column: null };
}

/** ... or the payment row of a deductee record (its index under the challan), else the challan's row. */
function rowPlace(trail: RowTrail, w: { fields: Fields }, index: number): Place {
  const record = Number(w.fields[4]);
  const at = trail.deducteeRow(record, index);
  return at === null ? challanPlace(trail, record) : { sheet: 'payment_sheet', row: at, column: null };
}

export function describeChallan(c: ConsoChallan): string {
  return `challan record ${c.record} (conso line ${c.line}; BSR ${c.fields[16] || '-'}, date ${c.fields[18] || '-'}, serial ${c.fields[12] || '-'})`;
}

function describeDeductee(c: ConsoChallan, d: ConsoDeductee): string {
  return `deductee record ${d.record} of challan record ${c.record} (conso line ${d.line})`;
}

/**
 * Takes the corrected workbook's regular TXT a line at a time (`line()`, CRLF ended or not) and the conso's
 * challans as they are read (`addConso()`), then `finish()` with the whole conso statement. Challans pair by CIN
 * first (the n-th workbook challan of a CIN with the n-th conso challan of it, whichever comes first waiting for
 * the other), then, at the end, by the amount and two of the three CIN parts. A workbook challan closed with no
 * conso challan of its CIN yet is `waiting`: the caller reads the conso on until it is paired or the file ends,
 * so in the usual case (both in the statement's order) one challan of each is held at a time. A paired conso
 * challan's rows are dropped once compared.
 */
export class StatementComparer {
  private fh: Fields = [];
  private bh: Fields = [];
  private readonly salary: Fields[] = [];
  /** Conso challans read and not yet paired, by CIN, in the file's order. */
  private readonly byCin = new Map<string, ConsoChallan[]>();
  /** Workbook challans closed with no conso challan of their CIN yet, by CIN, in the workbook's order. */
  private readonly waitingByCin = new Map<string, WrittenChallan[]>();
  /** The same, in the workbook's order. */
  private readonly waitingInOrder = new Set<WrittenChallan>();
  private readonly paired = new Set<ConsoChallan>();
  private readonly pairs: Array<{ record: number; compared: PairedChallan }> = [];
  private current: WrittenChallan | null = null;
  private challans = 0;

  /** `salaryPans`: the PANs of the conso's salary detail rows (24Q Q4), which a PAN update must not touch alone. */
  constructor(
    private readonly trail: RowTrail,
    private readonly salaryPans: ReadonlySet<string> = new Set(),
  ) {}

  /** Whether a workbook challan waits for a conso challan of its CIN. */
  get waiting(): boolean {
    return this.waitingInOrder.size > 0;
  }

  line(l: string): void {
    const text = l.endsWith('\r\n') ? l.slice(0, -2) : l;
    const first = text.indexOf('^');
    const type = text.slice(first + 1, text.indexOf('^', first + 1));
    if (type === 'DD') this.current!.deductees.push(text);
    else if (type === 'CD') {
      this.closeChallan();
      this.current = { index: this.challans++, fields: toFields(text), deductees: [] };
    } else if (type === 'FH') this.fh = toFields(text);
    else if (type === 'BH') this.bh = toFields(text);
    else if (type === 'SD') {
      this.closeChallan();
      this.salary.push(toFields(text));
    }
  }

  /** A conso challan read: paired with the first workbook challan of its CIN waiting, else kept for one to come. */
  addConso(c: ConsoChallan): void {
    const key = cinKey(c.fields);
    const waiting = this.waitingByCin.get(key);
    const w = waiting?.shift();
    if (w) {
      this.waitingInOrder.delete(w);
      this.pair(c, w);
      return;
    }
    const list = this.byCin.get(key);
    if (list) list.push(c);
    else this.byCin.set(key, [c]);
  }

  /** The last challan of the workbook is complete (after its last line): it may wait too. */
  endOfLines(): void {
    this.closeChallan();
  }

  /** A challan's rows are complete: compared now when a conso challan of its CIN is there, else waiting for one. */
  private closeChallan(): void {
    const w = this.current;
    if (!w) return;
    this.current = null;
    const key = cinKey(w.fields);
    const c = this.byCin.get(key)?.shift();
    if (c) return this.pair(c, w);
    const list = this.waitingByCin.get(key);
    if (list) list.push(w);
    else this.waitingByCin.set(key, [w]);
    this.waitingInOrder.add(w);
  }

  private pair(c: ConsoChallan, w: WrittenChallan): void {
    this.paired.add(c);
    this.pairs.push({ record: c.record, compared: compareChallan(c, w, this.trail, this.salaryPans) });
    // Compared: neither side's rows are needed again (the change keeps the rows it writes).
    c.deductees = [];
    w.deductees = [];
  }

  /**
   * The whole conso file read (every challan given to addConso()): the conso's challans left are paired by the
   * amount and two CIN parts, else by two CIN parts.
   */
  finish(conso: ConsoStatement): Compared {
    this.closeChallan();
    const free = new Set(this.waitingInOrder);
    const missing: ConsoChallan[] = [];
    for (const c of conso.challans) {
      if (this.paired.has(c)) continue;
      const close = (w: WrittenChallan) => CIN.filter((n) => w.fields[n] === c.fields[n]).length;
      const w = [...free].find((k) => close(k) >= 2 && k.fields[27] === c.fields[27]) ?? [...free].find((k) => close(k) >= 2);
      if (w === undefined) missing.push(c);
      else {
        free.delete(w);
        this.pair(c, w);
      }
    }
    const pairs = this.pairs.sort((a, b) => a.record - b.record).map((p) => p.compared);
    return { fh: this.fh, bh: this.bh, salary: this.salary, pairs, missing, added: [...free] };
  }
}

/** A paired challan's changes: its own fields, then its rows (updates, PAN updates, deletions refused, additions). */
function compareChallan(c: ConsoChallan, w: WrittenChallan, trail: RowTrail, salaryPans: ReadonlySet<string>): PairedChallan {
  const problems = new Problems();
  const own = changedFields(w.fields, c.fields, CD_OWN);
  if (own.length > 0 && (c.status === 'M' || c.status === 'P')) {
    problems.add('CORRECTION_CHALLAN_BOOKED', `${describeChallan(c)} is ${c.status === 'M' ? 'matched' : 'provisionally booked'} at TRACES; CD field(s) ${own.join(', ')} cannot be changed`, challanPlace(trail, Number(w.fields[4])));
  }
  // The leading rows equal on both sides pair by position, compared as text; the rows after are split.
  const paired = leadingEqualRows(c.deductees, w.deductees);
  const rows = w.deductees.map((line, i) => (i < paired ? NOT_SPLIT : toFields(line)));
  const before = c.deductees.map((d, i) => (i < paired ? NOT_SPLIT : d.fields));
  const pairing = pairDeductees(before, rows, paired);
  const change: ChallanChange = { record: c.record, fields: w.fields, last: c, ownChanged: own.length > 0, changes: [], panUpdates: [] };
  for (const [ci, wi] of pairing.updates) {
    const d = c.deductees[ci]!;
    const last = before[ci]!;
    const row = rows[wi]!;
    const diff = changedFields(row, last, DD_COMPARED);
    const at = rowPlace(trail, w, wi);
    if (d.mode === 'F' && diff.some((n) => DD_LOCKED_FIELDS.includes(n))) problems.add('CORRECTION_ROW_LOCKED', `${describeDeductee(c, d)} is locked by Form 26A/27BA (mode F); field(s) ${diff.filter((n) => DD_LOCKED_FIELDS.includes(n)).join(', ')} cannot change`, at);
    if (last[30] === 'C' && diff.some((n) => !DD_REMARK_C_FIELDS.has(n))) problems.add('CORRECTION_REMARK_C_ROW', `${describeDeductee(c, d)} has remark C; only the amount and date of payment (and the PAN, by a PAN update) may change, not field(s) ${diff.filter((n) => !DD_REMARK_C_FIELDS.has(n)).join(', ')}`, at);
    change.changes.push({ mode: 'U', record: d.record, fields: row, last });
  }
  for (const [ci, wi] of pairing.panUpdates) {
    const d = c.deductees[ci]!;
    const last = before[ci]!;
    const row = rows[wi]!;
    const from = last[10]!;
    const to = row[10]!;
    const at = rowPlace(trail, w, wi);
    if (d.mode === 'F') problems.add('CORRECTION_ROW_LOCKED', `${describeDeductee(c, d)} is locked by Form 26A/27BA (mode F); its PAN cannot be updated`, at);
    if (PAN.test(from) && !PAN.test(to)) problems.add('CORRECTION_PAN_TO_INVALID', `${describeDeductee(c, d)}: a valid PAN cannot be replaced by the placeholder ${to}`, at);
    else if (PAN.test(from) && PAN.test(to)) problems.add('CORRECTION_PAN_CHANGE_ONCE', `${describeDeductee(c, d)}: a valid PAN is replaced by another; TRACES accepts this once per row`, at);
    if (salaryPans.has(from)) problems.add('CORRECTION_SALARY_NOT_SOURCED', `${describeDeductee(c, d)}: the PAN also has a salary detail row, which a PAN update must change too (C5 of a salary row is not sourced)`, at);
    change.panUpdates.push({ mode: 'U', record: d.record, fields: row, last });
  }
  for (const ci of pairing.deleted) {
    // A row of the conso missing from the workbook would be a deletion (mode D), which the FVU refuses
    // (T_FV_6049). Not being in the workbook, the problem is at its challan's row.
    problems.add('CORRECTION_DELETE_NOT_ALLOWED', `${describeDeductee(c, c.deductees[ci]!)} is not in the corrected workbook; the FVU allows no deletion of deductee rows (T_FV_6049): keep the row and correct its values instead`, challanPlace(trail, Number(w.fields[4])));
  }
  // Added rows take the numbers the conso gives (CD 8), else continue after the challan's highest.
  let next = (c.nextDeductee ?? c.deductees.reduce((max, d) => Math.max(max, d.record), 0) + 1) - 1;
  for (const wi of pairing.added) change.changes.push({ mode: 'A', record: ++next, fields: rows[wi]!, last: null });
  change.changes.sort((a, b) => a.record - b.record);
  change.panUpdates.sort((a, b) => a.record - b.record);
  return { change, problems: problems.list };
}

/**
 * Records indexed by a key: take() gives the first not yet taken whose key matches, in order. Every pairing
 * pass is one lookup per record, so a challan with thousands of rows is paired in linear time. Records already
 * taken when it is made are not indexed.
 */
class Keyed {
  private readonly byKey = new Map<string, { items: number[]; next: number }>();

  constructor(rows: readonly Fields[], private readonly key: (f: Fields) => string, private readonly taken: Uint8Array) {
    for (let i = 0; i < rows.length; i++) {
      if (taken[i]) continue;
      const k = key(rows[i]!);
      const entry = this.byKey.get(k);
      if (entry) entry.items.push(i);
      else this.byKey.set(k, { items: [i], next: 0 });
    }
  }

  /** Index of the first free record with the key of `probe` that passes `test`, now taken; null if none. */
  take(probe: Fields, test: (i: number) => boolean): number | null {
    const entry = this.byKey.get(this.key(probe));
    if (!entry) return null;
    for (let k = entry.next; k < entry.items.length; k++) {
      const i = entry.items[k]!;
      if (this.taken[i] || !test(i)) continue;
      this.taken[i] = 1;
      if (k === entry.next) entry.next++;
      return i;
    }
    return null;
  }
}

const equalKey = keyOf(DD_COMPARED);
/** Stands for a row paired by position, never split. */
const NOT_SPLIT: Fields = [];

/**
 * How many leading rows of a challan are equal in the compared fields, the conso's and the workbook's at the
 * same position: a correction changes few rows and the workbook keeps the statement's order, so this pairs
 * most rows, reading their text in place instead of splitting it into fields.
 */
function leadingEqualRows(conso: readonly ConsoDeductee[], rows: readonly string[]): number {
  const both = Math.min(conso.length, rows.length);
  let k = 0;
  while (k < both && conso[k]!.sameAs(rows[k]!, DD_COMPARED)) k++;
  return k;
}

/**
 * Pairs a challan's rows (conso rows against workbook rows, by index): equal rows, then same PAN and section,
 * then same PAN (updates), then rows equal but for the PAN (PAN updates); the rest are deletions and additions.
 * The first `paired` rows of each side are already paired by position (leadingEqualRows): equal in every
 * compared field, they are what the keyed pass of equal rows would pair, so only the rows after go through it.
 * A pass with no conso row left is skipped.
 */
function pairDeductees(conso: Fields[], rows: Fields[], paired: number): { updates: Array<[number, number]>; panUpdates: Array<[number, number]>; deleted: number[]; added: number[] } {
  const any = () => true;
  const taken = new Uint8Array(rows.length);
  const pass = (left: number[], key: (f: Fields) => string, into: Array<[number, number]> | null): number[] => {
    if (left.length === 0) return left;
    const keyed = new Keyed(rows, key, taken);
    return left.filter((ci) => {
      const wi = keyed.take(conso[ci]!, any);
      if (wi !== null && into) into.push([ci, wi]);
      return wi === null;
    });
  };
  const updates: Array<[number, number]> = [];
  const panUpdates: Array<[number, number]> = [];
  taken.fill(1, 0, paired);
  let left = pass(Array.from({ length: conso.length - paired }, (_, k) => paired + k), equalKey, null);
  left = pass(left, keyOf([10, 33]), updates);
  left = pass(left, keyOf([10]), updates);
  left = pass(left, keyOf(DD_OTHERS), panUpdates);
  // A remark-C row (no PAN, higher rate) given its PAN: the workbook drops the reason with the PAN (a valid PAN
  // with remark C is refused, REMARK_C_REQUIRES_NO_PAN), every other field equal. TDS CPC allows this update.
  if (left.length > 0) {
    const keyed = new Keyed(rows, keyOf(DD_OTHERS_BUT_REMARK), taken);
    left = left.filter((ci) => {
      const before = conso[ci]!;
      const wi = before[30] === 'C' ? keyed.take(before, (i) => rows[i]![30] === '' && PAN.test(rows[i]![10] ?? '')) : null;
      if (wi !== null) panUpdates.push([ci, wi]);
      return wi === null;
    });
  }
  const added = rows.map((_, i) => i).filter((i) => !taken[i]);
  return { updates, panUpdates, deleted: left, added };
}
