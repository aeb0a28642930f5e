import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { StatementQueueError } from '../errors.js';
import { runConversion } from './run.js';
import { reportToXlsx } from './report-xlsx.js';
import type { ConversionOutcome, ConversionReport, ConversionRequest, Converter } from './types.js';

/** How much one conversion may take before it is ended; each is named in the report of a job that passed it. */
export interface ConversionLimits {
  /** Wall time of one conversion (engine run, not the downloads and uploads around it). */
  timeoutMs: number;
  /** Memory of the conversion process: its V8 heap limit and the resident size it is ended at. */
  memoryMb: number;
}

/**
 * Ten minutes is 100x the conversion of the 1M-row bench workbook on a 2-core machine; 1.5 GiB is 8x its peak
 * resident size. A real statement never comes near either; a crafted file meets one of them, not the OOM killer.
 */
export const DEFAULT_CONVERSION_LIMITS: ConversionLimits = { timeoutMs: 10 * 60_000, memoryMb: 1536 };

/** Why a conversion did not come back and may succeed on another try: an infrastructure failure, retried. */
export class ConversionCrashedError extends StatementQueueError {
  override readonly name = 'ConversionCrashedError';
  constructor(message: string) {
    super('CONVERSION_CRASHED', message);
  }
}

export class ConversionAbortedError extends StatementQueueError {
  override readonly name = 'ConversionAbortedError';
  constructor() {
    super('CONVERSION_ABORTED', 'The conversion was stopped');
  }
}

/**
 * The conversion process ended on its input: past a limit, or killed by what it read. The same input would end it
 * again, so the job fails at once with this reason (`CONVERSION_LIMIT`) and is never retried.
 */
export class ConversionLimitError extends StatementQueueError {
  override readonly name = 'ConversionLimitError';
  constructor(message: string) {
    super('CONVERSION_LIMIT', message);
  }
}

interface Reply {
  ready?: true;
  ok?: boolean;
  outcome?: ConversionOutcome;
  error?: string;
}

/** How often the resident size of a running conversion is looked at. */
const MEMORY_POLL_MS = 200;
/** The end of a dying child's stderr, kept to tell a heap exhaustion from other deaths (never logged or stored). */
const STDERR_TAIL_BYTES = 4096;

/**
 * Conversions in child processes, one at a time each: a workbook of a million rows keeps a CPU busy without
 * stalling the event loop that renews BullMQ locks, and a crafted workbook that exhausts memory, trips a V8 fatal
 * error or never ends takes down only its own process (worker threads share the process: a V8 fatal error in one
 * aborts them all). Processes are kept between jobs; one that dies, runs past its limits or is stopped (shutdown,
 * abort) is replaced at once when `warm()` keeps a count, else by the next job.
 */
export class ProcessConverter implements Converter {
  private readonly limits: ConversionLimits;
  private readonly idle: ConversionProcess[] = [];
  private readonly busy = new Set<ConversionProcess>();
  /** Processes being started ahead of the jobs that will need them (`warm()`), taken by the jobs that come first. */
  private readonly spares: StartingProcess[] = [];
  /** How many processes `warm()` keeps started: the worker's concurrency. */
  private kept = 0;
  private closed = false;

  constructor(limits: Partial<ConversionLimits> = {}) {
    this.limits = { ...DEFAULT_CONVERSION_LIMITS, ...limits };
  }

  async convert(request: ConversionRequest, signal?: AbortSignal): Promise<ConversionOutcome> {
    if (this.closed) throw new ConversionCrashedError('The converter is closed');
    if (signal?.aborted) throw new ConversionAbortedError();
    const child = this.takeIdle() ?? (await this.takeSpare()) ?? (await startChild(this.limits.memoryMb).ready);
    this.busy.add(child);
    try {
      const outcome = await this.run(child, request, signal);
      if (this.closed) child.child.kill('SIGKILL');
      else this.idle.push(child);
      return outcome;
    } catch (error) {
      child.child.kill('SIGKILL');
      throw error;
    } finally {
      this.busy.delete(child);
      // A process ended (a limit, a death, an abort): its successor starts now, not when the next job comes.
      this.refill();
    }
  }

