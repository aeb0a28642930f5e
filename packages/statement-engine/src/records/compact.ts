// A record layout compiled for one record type and form: the fields a writer may fill are slots, and every
// run of fields that always stays empty is merged into one constant of carets, so building the line joins
// far fewer pieces. Produces exactly what joining all fields would.

export class CompactRecord {
  private readonly parts: string[];
  /** Slot of each field number, or -1 for a field that is always empty. */
  private readonly slotOf: Int16Array;

  /**
   * @param count fields in the record
   * @param constants fields with a fixed value (record type, batch number, ...)
   * @param variable fields the writer may fill
   */
  constructor(count: number, constants: Readonly<Record<number, string>>, variable: readonly number[]) {
    const used = new Set<number>([...Object.keys(constants).map(Number), ...variable]);
    this.slotOf = new Int16Array(count + 1).fill(-1);
    this.parts = [];
    let emptyRun = 0;
    for (let field = 2; field <= count; field++) {
      if (!used.has(field)) {
        emptyRun++;
        continue;
      }
      // k empty fields between two used ones need k + 1 carets: join supplies two around a (k - 1)-caret piece.
      if (emptyRun > 0) this.parts.push('^'.repeat(emptyRun - 1));
      emptyRun = 0;
      this.slotOf[field] = this.parts.length;
      this.parts.push(constants[field] ?? '');
    }
    // t trailing empty fields: join's caret plus t - 1 more.
    if (emptyRun > 0) this.parts.push('^'.repeat(emptyRun - 1));
  }

  set(field: number, value: string): void {
    const slot = this.slotOf[field]!;
    if (slot >= 0) this.parts[slot] = value;
    else if (value !== '') throw new Error(`field ${field} is not in this record layout`);
  }

  /** Fields 2..n joined by carets (the record without its line number). */
  body(): string {
    return this.parts.join('^');
  }
}
