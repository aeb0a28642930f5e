// A child of the ChildProcessPool tests: answers what it is asked to do.
import { serveRequests } from '@satyapan/jobs';

export type ChildTask = { echo: string } | { fail: string } | { sleepMs: number } | { exit: number } | { allocateMb: number } | { pid: true };

const held: Buffer[] = [];

// A slow start (loading a big engine, a loaded machine), when the test asks for one.
const startDelayMs = Number(process.env.TEST_CHILD_START_DELAY_MS ?? 0);
if (startDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, startDelayMs));

serveRequests<ChildTask, string | number>(async (task) => {
  if ('echo' in task) return task.echo;
  if ('fail' in task) throw new Error(task.fail);
  if ('sleepMs' in task) return new Promise((resolve) => setTimeout(() => resolve('slept'), task.sleepMs));
  if ('exit' in task) process.exit(task.exit);
  if ('allocateMb' in task) {
    for (let i = 0; i < task.allocateMb; i++) held.push(Buffer.alloc(1024 * 1024, 1));
    return new Promise((resolve) => setTimeout(() => resolve('held'), 5_000));
  }
  return process.pid;
});
