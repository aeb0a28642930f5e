// npm run bench -- correction [--rows 200000] [--challans 200] [--payees 10000] [--repeat 2] [--keep]
//
// A correction of a large statement: the original Form 26Q workbook (bench/engine.ts's generator) is converted,
// its conso file written from the TXT (the test-side conso writer, packages/statement-engine/test/support/conso.ts),
// and a corrected workbook (one payment's amount changed) is corrected against it with the streaming form
// (correctFileTo: the workbook streamed, the conso file read line by line, the correction TXT written as it is made). The baseline, measured in the same
// run, is the regular conversion of the same corrected workbook (convertFile + writeTo), which correctFile
// runs inside. Each measurement runs in its own child process (its peak RSS is its own); runs alternate and the
// best time of each counts.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { generate, NOW, OPTIONS, type Sizes } from './engine.js';

interface ChildResult {
  ms: number;
  maxRssBytes: number;
  bytesWritten: number;
  lines: number;
}

function argument(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? Number(args[i + 1]) : fallback;
}

async function child(mode: string, workbook: string, conso: string, output: string): Promise<ChildResult> {
  const engine = await import('@satyapan/statement-engine');
  const options = { ...OPTIONS, now: () => new Date(NOW) };
  const started = process.hrtime.bigint();
  let bytesWritten = 0;
  let lines = 0;
  if (mode === 'convert') {
    const conversion = await engine.convertFile(workbook, options);
    if (!conversion.report.valid) throw new Error(`the workbook did not validate (${conversion.report.errorCount} errors)`);
    const summary = await conversion.writeTo(output);
    bytesWritten = summary.bytes;
    lines = summary.lines;
  } else {
    // As the queue's correction jobs run it: the correction TXT written to its file as its lines are made.
    const result = await engine.correctFileTo(workbook, conso, output, options);
    if (!result.written) throw new Error(`the correction was refused: ${result.report.problems.map((p) => p.code).join(', ')}`);
    bytesWritten = result.written.bytes;
    lines = result.written.lines;
  }
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  return { ms, maxRssBytes: process.resourceUsage().maxRSS * 1024, bytesWritten, lines };
}

function runChild(mode: string, workbook: string, conso: string, output: string): ChildResult {
  const here = fileURLToPath(import.meta.url);
  const r = spawnSync(process.execPath, ['--conditions=satyapan-source', '--import', 'tsx', here, '--child', mode, workbook, conso, output], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`${mode} child failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as ChildResult;
}

const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MiB`;

export async function main(args: string[]): Promise<void> {
  const sizes: Sizes = { rows: argument(args, 'rows', 200_000), challans: argument(args, 'challans', 200), payees: argument(args, 'payees', 10000) };
  const dir = mkdtempSync(join(tmpdir(), 'satyapan-bench-correction-'));
  try {
    const original = join(dir, 'original.json');
    const corrected = join(dir, 'corrected.json');
    const conso = join(dir, 'MUMA12345E_202526_26Q_Q3.tds');
    generate(original, sizes);
    const workbookBytes = generate(corrected, sizes, 1000);
    // The original statement's TXT, then its conso file.
    runChild('convert', original, '', join(dir, 'original.txt'));
    const { writeConso } = await import('../packages/statement-engine/test/support/conso.js');
    writeFileSync(conso, writeConso(readFileSync(join(dir, 'original.txt'), 'latin1'), { token: '123456789012345' }), 'latin1');
    const consoBytes = statSync(conso).size;
    console.log(`statement: ${sizes.rows} payment rows, ${sizes.challans} challans; corrected workbook ${mb(workbookBytes)}, conso file ${mb(consoBytes)}`);

    const repeat = Math.max(1, argument(args, 'repeat', 2));
    const corrections: ChildResult[] = [];
    const conversions: ChildResult[] = [];
    for (let i = 0; i < repeat; i++) {
      corrections.push(runChild('correct', corrected, conso, join(dir, 'correction.txt')));
      conversions.push(runChild('convert', corrected, conso, join(dir, 'regular.txt')));
    }
    const best = (runs: ChildResult[]): ChildResult => ({ ...runs.reduce((a, b) => (b.ms < a.ms ? b : a)), maxRssBytes: Math.max(...runs.map((r) => r.maxRssBytes)) });
    const correction = best(corrections);
    const conversion = best(conversions);
    console.log(`runs: correctFileTo ${corrections.map((r) => r.ms.toFixed(0)).join(', ')} ms; convertFile ${conversions.map((r) => r.ms.toFixed(0)).join(', ')} ms`);
    console.log(`correctFileTo (conversion + conso read + diff + correction TXT): ${correction.ms.toFixed(0)} ms, ${correction.lines} lines written`);
    console.log(`baseline convertFile + writeTo of the same workbook: ${conversion.ms.toFixed(0)} ms`);
    console.log(`ratio to baseline: ${(correction.ms / conversion.ms).toFixed(2)}x`);
    console.log(`peak RSS: correctFileTo ${mb(correction.maxRssBytes)} = ${(correction.maxRssBytes / (workbookBytes + consoBytes)).toFixed(2)}x workbook + conso; convertFile ${mb(conversion.maxRssBytes)} = ${(conversion.maxRssBytes / workbookBytes).toFixed(2)}x workbook`);
  } finally {
    if (!args.includes('--keep')) rmSync(dir, { recursive: true, force: true });
    else console.log(`kept ${dir}`);
  }
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url && process.argv[2] === '--child') {
  const [, , , mode, workbook, conso, output] = process.argv;
  const result = await child(mode!, workbook!, conso!, output!);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