  /**
   * Keeps `count` processes started (idle, busy or starting), so that no conversion waits for Node to start and
   * load the engine: the first ones, and the one after a process was ended. A process that fails to start here is
   * left for the job that needs it to try again.
   */
  warm(count = 1): void {
    this.kept = count;
    this.refill();
  }

  private refill(): void {
    while (!this.closed && this.idle.length + this.busy.size + this.spares.length < this.kept) {
      const spare = startChild(this.limits.memoryMb);
      spare.ready.catch(() => {});
      this.spares.push(spare);
    }
  }

  /** An idle process that is still alive (one can die between jobs, e.g. killed by an operator). */
  private takeIdle(): ConversionProcess | null {
    for (let next = this.idle.pop(); next; next = this.idle.pop()) if (next.child.connected) return next;
    return null;
  }

  private async takeSpare(): Promise<ConversionProcess | null> {
    const spare = this.spares.shift();
    const taken = spare ? await spare.ready.catch(() => null) : null;
    return taken?.child.connected ? taken : null;
  }

  /** One request to one child, raced against the time limit, the memory limit, its death and the abort signal. */
  private run({ child, stderr }: ConversionProcess, request: ConversionRequest, signal?: AbortSignal): Promise<ConversionOutcome> {
    const { timeoutMs, memoryMb } = this.limits;
    stderr.clear();
    return new Promise<ConversionOutcome>((resolve, reject) => {
      const timer = setTimeout(() => settle(new ConversionLimitError(`The conversion ran past its time limit (timeoutMs = ${timeoutMs} ms) and was stopped`)), timeoutMs);
      const watch = setInterval(() => {
        void residentMb(child.pid).then((mb) => {
          if (mb > memoryMb) settle(memoryError(memoryMb));
        });
      }, MEMORY_POLL_MS);
      const onMessage = (reply: Reply): void => {
        if (reply.ok && reply.outcome) settle(null, reply.outcome);
        else settle(new ConversionCrashedError(reply.error ?? 'The conversion failed'));
      };
      const onExit = (code: number | null, signalName: string | null): void => settle(deathError(code, signalName, stderr.text(), memoryMb));
      const onAbort = (): void => settle(new ConversionAbortedError());
      const settle = (error: Error | null, outcome?: ConversionOutcome): void => {
        clearTimeout(timer);
        clearInterval(watch);
        child.off('message', onMessage);
        child.off('close', onExit);
        signal?.removeEventListener('abort', onAbort);
        if (error) reject(error);
        else resolve(outcome!);
      };
      child.on('message', onMessage);
      // 'close', not 'exit': by then the dying words on stderr have been read.
      child.once('close', onExit);
      // The signal may have fired while a process was being started for this request: an abort event is not repeated.
      if (signal?.aborted) return settle(new ConversionAbortedError());
      signal?.addEventListener('abort', onAbort, { once: true });
      child.send(request);
    });
  }

  /** Small reports (written by the worker itself) do not need a process. */
  reportXlsx(report: ConversionReport): Promise<Uint8Array> {
    return reportToXlsx(report);
  }

  async close(): Promise<void> {
    this.closed = true;
    // A spare still starting is killed as it is: closing never waits for a process to start.
    for (const { child } of this.spares.splice(0)) child.kill('SIGKILL');
    for (const { child } of [...this.idle.splice(0), ...this.busy]) child.kill('SIGKILL');
  }
}

/** Runs conversions on the calling thread: for hosts that do not want processes, and for comparison in benchmarks. */
export class InlineConverter implements Converter {
  async convert(request: ConversionRequest, signal?: AbortSignal): Promise<ConversionOutcome> {
    if (signal?.aborted) throw new ConversionAbortedError();
    return runConversion(request);
  }

  reportXlsx(report: ConversionReport): Promise<Uint8Array> {
    return reportToXlsx(report);
  }

  async close(): Promise<void> {}
}

function memoryError(memoryMb: number): ConversionLimitError {
  return new ConversionLimitError(`The conversion needed more than its memory limit (memoryMb = ${memoryMb} MB) and was stopped`);
}

