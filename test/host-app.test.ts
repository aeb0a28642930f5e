import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execSync } from 'node:child_process';
import { spawnDemo } from './support/spawn-demo.js';

/** Runs the curl line the demo printed and returns its JSON answer. */
function runPrintedCurl(output: string): { data: { access_token: string } } {
  const line = output.split('\n').find((l) => l.trim().startsWith('curl '));
  if (!line) throw new Error(`no curl line in:\n${output}`);
  return JSON.parse(execSync(line.trim(), { encoding: 'utf8' })) as { data: { access_token: string } };
}

describe('demo host app (npm start)', function () {
  this.timeout(60_000);
  let dataDir: string;
  beforeEach(async () => { dataDir = await mkdtemp(join(tmpdir(), 'satyapan-demo-')); });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  it('starts a private redis-server when none answers, prints credentials, and the printed curl returns a token', async () => {
    const demo = spawnDemo({ REDIS_URL: 'redis://127.0.0.1:1', SATYAPAN_DATA_DIR: dataDir });
    try {
      await demo.waitFor(/Stop with Ctrl\+C/);
      expect(demo.output()).to.match(/private redis-server started/);
      const answer = runPrintedCurl(demo.output());
      expect(answer.data.access_token).to.match(/^eyJ/);
      const health = await fetch(`${demo.output().match(/API mounted at\s+(\S+)/)?.[1]}/health`);
      expect(health.status).to.equal(200);
    } finally {
      expect(await demo.stop()).to.equal(0);
    }
  });

  it('uses the configured demo credentials and a running Redis', async () => {
    const demo = spawnDemo({ SATYAPAN_DEMO_KEY: 'key_ops', SATYAPAN_DEMO_SECRET: 'secret_ops', SATYAPAN_DATA_DIR: dataDir });
    try {
      await demo.waitFor(/Stop with Ctrl\+C/);
      expect(demo.output()).to.include('x-api-key:    key_ops');
      expect(demo.output()).not.to.match(/private redis-server/);
      expect(runPrintedCurl(demo.output()).data.access_token).to.match(/^eyJ/);
    } finally {
      expect(await demo.stop()).to.equal(0);
    }
  });

  it('exits 1 with a clear message when no Redis answers and redis-server is not installed', async () => {
    // An empty PATH: the demo cannot find a redis-server binary to start.
    const demo = spawnDemo({ REDIS_URL: 'redis://127.0.0.1:1', SATYAPAN_DATA_DIR: dataDir, PATH: dataDir });
    expect(await demo.exited()).to.equal(1);
    expect(demo.output()).to.match(/No Redis answers at redis:\/\/127\.0\.0\.1:1\. Start one/);
    expect(demo.output()).not.to.match(/\n\s+at /);
  });
});
