// npm run bench -- kyc [--seconds N]
// Profile reads/s through the router (operation 2) against the locker simulator, vs direct calls to the
// simulator's user endpoint with a locker access token, measured in the same run. The simulator runs in a
// child process, as a real locker would be elsewhere: the router's process does only the router's work.
import express from 'express';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { calculatePKCECodeChallenge, randomPKCECodeVerifier } from 'openid-client';
import { FsStorage, Sealer, createRedisConnection, waitForRedis } from '@satyapan/core';
import { OpenIdLockerClient, createKycServices, kycArea } from '@satyapan/kyc';
import { createRouter } from '@satyapan/router';
import { LOCKER_INDIVIDUALS, answerConsentPage } from '@satyapan/sandbox';
import { formatLoad, listen, load, secondsArg } from './_http.js';

const LOCKER_CLIENT = { clientId: 'bench-kyc', clientSecret: 'bench-kyc-secret' };
const USER = LOCKER_INDIVIDUALS[0]!;

/** Submits the simulator's consent form the way a browser without JavaScript would; returns the redirect. */
async function allow(authorizationUrl: string, documents: string[]): Promise<URL> {
  const answer = await answerConsentPage(authorizationUrl, { user: USER.id, documents });
  return new URL(answer.headers.get('location') ?? '');
}

/** Lockers in a child process; it stops when its stdin closes (so it never outlives this process). */
async function startSimulatorProcess(clients: unknown[]): Promise<{ docvault: string; entityvault: string; child: ChildProcess }> {
  const script = `
    import { startLockerSimulator } from '@satyapan/sandbox';
    const sim = await startLockerSimulator({ clients: JSON.parse(process.argv[1]) });
    process.stdout.write(JSON.stringify({ docvault: sim.docvaultBaseUrl, entityvault: sim.entityvaultBaseUrl }) + '\\n');
    process.stdin.on('end', () => sim.close().then(() => process.exit(0)));
    process.stdin.resume();`;
  const child = spawn(process.execPath, ['--conditions=satyapan-source', '--import', 'tsx', '--input-type=module', '-e', script, JSON.stringify(clients)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`locker simulator exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', resolve);
  });
  return { ...(JSON.parse(line) as { docvault: string; entityvault: string }), child };
}

export async function main(args: string[]): Promise<void> {
  const seconds = secondsArg(args, 10);
  // The router listens first: the lockers must know its callback URL as a registered redirect URI.
  const app = express();
  const routerServer = await listen(app);
  const api = `${routerServer.url}/api`;
  const sim = await startSimulatorProcess([
    { ...LOCKER_CLIENT, name: 'Satyapan benchmark', redirectUris: [`${api}/kyc/docvault/callback`, 'http://127.0.0.1/direct'] },
  ]);
  const redis = createRedisConnection({ flavour: 'producer' });
  await waitForRedis(redis);
  const dir = await mkdtemp(join(tmpdir(), 'satyapan-bench-kyc-'));
  const keyPrefix = `bench:${randomUUID()}`;
  const storage = new FsStorage({ root: dir, signingSecret: randomBytes(32) });
  const lockerConfig = (baseUrl: string) => ({ baseUrl, ...LOCKER_CLIENT });
  const services = createKycServices({
    redis, keyPrefix, storage, sealingKeys: [{ id: 'bench', key: Sealer.generateKey() }], stateSecret: randomBytes(32),
    lockers: { docvault: lockerConfig(sim.docvault), entityvault: lockerConfig(sim.entityvault) },
  });
  const client = { id: 'bench', apiKey: 'key_bench', apiSecret: 'secret_bench', rateLimitPerMinute: 1_000_000_000 };
  app.use('/api', createRouter({
    redis, keyPrefix, storage, clients: [client], tokens: { secret: 'bench-secret-bench-secret-bench-secret' }, areas: [kycArea(services)],
    publicBaseUrl: api,
  }));

  try {
    const auth = await fetch(`${api}/authenticate`, { method: 'POST', headers: { 'x-api-key': client.apiKey, 'x-api-secret': client.apiSecret } });
    const token = ((await auth.json()) as { data: { access_token: string } }).data.access_token;
    const headers = { authorization: token, 'x-api-key': client.apiKey };

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

    await load(directUrl, bearer, 1); // warm-up
    await load(routedUrl, headers, 1);
    const baseline = await load(directUrl, bearer, seconds);
    const routed = await load(routedUrl, headers, seconds);
    console.log(formatLoad('locker simulator GET /oauth2/1/user', baseline));
    console.log(formatLoad('router GET .../user/profile (op 2)', routed));
    console.log(`ratio router/direct: ${(routed.requestsPerSecond / baseline.requestsPerSecond).toFixed(3)} (requests/s); p99 ${routed.p99Ms} ms vs ${baseline.p99Ms} ms`);
    console.log('per read the router authenticates (JWT, revocation, rate limit in Redis), loads the session from Redis, '
      + 'unseals the upstream tokens, calls the locker over HTTP (the direct baseline), maps the fields and envelopes');
  } finally {
    services.kyc.close();
    await routerServer.close();
    const exited = new Promise((resolve) => sim.child.once('exit', resolve));
    sim.child.stdin!.end();
    await exited;
    const keys = await redis.keys(`${keyPrefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    await rm(dir, { recursive: true, force: true });
  }
}
