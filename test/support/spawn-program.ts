// Runs one of our programs (the demo host app, the example worker) as a child process from its TypeScript
// sources, and lets a test read its output, wait for a line, and stop or kill it.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { accessTokenOf } from './tokens.js';
import { loadScaled } from '../../packages/jobs/test/support/processes.js';

export interface ProgramProcess {
  child: ChildProcess;
  output(): string;
  /**
   * Resolves with the match once `pattern` appears in stdout or stderr; rejects if the process exits first, or
   * after `timeoutMs` (20 s by default) on an idle machine, longer under load (loadScaled).
   */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  exited(): Promise<number | null>;
  /** Sends `signal` (default SIGTERM) unless the process already ended, and resolves with its exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export const PROGRAMS = {
  demo: fileURLToPath(new URL('../../examples/host-app/src/main.ts', import.meta.url)),
  worker: fileURLToPath(new URL('../../examples/worker/src/main.ts', import.meta.url)),
} as const;

export interface SpawnOptions {
  cwd?: string;
  /** Node's options before `main`; by default our sources through tsx (`--conditions=satyapan-source --import tsx`). */
  nodeArgs?: readonly string[];
  /** The program's own arguments, after `main`. */
  args?: readonly string[];
}

/**
 * Programs still running when mocha exits (a failed or timed-out test skipped its `stop`) get SIGTERM, so that each
 * shuts down what it started (the demo its private redis-server); `process.exit` allows nothing asynchronous.
 */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGTERM');
});

export function spawnProgram(main: string, env: NodeJS.ProcessEnv, options: SpawnOptions = {}): ProgramProcess {
  const nodeArgs = options.nodeArgs ?? ['--conditions=satyapan-source', '--import', 'tsx'];
  const child = spawn(process.execPath, [...nodeArgs, main, ...(options.args ?? [])], {
    ...(options.cwd ? { cwd: options.cwd } : {}),
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let out = '';
  const collect = (chunk: Buffer): void => { out += chunk.toString(); };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => out,
    exited: () => exit,
    waitFor(pattern, timeoutMs = 20_000) {
      const limit = loadScaled(timeoutMs);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => { cleanup(); reject(new Error(`timed out waiting for ${pattern} (${limit} ms); output:\n${out}`)); }, limit);
        const check = (): void => {
          const match = out.match(pattern);
          if (match) { cleanup(); resolve(match); }
        };
        const onExit = (): void => { cleanup(); reject(new Error(`exited before ${pattern}; output:\n${out}`)); };
        const cleanup = (): void => {
          clearTimeout(timer);
          child.stdout?.off('data', check);
          child.stderr?.off('data', check);
          child.off('exit', onExit);
        };
        child.stdout?.on('data', check);
        child.stderr?.on('data', check);
        child.once('exit', onExit);
        check();
      });
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exit;
    },
  };
}

/** The demo host app (`npm start`'s program) on a free port. */
export function spawnDemo(env: NodeJS.ProcessEnv): ProgramProcess {
  return spawnProgram(PROGRAMS.demo, { PORT: '0', ...env });
}

export interface DemoApi {
  demo: ProgramProcess;
  /** Where the demo mounted the API. */
  api: string;
  /** A client's headers: a fresh token, the demo key, JSON. */
  headers: Record<string, string>;
  /** Stops the demo and deletes its data folder; resolves with the exit code. */
  close(): Promise<number | null>;
}

/** How a demo is run other than from its sources with the defaults (a bench runs the built code). */
export interface DemoRun {
  /** The program (default the demo's main.ts). */
  main?: string;
  /** Node's options before it (spawnProgram's default runs sources through tsx). */
  nodeArgs?: readonly string[];
  /** More environment variables. */
  env?: NodeJS.ProcessEnv;
  readyTimeoutMs?: number;
}

/**
 * The demo with its own data folder and a demo key of its own (`key_<label>_<random>`: rate-limit counters live
 * in the shared Redis, so a rerun must not inherit the last run's), started and signed in. `token` gets the
 * access token from the demo's printed output (e.g. by running its curl line); by default the API is asked.
 */
export async function startDemoApi(label: string, token?: (output: string) => string, run: DemoRun = {}): Promise<DemoApi> {
  const dataDir = await mkdtemp(join(tmpdir(), `satyapan-demo-${label}-`));
  const id = randomUUID().slice(0, 8);
  const key = `key_${label}_${id}`;
  const secret = `secret_${label}_${id}`;
  const env = { PORT: '0', ...run.env, SATYAPAN_DEMO_KEY: key, SATYAPAN_DEMO_SECRET: secret, SATYAPAN_DATA_DIR: dataDir };
  const demo = spawnProgram(run.main ?? PROGRAMS.demo, env, run.nodeArgs ? { nodeArgs: run.nodeArgs } : {});
  let api: string;
  let accessToken: string;
  try {
    await demo.waitFor(/Stop with Ctrl\+C/, run.readyTimeoutMs);
    api = demo.output().match(/API mounted at\s+(\S+)/)?.[1] ?? '';
    accessToken = token ? token(demo.output()) : await authenticate(api, key, secret);
  } catch (error) {
    // A demo that did not come up is stopped and its folder removed here: the caller never gets a handle to close.
    await demo.stop();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    demo, api,
    headers: { authorization: accessToken, 'x-api-key': key, 'content-type': 'application/json' },
    async close() {
      const code = await demo.stop();
      await rm(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}

/**
 * For a suite's `after` hook: closes the demo `starting` (startDemoApi's promise) gives, once it has come up, and
 * resolves with its exit code; with undefined when it never did (its `before` failed: startDemoApi stopped it and
 * removed its folder) or was never started. A `before` that timed out left its start running: it is waited for here.
 */
export async function closeStartedDemo(starting: Promise<DemoApi> | undefined): Promise<number | null | undefined> {
  const demo = await starting?.catch(() => undefined);
  return demo?.close();
}

async function authenticate(api: string, key: string, secret: string): Promise<string> {
  return accessTokenOf(await fetch(`${api}/authenticate`, { method: 'POST', headers: { 'x-api-key': key, 'x-api-secret': secret } }));
}