/** A child that exited without answering: out of heap (V8 says so on stderr) or some other death, both final. */
function deathError(code: number | null, signalName: string | null, stderr: string, memoryMb: number): ConversionLimitError {
  if (/heap out of memory|invalid size error|invalid array length|Allocation failed/i.test(stderr)) return memoryError(memoryMb);
  const how = signalName ? `signal ${signalName}` : `exit code ${code}`;
  return new ConversionLimitError(`The conversion process ended on this input (${how}); the job is not retried, as the same input would end it again`);
}

/** A forked conversion process and the end of what it wrote to stderr. */
interface ConversionProcess {
  child: ChildProcess;
  stderr: StderrTail;
}

/** A process forked and not yet listening: `ready` resolves once it listens. */
interface StartingProcess {
  child: ChildProcess;
  ready: Promise<ConversionProcess>;
}

/** Forks a conversion process. */
function startChild(memoryMb: number): StartingProcess {
  const { entry, execArgv } = childEntry();
  const child = fork(entry, [], {
    execArgv: [...execArgv, `--max-old-space-size=${memoryMb}`],
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  const stderr = new StderrTail(child);
  // A send to a process that died is reported here as well as by its 'close'; only the latter is acted on.
  child.on('error', () => {});
  const ready = new Promise<ConversionProcess>((resolve, reject) => {
    const onReady = (reply: Reply): void => {
      if (!reply.ready) return;
      done();
      resolve({ child, stderr });
    };
    const onExit = (code: number | null, signalName: string | null): void => {
      done();
      reject(new ConversionCrashedError(`The conversion process did not start (${signalName ?? `exit code ${code}`}): ${stderr.text().split('\n').find((line) => line.trim()) ?? ''}`.trim()));
    };
    const onError = (error: Error): void => {
      done();
      reject(new ConversionCrashedError(`The conversion process could not be started: ${error.message}`));
    };
    const done = (): void => {
      child.off('message', onReady);
      child.off('exit', onExit);
      child.off('error', onError);
    };
    child.on('message', onReady);
    child.once('exit', onExit);
    child.once('error', onError);
  });
  return { child, ready };
}

/**
 * From the built package the child runs `child.js` next to this file, with the worker's own Node options less
 * those a second process must not share (an inspector port, a heap size of its own). From TypeScript sources
 * (tests, benches) it runs `child.ts` through tsx, registered unless the worker already runs under it.
 */
function childEntry(): { entry: string; execArgv: string[] } {
  const here = import.meta.url;
  const inherited = process.execArgv.filter((arg) => !/^--(inspect|debug|max-old-space-size|prof|cpu-prof|heap-prof)/.test(arg));
  if (here.endsWith('.js')) return { entry: fileURLToPath(new URL('./child.js', here)), execArgv: inherited };
  const underTsx = inherited.some((arg) => arg.includes('tsx'));
  return { entry: fileURLToPath(new URL('./child.ts', here)), execArgv: underTsx ? inherited : [...inherited, `--import=${tsxLoader(here)}`] };
}

/** URL of tsx's loader (its package's main export), found through its package.json. */
function tsxLoader(from: string): string {
  const manifestPath = createRequire(from).resolve('tsx/package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { exports: Record<string, unknown> };
  const main = manifest.exports['.'];
  if (typeof main !== 'string') throw new Error('tsx has no main export');
  return pathToFileURL(join(dirname(manifestPath), main)).href;
}

/** The last bytes a child wrote to stderr; read for as long as the child lives, so its pipe never fills. */
class StderrTail {
  private tail = '';

  constructor(child: ChildProcess) {
    child.stderr?.on('data', (chunk: Buffer) => {
      this.tail = (this.tail + chunk.toString('latin1')).slice(-STDERR_TAIL_BYTES);
    });
  }

  text(): string {
    return this.tail;
  }

  clear(): void {
    this.tail = '';
  }
}

/** Resident size of a process in MB from /proc (Linux); 0 where it cannot be read, leaving the heap limit alone. */
async function residentMb(pid: number | undefined): Promise<number> {
  if (pid === undefined) return 0;
  try {
    const status = await readFile(`/proc/${pid}/status`, 'latin1');
    const match = /VmRSS:\s+(\d+) kB/.exec(status);
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}
