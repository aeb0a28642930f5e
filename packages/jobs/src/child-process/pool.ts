import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ChildReply } from './serve.js';

/** How much one request to a child may take before its process is ended; each is named in the error. */
export interface ChildLimits {
  /** Wall time of one request, from the moment it is sent to a ready process. */
  timeoutMs: number;
  /** Memory of the child process: its V8 heap limit and the resident size it is ended at. */
  memoryMb: number;
}

/**
 * The module a child process runs, named beside the module that forks it: `{ from: import.meta.url, name: './child' }`.
 * From a built package (`from` ends in `.js`) the child runs `<name>.js`; from TypeScript sources (tests, benches)
 * it runs `<name>.ts` through tsx.
 */
export interface ChildEntry {
  from: string;
  /** Relative to `from`, without an extension. */
  name: string;
}

/** How the family tells its callers what happened; codes and classes are the family's own. */
export interface ChildPoolErrors {
  /** The child ended on its input (a limit, or a death): the same input would end it again, so never retried. */
  limit(message: string): Error;
  /** The child could not start, or answered with an error: an infrastructure failure, worth another try. */
  crashed(message: string): Error;
  /** The caller's abort signal fired. */
  aborted(): Error;
}

export interface ChildPoolOptions {
  entry: ChildEntry;
  /** What a request is, in messages: `conversion` gives "The conversion ran past its time limit ...". */
  noun: string;
  limits: ChildLimits;
  errors: ChildPoolErrors;
}

/** How often the resident size of a busy child is looked at. */
const MEMORY_POLL_MS = 200;
/** The end of a dying child's stderr, kept to tell a heap exhaustion from other deaths (never logged or stored). */
const STDERR_TAIL_BYTES = 4096;

/**
 * Requests run in child processes, one at a time each (the child's side is {@link serveRequests}): work that keeps
 * a CPU busy does not stall the event loop that renews BullMQ locks, and an input that exhausts memory, trips a V8
 * fatal error or never ends takes down only its own process (worker threads share the process: a V8 fatal error
 * in one aborts them all). Processes are kept between requests; one that dies, runs past its limits or is stopped
 * (shutdown, abort) is replaced at once when `warm()` keeps a count, else by the next request. Whatever goes to a
 * child (a password among it) goes over the IPC channel only: never its arguments, environment or a file.
 */
export class ChildProcessPool<Request, Result> {
  private readonly idle: ChildHandle[] = [];
  private readonly busy = new Set<ChildHandle>();
  /** Processes being started ahead of the requests that will need them (`warm()`), taken by the requests that come first. */
  private readonly spares: StartingChild[] = [];
  /** How many processes `warm()` keeps started: the worker's concurrency. */
  private kept = 0;
  private closed = false;

  constructor(private readonly options: ChildPoolOptions) {}

  get limits(): ChildLimits {
    return this.options.limits;
  }

  async run(request: Request, signal?: AbortSignal): Promise<Result> {
    const { errors, noun } = this.options;
    if (this.closed) throw errors.crashed(`The ${noun} processes are closed`);
    if (signal?.aborted) throw errors.aborted();
    const child = this.takeIdle() ?? (await this.takeSpare()) ?? (await this.start().ready);
    this.busy.add(child);
    try {
      const result = await this.send(child, request, signal);
      if (this.closed) child.child.kill('SIGKILL');
      else this.idle.push(child);
      return result;
    } catch (error) {
      child.child.kill('SIGKILL');
      throw error;
    } finally {
      this.busy.delete(child);
      // A process ended (a limit, a death, an abort): its successor starts now, not when the next request comes.
      this.refill();
    }
  }

  /**
   * Keeps `count` processes started (idle, busy or starting), so that no request waits for Node to start and load
   * the child's modules: the first ones, and the one after a process was ended. A process that fails to start
   * here is left for the request that needs it to try again. Resolves once the processes started now listen (or
   * failed to start): a worker is ready when it can take a request without a cold start. Never rejects.
   */
  warm(count = 1): Promise<void> {
    this.kept = count;
    this.refill();
    return Promise.all(this.spares.map((spare) => spare.ready.then(noop, noop))).then(noop);
  }

  async close(): Promise<void> {
    this.closed = true;
    // A spare still starting is killed as it is: closing never waits for a process to start.
    for (const { child } of this.spares.splice(0)) child.kill('SIGKILL');
    for (const { child } of [...this.idle.splice(0), ...this.busy]) child.kill('SIGKILL');
  }

  private refill(): void {
    while (!this.closed && this.idle.length + this.busy.size + this.spares.length < this.kept) {
      const spare = this.start();
      spare.ready.catch(() => {});
      this.spares.push(spare);
    }
  }

  /** An idle process that is still alive (one can die between requests, e.g. killed by an operator). */
  private takeIdle(): ChildHandle | null {
    for (let next = this.idle.pop(); next; next = this.idle.pop()) if (next.child.connected) return next;
    return null;
  }

