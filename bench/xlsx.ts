// npm run bench -- xlsx [--rows 200000] [--challans 200] [--payees 10000] [--repeat 2] [--keep]
//
// A large .xlsx workbook: bench/engine.ts's Form 26Q workbook (N payment rows) written as .xlsx in the layout
// of README "Excel workbooks" (exceljs's streaming writer, shared strings, dates as Excel dates), then converted
// with the streaming engine (convertFile + writeTo: the zip opened by its central directory, each worksheet
// parsed as it is inflated). Baselines measured in the same run, each in its own child process (its peak RSS
// is its own): the same workbook as Sheet JSON (convertFile + writeTo), and exceljs loading the .xlsx whole
// (Workbook.xlsx.readFile and a pass over the cells: the first step of the reader this one replaced, so a floor
// of its time and memory). The streaming reader also runs on a quarter of the rows: its peak RSS should not
// grow with the worksheet (shared strings aside).

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ExcelJS from 'exceljs';
import { generate, NOW, OPTIONS, type Sizes } from './engine.js';

interface ChildResult {
  ms: number;
  maxRssBytes: number;
  bytesWritten: number;
  cells?: number;
}

function argument(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? Number(args[i + 1]) : fallback;
}

const IST_MS = 19_800_000;
const isIstMidnight = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && (v + IST_MS) % 86_400_000 === 0;

type Json = Record<string, unknown>;

/** The Sheet JSON workbook at `json` written as .xlsx (the to-xlsx layout) with exceljs's streaming writer. */
async function writeXlsx(json: string, xlsx: string): Promise<number> {
  const workbook = JSON.parse(readFileSync(json, 'utf8')) as Json;
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: xlsx, useSharedStrings: true, useStyles: true });
  const own = book.addWorksheet('workbook');
  own.addRow(['name', String(workbook.name)]).commit();
  own.commit();
  for (const sheet of workbook.sheets as Json[]) {
    const ws = book.addWorksheet(String(sheet.name));
    (sheet.blocks as Json[]).forEach((block, i) => {
      if (i > 0) ws.addRow([]).commit();
      const table = block['@entity'] === 'table';
      ws.addRow([String(block.name), table ? 'table' : 'list']).commit();
      const put = (row: ExcelJS.Row, position: number, key: string, value: unknown) => {
        if (value === null || value === undefined) return;
        const cell = row.getCell(position);
        if (key.endsWith('_epoch') && isIstMidnight(value)) {
          cell.value = new Date(value + IST_MS);
          cell.numFmt = 'dd-mm-yyyy';
        } else cell.value = value as string | number | boolean;
      };
      if (!table) {
        for (const item of block.items as Json[]) {
          const [key, value] = Object.entries(item)[0]!;
          const row = ws.addRow([key]);
          put(row, 2, key, value);
          row.commit();
        }
        return;
      }
      const header = (block.header as string[]).map(String);
      ws.addRow(header).commit();
      for (const cells of block.rows as unknown[][]) {
        const row = ws.addRow([]);
        cells.forEach((value, c) => put(row, c + 1, header[c]!, value));
        row.commit();
      }
    });
    ws.commit();
  }
  await book.commit();
  return statSync(xlsx).size;
}

async function child(mode: string, input: string, output: string): Promise<ChildResult> {
  const engine = mode === 'exceljs-load' ? null : await import('@satyapan/statement-engine');
  const started = process.hrtime.bigint();
  let bytesWritten = 0;
  let cells = 0;
  if (engine) {
    const conversion = await engine.convertFile(input, { ...OPTIONS, now: () => new Date(NOW) });
    if (!conversion.report.valid) throw new Error(`${mode}: the workbook did not validate (${conversion.report.errorCount} errors)`);
    bytesWritten = (await conversion.writeTo(output)).bytes;
  } else {
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(input);
    for (const ws of book.worksheets) ws.eachRow((row) => (cells += row.cellCount));
  }
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  return { ms, maxRssBytes: process.resourceUsage().maxRSS * 1024, bytesWritten, cells };
}

