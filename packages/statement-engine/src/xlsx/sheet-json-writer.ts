// The Sheet JSON text of what a ScanHandler is told: the .xlsx reader's events (readXlsxInto) written out as
// the workbook's JSON, for readXlsxWorkbook() and the reader's worker thread. Reading the text back with the
// JSON scanner tells a handler what the reader told this one. The workbook's `sheets` and each sheet's
// `blocks` are written even when empty (the envelope has them).

import type { ScanHandler } from '../stream/json-scanner.js';

const member = (key: string, value: unknown) => `${JSON.stringify(key)}:${JSON.stringify(value)}`;

export class SheetJsonWriter implements ScanHandler {
  private text = '';
  private rootMembers = 0;
  private sheets: 'unopened' | 'open' | 'closed' = 'unopened';
  private sheetCount = 0;
  /** Members of the open sheet; -1: its `blocks` array is open. */
  private sheetMembers = 0;
  private blockCount = 0;
  private blockMembers = 0;
  private rowCount = 0;

  /** Characters written and not taken. */
  get length(): number {
    return this.text.length;
  }

  /** The text written since the last take(). */
  take(): string {
    const text = this.text;
    this.text = '';
    return text;
  }

  /** Closes the workbook (its closing text is then to take). */
  end(): void {
    this.closeSheets();
    this.text += '}';
  }

  rootValue(key: string | null, value: unknown): void {
    if (key === null) throw new TypeError('an .xlsx workbook is an object');
    if (this.sheets === 'open') this.closeSheets();
    this.rootMember(member(key, value));
  }

  sheetStart(): void {
    this.sheetElement('{');
    this.sheetMembers = 0;
    this.blockCount = 0;
  }

  sheetValue(key: string, value: unknown): void {
    if (this.sheetMembers < 0) throw new TypeError("a sheet's members come before its blocks");
    this.text += `${this.sheetMembers++ === 0 ? '' : ','}${member(key, value)}`;
  }

  sheetEnd(): void {
    this.openBlocks();
    this.text += ']}';
  }

  sheetOther(value: unknown): void {
    this.sheetElement(JSON.stringify(value));
  }

  blockStart(): void {
    this.blockElement('{');
    this.blockMembers = 0;
  }

  blockValue(key: string, value: unknown): void {
    this.text += `${this.blockMembers++ === 0 ? '' : ','}${member(key, value)}`;
  }

  blockEnd(): void {
    this.text += '}';
  }

  blockOther(value: unknown): void {
    this.blockElement(JSON.stringify(value));
  }

  rowsStart(): void {
    this.text += `${this.blockMembers++ === 0 ? '' : ','}"rows":[`;
    this.rowCount = 0;
  }

  rows(batch: unknown[]): void {
    let text = '';
    for (const row of batch) text += `${this.rowCount++ === 0 ? '' : ','}${JSON.stringify(row)}`;
    this.text += text;
  }

  rowsEnd(): void {
    this.text += ']';
  }

  private rootMember(text: string): void {
    this.text += `${this.rootMembers++ === 0 ? '{' : ','}${text}`;
  }

  private sheetElement(text: string): void {
    if (this.sheets === 'closed') throw new TypeError('the sheets of the workbook were closed');
    if (this.sheets === 'unopened') {
      this.rootMember('"sheets":[');
      this.sheets = 'open';
    }
    this.text += `${this.sheetCount++ === 0 ? '' : ','}${text}`;
  }

  private closeSheets(): void {
    if (this.sheets === 'unopened') this.rootMember('"sheets":[');
    if (this.sheets !== 'closed') this.text += ']';
    this.sheets = 'closed';
  }

  /** The open sheet's `blocks` array, opened once. */
  private openBlocks(): void {
    if (this.sheetMembers < 0) return;
    this.text += `${this.sheetMembers === 0 ? '' : ','}"blocks":[`;
    this.sheetMembers = -1;
  }

  private blockElement(text: string): void {
    this.openBlocks();
    this.text += `${this.blockCount++ === 0 ? '' : ','}${text}`;
  }
}
