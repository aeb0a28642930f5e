// `npm start`: the demo host app on embedded defaults (docs/ARCHITECTURE.md, "The embedded default").
import {
  AADHAAR_TEST_NUMBERS, AADHAAR_TEST_OTP, LOCKER_ENTITIES, LOCKER_INDIVIDUALS, PENNY_DROP_TEST_ACCOUNTS, PENNY_DROP_TEST_IFSC,
  PENNY_LESS_TEST_ACCOUNTS, PAN_TEST_VALUES,
} from '@satyapan/sandbox';
import { readConfig } from './config.js';
import { startDemo } from './app.js';
import { RedisUnavailableError } from './redis-bootstrap.js';

function banner(demo: Awaited<ReturnType<typeof startDemo>>): string {
  const key = demo.client.apiKey;
  return [
    '',
    `Satyapan demo host app listening on ${demo.url}`,
    `  API mounted at   ${demo.apiUrl}   (OpenAPI: ${demo.apiUrl}/openapi.json)`,
    `  API reference    ${demo.url}/docs`,
    `  Metrics          ${demo.url}/metrics   (Prometheus; health: ${demo.apiUrl}/health/live, ${demo.apiUrl}/health/ready)`,
    `  Queue dashboard  ${demo.url}/admin/queues   (user ${demo.admin.user}, ${demo.admin.generatedPassword === undefined ? 'password from SATYAPAN_ADMIN_PASSWORD' : `password ${demo.admin.generatedPassword}`})`,
    `  Redis            ${demo.redisShown}${demo.startedPrivateRedis ? ' (private redis-server started for this run, append-only file under the data dir)' : ''}`,
    `  Key prefix       ${demo.keyPrefix}   (of this data dir unless SATYAPAN_KEY_PREFIX is set: demos with other data dirs share nothing)`,
    `  Storage          ${demo.storageShown}`,
    ...(demo.webhook ? [`  Webhooks         statement jobs that end are POSTed to ${demo.webhook.url}${demo.webhook.generatedSecret !== undefined ? ` (secret ${demo.webhook.generatedSecret})` : ' (secret from SATYAPAN_DEMO_WEBHOOK_SECRET)'}`] : []),
    `  Statement worker ${demo.workerInProcess ? 'in this process' : 'off (SATYAPAN_WORKER=off): run satyapan-worker (examples/worker) with the settings below'}`,
    `  Bulk worker      ${demo.workerInProcess ? 'in this process' : 'off too (satyapan-worker runs both)'}; bulk jobs at ${demo.apiUrl}/bulk/verifications (kinds penny_drop, penny_less, ifsc, pan)`,
    ...(demo.workerInProcess ? [] : workerSettings(demo)),
    '',
    'Demo client (every product enabled):',
    `  x-api-key:    ${key}`,
    `  x-api-secret: ${demo.client.apiSecret}`,
    '',
    'Get an access token:',
    `  curl -s -X POST ${demo.apiUrl}/authenticate -H 'x-api-key: ${key}' -H 'x-api-secret: ${demo.client.apiSecret}'`,
    '',
    'A complete authenticated call (paste both lines into a shell):',
    // A refusal prints its status and message instead of a stack (`.data` is absent from an error envelope).
    `  TOKEN=$(curl -s -X POST ${demo.apiUrl}/authenticate -H 'x-api-key: ${key}' -H 'x-api-secret: ${demo.client.apiSecret}' | node -e 'const a = JSON.parse(require("fs").readFileSync(0)); if (a.data) console.log(a.data.access_token); else { console.error(a.code + " " + a.message); process.exit(1) }')`,
    `  curl -s ${demo.apiUrl}/bank/${PENNY_DROP_TEST_IFSC}/accounts/${PENNY_DROP_TEST_ACCOUNTS.valid}/verify -H "authorization: $TOKEN" -H 'x-api-key: ${key}'`,
    '',
    'Credential lockout: 20 failed /authenticate or /authorize attempts from one address in 15 minutes lock it out',
    '  (429 "Too many failed credential attempts from this address; retry after N s", the right secret included). Clear it:',
    `  npx satyapan-admin clear-lockout --address 127.0.0.1 --key-prefix ${demo.keyPrefix}`,
    '',
    ...sandboxValues(),
    '',
    'Stop with Ctrl+C.',
    '',
  ].join('\n');
}

/** The sandbox's test values, so that every area can be tried from the banner (packages/sandbox/README.md). */
function sandboxValues(): string[] {
  const list = (values: Record<string, string>): string => Object.entries(values).map(([outcome, value]) => `${value} ${outcome}`).join(', ');
  return [
    'Sandbox test values (the upstreams are simulated on loopback; the vendor\'s own test values work too, see packages/sandbox/README.md):',
    `  IFSC in the shipped directory: ${PENNY_DROP_TEST_IFSC} (and every branch of the bundled sample)`,
    `  Penny-drop accounts (with ${PENNY_DROP_TEST_IFSC}): ${list(PENNY_DROP_TEST_ACCOUNTS)}`,
    `  Penny-less accounts (with ${PENNY_DROP_TEST_IFSC}): ${list(PENNY_LESS_TEST_ACCOUNTS)}`,
    `  PANs (verify: name and date of birth as the README lists them; link status with any 12-digit Aadhaar number): ${list(PAN_TEST_VALUES)}`,
    `    e.g. ${PAN_TEST_VALUES.individual} is ANJALI RAO, 15/08/1990; another name or date answers name_as_per_pan_match / date_of_birth_match false`,
    `  Aadhaar numbers (OTP ${AADHAAR_TEST_OTP}): ${list(AADHAAR_TEST_NUMBERS)}`,
    `  Locker users (pick one on the consent page): ${LOCKER_INDIVIDUALS.map((user) => user.name).join(', ')}; entities: ${LOCKER_ENTITIES.map((entity) => entity.name).join(', ')}`,
  ];
}

/** What a separate worker process needs to serve this demo's jobs (examples/worker reads these variables). */
function workerSettings(demo: Awaited<ReturnType<typeof startDemo>>): string[] {
  return Object.entries(demo.workerEnvironment).map(([name, value]) => `    ${name}=${value}`);
}

async function main(): Promise<void> {
  const config = readConfig();
  const demo = await startDemo(config);
  process.stdout.write(banner(demo));
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\n${signal} received: shutting down\n`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    demo.close().then(() => process.exit(0), (error: unknown) => {
      process.stderr.write(`Shutdown failed: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  if (error instanceof RedisUnavailableError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(`The demo could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  }
  process.exit(1);
});
