// npm run bench -- kyc [--seconds N] [--rounds N]
// Profile reads/s through the router (operation 2) against the locker simulator, vs direct calls to the
// simulator's user endpoint with a locker access token, and vs a bare Express proxy of the same read (the floor of
// any router on this machine: the simulator, the proxy and the load share its cores), measured in the same run. The simulator runs in a
// child process, as a real locker would be elsewhere; the router runs the built code in a process of its own and
// autocannon in a third (bench/_http.ts). `--cpu-prof <dir>` profiles the router's process.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { calculatePKCECodeChallenge, randomPKCECodeVerifier } from 'openid-client';
import { OpenIdLockerClient } from '@satyapan/kyc';
import { LOCKER_INDIVIDUALS, answerConsentPage } from '@satyapan/sandbox';
import { BENCH_CLIENT, benchHeaders, dropKeys, compare, freePort, profileArg, roundsArg, secondsArg, startServer, type ServerProcess } from './_http.js';

const LOCKER_CLIENT = { clientId: 'bench-kyc', clientSecret: 'bench-kyc-secret' };
const USER = LOCKER_INDIVIDUALS[0]!;

/** Submits the simulator's consent form the way a browser without JavaScript would; returns the redirect. */
async function allow(authorizationUrl: string, documents: string[]): Promise<URL> {
  const answer = await answerConsentPage(authorizationUrl, { user: USER.id, documents });
  return new URL(answer.headers.get('location') ?? '');
}

/** Lockers in a child process on the built code; it stops when its stdin closes (so it never outlives this process). */
async function startSimulatorProcess(clients: unknown[]): Promise<{ docvault: string; entityvault: string; server: ServerProcess }> {
  const script = `
    import { startLockerSimulator } from '@satyapan/sandbox';
    const sim = await startLockerSimulator({ clients: JSON.parse(process.argv[1]) });
    process.stdout.write(JSON.stringify({ docvault: sim.docvaultBaseUrl, entityvault: sim.entityvaultBaseUrl }) + '\\n');
    process.stdin.on('end', () => sim.close().then(() => process.exit(0)));
    process.stdin.resume();`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(clients)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`locker simulator exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', resolve);
  });
  child.removeAllListeners('exit');
  const urls = JSON.parse(line) as { docvault: string; entityvault: string };
  return {
    ...urls,
    server: {
      url: urls.docvault, command: "node --input-type=module -e '<startLockerSimulator from @satyapan/sandbox dist>'", pid: child.pid,
      close: () => new Promise((resolve) => { child.once('exit', () => resolve()); child.stdin!.end(); }),
    },
  };
}

export async function main(args: string[]): Promise<void> {
  const seconds = secondsArg(args, 5);
  // The lockers must know the router's callback URL as a registered redirect URI: its port is chosen first.
  const port = await freePort();
  const api = `http://127.0.0.1:${port}/api`;
  const sim = await startSimulatorProcess([
    { ...LOCKER_CLIENT, name: 'Satyapan benchmark', redirectUris: [`${api}/kyc/docvault/callback`, 'http://127.0.0.1/direct'] },
  ]);
  const dir = await mkdtemp(join(tmpdir(), 'satyapan-bench-kyc-'));
  const keyPrefix = `bench:${randomUUID()}`;
  const servers: ServerProcess[] = [sim.server];
  const lockerConfig = (baseUrl: string) => ({ baseUrl, ...LOCKER_CLIENT });
  try {
    const router = await startServer('kyc', {
      port, keyPrefix, dir, client: BENCH_CLIENT, lockers: { docvault: sim.docvault, entityvault: sim.entityvault, ...LOCKER_CLIENT },
    }, profileArg(args));
    servers.push(router);
    const headers = await benchHeaders(api);

    // A session through the router: init, consent at the locker, our callback.
    const init = await fetch(`${api}/kyc/docvault/sessions/init`, {
      method: 'POST', headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ '@entity': 'in.co.service.kyc.docvault.session.request', flow: 'signin', redirect_url: 'https://bench.example/done', doc_types: ['aadhaar'] }),
    });
    const { session_id: sessionId, authorization_url: authorizationUrl } = ((await init.json()) as { data: { session_id: string; authorization_url: string } }).data;
    await fetch(await allow(authorizationUrl, ['ADHAR']), { redirect: 'manual' });

    // A locker access token of our own for the direct calls, through the same OAuth client code.
    const direct = new OpenIdLockerClient({ kind: 'docvault', ...lockerConfig(sim.docvault), callbackUrl: 'http://127.0.0.1/direct' });
    const verifier = randomPKCECodeVerifier();
    const url = direct.authorizationUrl({
      redirectUri: 'http://127.0.0.1/direct', state: 'bench', codeChallenge: await calculatePKCECodeChallenge(verifier),
      consentValidTill: Math.floor(Date.now() / 1000) + 3600, signup: false, docTypes: ['ADHAR'],
    });
    const back = await allow(url.toString(), ['ADHAR']);
    const lockerTokens = await direct.exchangeCode(back.searchParams, 'bench', verifier, 'http://127.0.0.1/direct');

    const directUrl = `${sim.docvault}/oauth2/1/user`;
    const routedUrl = `${api}/kyc/docvault/sessions/${sessionId}/user/profile`;
    const bearer = { authorization: `Bearer ${lockerTokens.accessToken}` };
    const check = await fetch(routedUrl, { headers });
    if (check.status !== 200) throw new Error(`profile read failed before the run: HTTP ${check.status} ${await check.text()}`);

    // The floor of any router here: bare Express forwarding the same read over the same transport.
    const proxy = await startServer('proxy', { upstream: { url: directUrl, headers: bearer } });
    servers.push(proxy);

    await compare('router/direct', { name: 'locker simulator GET /oauth2/1/user', server: sim.server, url: directUrl, options: { headers: bearer } },
      { name: 'router GET .../user/profile (op 2)', server: router, url: routedUrl, options: { headers } }, seconds, roundsArg(args), {
        side: { name: 'bare express proxy GET /profile', server: proxy, url: `${proxy.url}/profile` },
        label: 'proxy floor/direct', subjectLabel: 'router/proxy floor',
      });
    console.log('per read the router authenticates (JWT, revocation, rate limit in Redis), loads the session from Redis, '
      + 'unseals the upstream tokens, calls the locker over HTTP (the direct baseline), maps the fields and envelopes; '
      + 'the proxy floor only forwards the read (Express, one upstream call over the same transport, res.json)');
  } finally {
    for (const server of servers.reverse()) await server.close();
    await dropKeys(keyPrefix);
    await rm(dir, { recursive: true, force: true });
  }
}
