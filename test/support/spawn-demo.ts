// Runs the demo host app (`npm start`'s program) as a child process from its TypeScript sources.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../../examples/host-app/src/main.ts', import.meta.url));

export interface DemoProcess {
  child: ChildProcess;
  output(): string;
  /** Resolves with the output once `pattern` appears, rejects if the process exits first. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  exited(): Promise<number | null>;
  stop(): Promise<number | null>;
}

export function spawnDemo(env: NodeJS.ProcessEnv): DemoProcess {
  const child = spawn(process.execPath, ['--conditions=satyapan-source', '--import', 'tsx', MAIN], {
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => { out += chunk.toString(); });
  child.stderr?.on('data', (chunk: Buffer) => { out += chunk.toString(); });
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => out,
    exited: () => exit,
    waitFor(pattern, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => { cleanup(); reject(new Error(`timed out waiting for ${pattern}; output:\n${out}`)); }, timeoutMs);
        const check = (): void => {
          const match = out.match(pattern);
          if (match) { cleanup(); resolve(match); }
        };
        const onExit = (): void => { cleanup(); reject(new Error(`demo exited before ${pattern}; output:\n${out}`)); };
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
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exit;
    },
  };
}
