// Issue 24: a fresh demo answered its first /authenticate with 429 `Too Many Requests` because the credential
// lockout, kept in Redis under the default prefix, counted another process's failures. Two demos with their own
// data dirs on one Redis now keep their own counters; a lockout says what it is, and the banner says how to end it.
import { expect } from 'chai';
import { exec } from 'node:child_process';
import { promisify } from 'node:util';
import { closeStartedDemo, startDemoApi, type DemoApi } from './support/spawn-program.js';
import { loadScaled } from '../packages/jobs/test/support/processes.js';

const LOCKED = /^Too many failed credential attempts from this address; retry after (\d+) s$/;

/**
 * Runs a printed command line as a shell does. Not execSync: a command that takes longer than the demo's keep-alive
 * timeout (npx on a loaded machine) would hold this process while the demo closes its kept-alive connection, and
 * the next fetch would be sent on it (other side closed).
 */
const run = promisify(exec);

describe('demo: the credential lockout is its own, explained, and cleared with the printed command', function () {
  this.timeout(90_000);
  let first: DemoApi;
  let second: DemoApi;
  let starting: Array<Promise<DemoApi>> = [];
  before(async function () {
    this.timeout(loadScaled(90_000));
    starting = [startDemoApi('lockout_a')];
    first = await starting[0]!;
    starting.push(startDemoApi('lockout_b'));
    second = await starting[1]!;
  });
  after(async function () {
    this.timeout(loadScaled(90_000));
    await Promise.all(starting.map(closeStartedDemo));
  });

  const authenticate = (demo: DemoApi, secret: string) =>
    fetch(`${demo.api}/authenticate`, { method: 'POST', headers: { 'x-api-key': demo.headers['x-api-key'] as string, 'x-api-secret': secret } });

  it('locks one demo out after 20 failures from an address, with its own message; the other demo on the same Redis is not locked', async () => {
    for (let attempt = 0; attempt < 20; attempt++) expect((await authenticate(first, `wrong-${attempt}`)).status).to.equal(401);
    const refused = await authenticate(first, 'wrong-again');
    expect(refused.status).to.equal(429);
    const body = (await refused.json()) as { code: number; message: string };
    expect(body.code).to.equal(429);
    expect(body.message).to.match(LOCKED);
    expect(body.message.match(LOCKED)?.[1]).to.equal(refused.headers.get('retry-after'));
    // The second demo's data dir gives it a key prefix of its own: none of the first one's failures count there.
    const [firstPrefix, secondPrefix] = [first, second].map((demo) => demo.demo.output().match(/Key prefix\s+(\S+)/)?.[1]);
    expect(firstPrefix).to.match(/^satyapan-[0-9a-f]{8}$/).and.not.equal(secondPrefix);
    const line = second.demo.output().split('\n').find((each) => each.trim().startsWith('curl -s -X POST'));
    expect(line, 'the banner\'s curl').to.be.a('string');
    expect(JSON.parse((await run((line as string).trim())).stdout).data.access_token).to.match(/^eyJ/);
  });

  it('the banner\'s two-liner says why it got no token instead of printing a stack; the printed clear command ends the lockout', async () => {
    const output = first.demo.output();
    const lines = output.split('\n');
    const tokenLine = lines.find((each) => each.trim().startsWith('TOKEN=$(')) as string;
    const stderr = await run(tokenLine.trim(), { shell: '/bin/bash' }).then(
      () => expect.fail('the locked-out address got a token'),
      (error: { stderr?: string }) => String(error.stderr),
    );
    expect(stderr.trim()).to.match(/^429 Too many failed credential attempts from this address; retry after \d+ s$/);
    const clear = lines.find((each) => each.includes('satyapan-admin clear-lockout')) as string;
    expect(clear.trim()).to.match(/^npx satyapan-admin clear-lockout --address 127\.0\.0\.1 --key-prefix satyapan-[0-9a-f]{8}$/);
    expect((await run(clear.trim())).stdout).to.match(/^address 127\.0\.0\.1: cleared 1 failed-attempt counter\(s\) under key prefix satyapan-[0-9a-f]{8}; the lockout is over\n$/);
    expect((await authenticate(first, first.headers['x-api-key']!.replace('key_', 'secret_'))).status).to.equal(200);
  });
});