  private async takeSpare(): Promise<ChildHandle | null> {
    const spare = this.spares.shift();
    const taken = spare ? await spare.ready.catch(() => null) : null;
    return taken?.child.connected ? taken : null;
  }

  /** One request to one child, raced against the time limit, the memory limit, its death and the abort signal. */
  private send({ child, stderr }: ChildHandle, request: Request, signal?: AbortSignal): Promise<Result> {
    const { limits: { timeoutMs, memoryMb }, errors, noun } = this.options;
    stderr.clear();
    return new Promise<Result>((resolve, reject) => {
      const timer = setTimeout(() => settle(errors.limit(`The ${noun} ran past its time limit (timeoutMs = ${timeoutMs} ms) and was stopped`)), timeoutMs);
      const watch = setInterval(() => {
        void residentMb(child.pid).then((mb) => {
          if (mb > memoryMb) settle(errors.limit(memoryMessage(noun, memoryMb)));
        });
      }, MEMORY_POLL_MS);
      const onMessage = (reply: ChildReply<Result>): void => {
        if ('ready' in reply) return;
        if (reply.ok) settle(null, reply.result);
        else settle(errors.crashed(reply.error || `The ${noun} failed`));
      };
      const onExit = (code: number | null, signalName: string | null): void => settle(errors.limit(deathMessage(noun, code, signalName, stderr.text(), memoryMb)));
      const onAbort = (): void => settle(errors.aborted());
      const settle = (error: Error | null, result?: Result): void => {
        clearTimeout(timer);
        clearInterval(watch);
        child.off('message', onMessage);
        child.off('close', onExit);
        signal?.removeEventListener('abort', onAbort);
        if (error) reject(error);
        else resolve(result as Result);
      };
      child.on('message', onMessage);
      // 'close', not 'exit': by then the dying words on stderr have been read.
      child.once('close', onExit);
      // The signal may have fired while a process was being started for this request: an abort event is not repeated.
      if (signal?.aborted) return settle(errors.aborted());
      signal?.addEventListener('abort', onAbort, { once: true });
      child.send(request as object);
    });
  }

  /** Forks a child process. */
  private start(): StartingChild {
    const { entry: { from, name }, limits: { memoryMb }, errors, noun } = this.options;
    const { entry, execArgv } = childEntry(from, name);
    const child = fork(entry, [], {
      execArgv: [...execArgv, `--max-old-space-size=${memoryMb}`],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    const stderr = new StderrTail(child);
    // A send to a process that died is reported here as well as by its 'close'; only the latter is acted on.
    child.on('error', () => {});
    const ready = new Promise<ChildHandle>((resolve, reject) => {
      const onReady = (reply: ChildReply<Result>): void => {
        if (!('ready' in reply)) return;
        done();
        resolve({ child, stderr });
      };
      const onExit = (code: number | null, signalName: string | null): void => {
        done();
        reject(errors.crashed(`The ${noun} process did not start (${signalName ?? `exit code ${code}`}): ${stderr.text().split('\n').find((line) => line.trim()) ?? ''}`.trim()));
      };
      const onError = (error: Error): void => {
        done();
        reject(errors.crashed(`The ${noun} process could not be started: ${error.message}`));
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
}

function memoryMessage(noun: string, memoryMb: number): string {
  return `The ${noun} needed more than its memory limit (memoryMb = ${memoryMb} MB) and was stopped`;
}

/** A child that exited without answering: out of heap (V8 says so on stderr) or some other death, both final. */
function deathMessage(noun: string, code: number | null, signalName: string | null, stderr: string, memoryMb: number): string {
  if (/heap out of memory|invalid size error|invalid array length|Allocation failed/i.test(stderr)) return memoryMessage(noun, memoryMb);
  const how = signalName ? `signal ${signalName}` : `exit code ${code}`;
  return `The ${noun} process ended on this input (${how}); the job is not retried, as the same input would end it again`;
}

/** A forked process and the end of what it wrote to stderr. */
interface ChildHandle {
  child: ChildProcess;
  stderr: StderrTail;
}

/** A process forked and not yet listening: `ready` resolves once it listens. */
interface StartingChild {
  child: ChildProcess;
  ready: Promise<ChildHandle>;
}

/**
 * From a built package the child runs `<name>.js` beside `from`, with this process's own Node options less those
 * a second process must not share (an inspector port, a heap size of its own). From TypeScript sources (tests,
 * benches) it runs `<name>.ts` through tsx, registered unless this process already runs under it.
 */
function childEntry(from: string, name: string): { entry: string; execArgv: string[] } {
  const inherited = process.execArgv.filter((arg) => !/^--(inspect|debug|max-old-space-size|prof|cpu-prof|heap-prof)/.test(arg));
  if (from.endsWith('.js')) return { entry: fileURLToPath(new URL(`${name}.js`, from)), execArgv: inherited };
  const underTsx = inherited.some((arg) => arg.includes('tsx'));
  return { entry: fileURLToPath(new URL(`${name}.ts`, from)), execArgv: underTsx ? inherited : [...inherited, `--import=${tsxLoader(from)}`] };
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

function noop(): void {}