function runChild(mode: string, input: string, output: string): ChildResult {
  const here = fileURLToPath(import.meta.url);
  const r = spawnSync(process.execPath, ['--import', 'tsx', here, '--child', mode, input, output], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`${mode} child failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as ChildResult;
}

const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MiB`;

export async function main(args: string[]): Promise<void> {
  const rows = argument(args, 'rows', 200_000);
  const sizes: Sizes = { rows, challans: argument(args, 'challans', 200), payees: argument(args, 'payees', 10000) };
  const small: Sizes = { ...sizes, rows: Math.max(1, Math.floor(rows / 4)) };
  const repeat = Math.max(1, argument(args, 'repeat', 2));
  const dir = mkdtempSync(join(tmpdir(), 'satyapan-bench-xlsx-'));
  try {
    const json = join(dir, 'form26q.json');
    const xlsx = join(dir, 'form26q.xlsx');
    const smallXlsx = join(dir, 'form26q-quarter.xlsx');
    const t0 = Date.now();
    const jsonBytes = generate(json, sizes);
    const xlsxBytes = await writeXlsx(json, xlsx);
    generate(join(dir, 'small.json'), small);
    await writeXlsx(join(dir, 'small.json'), smallXlsx);
    console.log(`workbook: ${rows} payment rows: ${mb(jsonBytes)} as JSON, ${mb(xlsxBytes)} as .xlsx (written in ${Date.now() - t0} ms); quarter: ${small.rows} rows, ${mb(statSync(smallXlsx).size)}`);

    const runs: Record<string, ChildResult[]> = { xlsx: [], json: [], 'xlsx-quarter': [] };
    for (let i = 0; i < repeat; i++) {
      runs.xlsx!.push(runChild('xlsx', xlsx, join(dir, 'xlsx.txt')));
      runs.json!.push(runChild('json', json, join(dir, 'json.txt')));
      runs['xlsx-quarter']!.push(runChild('xlsx', smallXlsx, join(dir, 'quarter.txt')));
    }
    // Once: it is the slow, memory-hungry one.
    const whole = runChild('exceljs-load', xlsx, join(dir, 'none.txt'));
    const best = (list: ChildResult[]): ChildResult => ({ ...list.reduce((a, b) => (b.ms < a.ms ? b : a)), maxRssBytes: Math.max(...list.map((r) => r.maxRssBytes)) });
    const stream = best(runs.xlsx!);
    const fromJson = best(runs.json!);
    const quarter = best(runs['xlsx-quarter']!);
    if (stream.bytesWritten !== fromJson.bytesWritten) throw new Error(`the TXT from .xlsx (${stream.bytesWritten} bytes) and from JSON (${fromJson.bytesWritten} bytes) differ`);
    const sameTxt = readFileSync(join(dir, 'xlsx.txt')).equals(readFileSync(join(dir, 'json.txt')));
    console.log(`runs (ms): xlsx ${runs.xlsx!.map((r) => r.ms.toFixed(0)).join(', ')}; json ${runs.json!.map((r) => r.ms.toFixed(0)).join(', ')}; xlsx quarter ${runs['xlsx-quarter']!.map((r) => r.ms.toFixed(0)).join(', ')}`);
    console.log(`.xlsx streaming (convertFile + writeTo): ${stream.ms.toFixed(0)} ms, ${Math.round((rows / stream.ms) * 1000).toLocaleString('en')} rows/s, peak RSS ${mb(stream.maxRssBytes)}; TXT ${sameTxt ? 'identical to' : 'DIFFERENT from'} the JSON's`);
    console.log(`JSON streaming (same workbook):          ${fromJson.ms.toFixed(0)} ms, peak RSS ${mb(fromJson.maxRssBytes)}`);
    console.log(`exceljs whole-file load (old reader's first step, ${whole.cells} cells): ${whole.ms.toFixed(0)} ms, peak RSS ${mb(whole.maxRssBytes)}`);
    console.log(`ratios: .xlsx/JSON time ${(stream.ms / fromJson.ms).toFixed(2)}x, RSS ${(stream.maxRssBytes / fromJson.maxRssBytes).toFixed(2)}x; .xlsx streaming/exceljs load time ${(stream.ms / whole.ms).toFixed(2)}x, RSS ${(stream.maxRssBytes / whole.maxRssBytes).toFixed(2)}x`);
    console.log(`peak RSS growth with the worksheet: ${small.rows} rows ${mb(quarter.maxRssBytes)} -> ${rows} rows ${mb(stream.maxRssBytes)} (${(stream.maxRssBytes / quarter.maxRssBytes).toFixed(2)}x for ${(rows / small.rows).toFixed(0)}x the rows)`);
  } finally {
    if (!args.includes('--keep')) rmSync(dir, { recursive: true, force: true });
    else console.log(`kept ${dir}`);
  }
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url && process.argv[2] === '--child') {
  const [, , , mode, input, output] = process.argv;
  const result = await child(mode!, input!, output!);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
