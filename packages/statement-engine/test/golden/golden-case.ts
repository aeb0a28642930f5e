/**
 * One golden case: a workbook we wrote (fixtures/*.json), the conversion options, and the TXT we expect,
 * line by line (expected/*.ts). Fixtures are read from this folder only.
 */
import { readFileSync } from 'node:fs';
import type { Family } from './layouts.js';
import { materialize } from './line-match.js';

export type FormName = '24Q' | '138' | '26Q' | '140' | '27Q' | '144' | '27EQ' | '143';
export type Quarter = 'Q1' | 'Q2' | 'Q3' | 'Q4';

/** The engine's ConvertOptions minus the clock, which a case stores as an ISO instant. */
export interface CaseOptions {
  readonly form: FormName;
  readonly quarter: Quarter;
  readonly financialYear: string;
  readonly tan: string;
  readonly previousReceiptNumber?: string;
}

export interface GoldenCase {
  readonly title: string;
  readonly fixture: string;
  readonly family: Family;
  readonly options: CaseOptions;
  /** File creation instant handed to the engine's injectable clock. */
  readonly now: string;
  /** 24Q Q4: salary detail records follow the challans and BH fields 49/50 carry their count and total. */
  readonly salaryQ4?: boolean;
  readonly lines: readonly string[];
}

export function loadFixture(name: string): unknown {
  const url = new URL(`./fixtures/${name}`, import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8')) as unknown;
}

export function convertOptions(golden: GoldenCase): CaseOptions & { now: () => Date } {
  const instant = new Date(golden.now);
  return { ...golden.options, now: () => new Date(instant) };
}

/**
 * The expected file as bytes would be (every record terminated by CRLF, including the last), with the
 * markers of ./line-match.ts replaced by plain values so that it parses.
 */
export function expectedTxt(golden: GoldenCase): string {
  return golden.lines.map((line) => `${materialize(line)}\r\n`).join('');
}
