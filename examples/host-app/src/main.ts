// `npm start`: the demo host app on embedded defaults (ARCHITECTURE.md, "The embedded default").
import { readConfig } from './config.js';
import { startDemo } from './app.js';
import { RedisUnavailableError, withoutPassword } from './redis-bootstrap.js';

function banner(demo: Awaited<ReturnType<typeof startDemo>>): string {
  return [
    '',
    `Satyapan demo host app listening on ${demo.url}`,
    `  API mounted at   ${demo.apiUrl}   (OpenAPI: ${demo.apiUrl}/openapi.json)`,
    `  Redis            ${withoutPassword(demo.redisUrl)}${demo.startedPrivateRedis ? ' (private redis-server started for this run, append-only file under the data dir)' : ''}`,
    '',
    'Demo client (every product enabled):',
    `  x-api-key:    ${demo.client.apiKey}`,
    `  x-api-secret: ${demo.client.apiSecret}`,
    '',
    'Get an access token:',
    `  curl -s -X POST ${demo.apiUrl}/authenticate -H 'x-api-key: ${demo.client.apiKey}' -H 'x-api-secret: ${demo.client.apiSecret}'`,
    '',
    'Sandbox test values (ours and the vendor\'s): packages/sandbox/README.md',
    '',
    'Stop with Ctrl+C.',
    '',
  ].join('\n');
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
