// Connects the scanner's events to the workbook reader. Rows are handed over as they stream when the block's
// name and header and its sheet's name are already known (the usual key order); otherwise the block's rows
// wait in a spill file until they are, so any key order works. A skeleton of the document (everything but
// the rows) is kept for the same envelope check convert() runs.

import { limitExceeded } from '../limits.js';
import type { WorkbookReader, RowReceiver } from '../workbook/reader.js';
import type { ScanHandler } from './json-scanner.js';
import { SequentialSpill, type SpillDirectory } from './spill.js';

interface SheetState {
  skeleton: Record<string, unknown>;
  name: string | null;
  /** reader.sheet() verdict once the name is known. */
  accepted: boolean | null;
  pending: Array<() => void>;
}

interface BlockState {
  skeleton: Record<string, unknown>;
  mode: 'none' | 'live' | 'deferred' | 'skip';
  receiver: RowReceiver | null;
  rowIndex: number;
  deferred: SequentialSpill | null;
}

export class WorkbookStreamer implements ScanHandler {
  /** The document without its rows (rows arrays are left empty). */
  skeleton: unknown = undefined;
  private root: Record<string, unknown> | null = null;
  private sheet: SheetState | null = null;
  private block: BlockState | null = null;
  private deferredFiles = 0;
  /** Rows read so far (for progress). */
  rowCount = 0;

  constructor(
    private readonly reader: WorkbookReader,
    private readonly workbookName: string,
    private readonly dir: SpillDirectory,
    /** Most table rows in the workbook (limits.workbookRows): past it the conversion stops with CONVERSION_LIMIT. */
    private readonly maxRows: number,
    private readonly memoryBudget?: number,
  ) {}

  /** True once the root name is known to be another workbook's: nothing more is worth reading. */
  private get wrongWorkbook(): boolean {
    return this.root !== null && 'name' in this.root && this.root.name !== this.workbookName;
  }

  private rootObject(): Record<string, unknown> {
    if (!this.root) {
      this.root = {};
      this.skeleton = this.root;
    }
    return this.root;
  }

  rootValue(key: string | null, value: unknown): void {
    if (key === null) {
      this.skeleton = value;
      return;
    }
    this.rootObject()[key] = value;
  }

  sheetStart(): void {
    const root = this.rootObject();
    const sheets = Array.isArray(root.sheets) ? root.sheets : (root.sheets = []);
    const skeleton: Record<string, unknown> = {};
    sheets.push(skeleton);
    this.sheet = { skeleton, name: null, accepted: null, pending: [] };
  }

  sheetValue(key: string, value: unknown): void {
    const sheet = this.sheet!;
    if (key !== 'blocks') sheet.skeleton[key] = value;
    else sheet.skeleton.blocks = value;
    if (key === 'name' && typeof value === 'string' && sheet.name === null) {
      sheet.name = value;
      sheet.accepted = this.wrongWorkbook ? false : this.reader.sheet(value);
      for (const action of sheet.pending) if (sheet.accepted) action();
      sheet.pending = [];
    }
  }

  sheetEnd(): void {
    this.sheet = null;
  }

  sheetOther(value: unknown): void {
    const root = this.rootObject();
    (Array.isArray(root.sheets) ? root.sheets : (root.sheets = [])).push(value);
  }

  blockStart(): void {
    const sheet = this.sheet!;
    const blocks = Array.isArray(sheet.skeleton.blocks) ? sheet.skeleton.blocks : (sheet.skeleton.blocks = []);
    const skeleton: Record<string, unknown> = {};
    blocks.push(skeleton);
    this.block = { skeleton, mode: 'none', receiver: null, rowIndex: 0, deferred: null };
  }

  blockValue(key: string, value: unknown): void {
    this.block!.skeleton[key] = value;
  }

  blockOther(value: unknown): void {
    const sheet = this.sheet!;
    (Array.isArray(sheet.skeleton.blocks) ? sheet.skeleton.blocks : (sheet.skeleton.blocks = [])).push(value);
  }

  rowsStart(): void {
    const block = this.block!;
    const sheet = this.sheet!;
    block.skeleton.rows = [];
    const name = block.skeleton.name;
    const header = block.skeleton.header;
    if (this.wrongWorkbook || sheet.accepted === false || block.mode !== 'none') {
      block.mode = 'skip';
    } else if (sheet.accepted === true && typeof name === 'string' && Array.isArray(header) && !('items' in block.skeleton)) {
      block.mode = 'live';
      block.receiver = this.reader.table(sheet.name!, name, header);
    } else {
      block.mode = 'deferred';
      block.deferred = new SequentialSpill(this.dir, `deferred-${this.deferredFiles++}.jsonl`, this.memoryBudget);
    }
  }

  rows(batch: unknown[]): void {
    const block = this.block!;
    this.rowCount += batch.length;
    if (this.rowCount > this.maxRows) throw limitExceeded('workbookRows', this.maxRows, `sheet ${String(this.sheet?.name ?? '?').slice(0, 40)}, block ${String(block.skeleton.name ?? '?').slice(0, 40)}`, `more than ${this.maxRows} table rows in the workbook`);
    if (block.mode === 'live') {
      const receiver = block.receiver!;
      for (let i = 0; i < batch.length; i++) receiver.row(block.rowIndex++, batch[i]);
    } else if (block.mode === 'deferred') {
      for (const row of batch) block.deferred!.push(JSON.stringify(row));
    }
  }

  rowsEnd(): void {
    const block = this.block!;
    if (block.mode === 'live') block.receiver!.end();
  }

  blockEnd(): void {
    const block = this.block!;
    const sheet = this.sheet!;
    this.block = null;
    const action = this.blockAction(block, sheet);
    if (!action) return;
    if (sheet.accepted === true) action();
    else if (sheet.accepted === null) sheet.pending.push(action);
  }

  /** What reading a completed block means, or null when there is nothing (more) to hand over. */
  private blockAction(block: BlockState, sheet: SheetState): (() => void) | null {
    const { name, items, header } = block.skeleton;
    if (typeof name !== 'string' || this.wrongWorkbook) return null;
    if (Array.isArray(items) && !('rows' in block.skeleton)) return () => this.reader.list(sheet.name!, name, items);
    if (block.mode !== 'deferred' || !Array.isArray(header)) return null;
    const spill = block.deferred!;
    return () => {
      const receiver = this.reader.table(sheet.name!, name, header);
      let i = 0;
      for (const l of spill.lines()) receiver.row(i++, JSON.parse(l));
      receiver.end();
      spill.close();
    };
  }
}
