import { expect } from 'chai';
import { ChildProcessPool, type ChildLimits } from '@satyapan/jobs';
import type { ChildTask } from './support/child.js';
import { childPids } from './support/processes.js';

class LimitError extends Error {}
class CrashedError extends Error {}
class AbortedError extends Error {}

function pool(limits: Partial<ChildLimits> = {}, name = './support/child'): ChildProcessPool<ChildTask, string | number> {
  return new ChildProcessPool<ChildTask, string | number>({
    entry: { from: import.meta.url, name },
    noun: 'test task',
    limits: { timeoutMs: 10_000, memoryMb: 512, ...limits },
    errors: { limit: (message) => new LimitError(message), crashed: (message) => new CrashedError(message), aborted: () => new AbortedError('aborted') },
  });
}

const failure = (promise: Promise<unknown>): Promise<unknown> => promise.then(() => null, (error: unknown) => error);

/** The child-process runner of every family (statement conversions, Form 16 generation), on a child of its own. */
describe('jobs: ChildProcessPool', function () {
  this.timeout(30_000);

  it('answers requests from one kept process, and an error thrown in the child as `crashed`', async () => {
    const children = pool();
    try {
      expect(await children.run({ echo: 'hello' })).to.equal('hello');
      const pid = await children.run({ pid: true });
      expect(await children.run({ pid: true })).to.equal(pid);
      const error = await failure(children.run({ fail: 'no such file' }));
      expect(error).to.be.instanceOf(CrashedError).and.to.have.property('message', 'no such file');
    } finally {
      await children.close();
    }
  });

  it('ends a request past its time limit, naming it with the noun, and serves the next from a new process', async () => {
    const children = pool({ timeoutMs: 300 });
    try {
      const pid = await children.run({ pid: true });
      const error = await failure(children.run({ sleepMs: 5_000 }));
      expect(error).to.be.instanceOf(LimitError).and.to.have.property('message', 'The test task ran past its time limit (timeoutMs = 300 ms) and was stopped');
      expect(await children.run({ pid: true })).not.to.equal(pid);
    } finally {
      await children.close();
    }
  });

  it('tells a death on the input (its exit code), and memory past the limit, as limits', async () => {
    const children = pool({ memoryMb: 200 });
    try {
      const died = await failure(children.run({ exit: 3 }));
      expect(died).to.be.instanceOf(LimitError);
      expect((died as Error).message).to.equal('The test task process ended on this input (exit code 3); the job is not retried, as the same input would end it again');
      const grew = await failure(children.run({ allocateMb: 400 }));
      expect(grew).to.be.instanceOf(LimitError).and.to.have.property('message', 'The test task needed more than its memory limit (memoryMb = 200 MB) and was stopped');
    } finally {
      await children.close();
    }
  });

  it('warm() resolves once the processes it started listen, and the first request takes one of them; a process that cannot start does not reject it', async () => {
    process.env.TEST_CHILD_START_DELAY_MS = '1500';
    const children = pool();
    try {
      const asked = Date.now();
      await children.warm(1);
      expect(Date.now() - asked, 'warm() waited for the slow start').to.be.at.least(1500);
      const started = childPids('support/child.');
      expect(started).to.have.length(1);
      expect(await children.run({ pid: true })).to.equal(started[0]);
    } finally {
      delete process.env.TEST_CHILD_START_DELAY_MS;
      await children.close();
    }
    const broken = pool({}, './support/no-such-child');
    try {
      expect(await broken.warm(1)).to.equal(undefined);
      expect(await failure(broken.run({ echo: 'x' }))).to.be.instanceOf(CrashedError);
    } finally {
      await broken.close();
    }
  });

  it('stops a request when its signal aborts, and refuses requests once closed', async () => {
    const children = pool();
    children.warm(1);
    const abort = new AbortController();
    const running = failure(children.run({ sleepMs: 5_000 }, abort.signal));
    setTimeout(() => abort.abort(), 100);
    expect(await running).to.be.instanceOf(AbortedError);
    await children.close();
    expect(await failure(children.run({ echo: 'late' }))).to.be.instanceOf(CrashedError);
  });
});
