// The router of the capacity bench, in a process of its own: `node --import tsx bench/_capacity-server.ts <config
// json>`. Started WITHOUT the `satyapan-source` condition, so every @satyapan package is its built `dist/` code.
// It is a production-shaped router (the demo's composition, examples/host-app/src/services.ts) with the kyc, bank
// and statement areas and a metrics registry, talking to upstreams elsewhere (the sandbox simulators in the bench's
// process), so that the CPU this process uses is the router's alone. Prints `{"url": ...}` once listening; exits
// when stdin closes.
import express from 'express';
import type { Server } from 'node:http';
import { FsStorage, KeySpace, Sealer, createMetrics, createRedisConnection, hmacSign, waitForRedis } from '@satyapan/core';
import { createRouter, type ClientConfig } from '@satyapan/router';
import { CashfreePennyDropProvider, bankArea, createBankService } from '@satyapan/bank';
import { createKycServices, kycArea } from '@satyapan/kyc';
import { StatementService, statementsArea } from '@satyapan/statement-queue';

export interface CapacityServerConfig {
  port: number;
  redisUrl: string;
  keyPrefix: string;
  /** FsStorage root, shared with the worker. */
  dir: string;
  storageSecret: string;
  sealingKey: string;
  tokenSecret: string;
  client: ClientConfig;
  lockers: { docvault: string; entityvault: string; clientId: string; clientSecret: string };
  pennyDrop: { url: string; clientId: string; clientSecret: string };
}

const config = JSON.parse(process.argv[2] ?? '{}') as CapacityServerConfig;
const apiUrl = `http://127.0.0.1:${config.port}/api`;
const redis = createRedisConnection({ url: config.redisUrl, flavour: 'producer', connectionName: 'capacity-router' });
await waitForRedis(redis);
const metrics = createMetrics();
const storage = new FsStorage({ root: config.dir, signingSecret: config.storageSecret, publicBaseUrl: `${apiUrl}/storage` });
const sealingKeys = [{ id: 'bench', key: config.sealingKey }];
const sealer = new Sealer(sealingKeys);
const secretFor = (purpose: string): string => hmacSign(config.tokenSecret, `capacity:${purpose}`);
const { lockers } = config;
const kyc = createKycServices({
  redis, storage, keyPrefix: config.keyPrefix, sealingKeys, metrics, stateSecret: secretFor('oauth-state'),
  lockers: {
    docvault: { baseUrl: lockers.docvault, clientId: lockers.clientId, clientSecret: lockers.clientSecret, callbackUrl: `${apiUrl}/kyc/docvault/callback` },
    entityvault: { baseUrl: lockers.entityvault, clientId: lockers.clientId, clientSecret: lockers.clientSecret, callbackUrl: `${apiUrl}/kyc/entityvault/callback` },
  },
});
const bank = await createBankService({
  verification: {
    redis, keys: new KeySpace(config.keyPrefix).child('bank'), sealer, metrics, keySecret: secretFor('penny-drop-cache-key'),
    provider: new CashfreePennyDropProvider({ baseUrl: `${config.pennyDrop.url}/verification`, clientId: config.pennyDrop.clientId, clientSecret: config.pennyDrop.clientSecret }),
  },
});
const statements = new StatementService({ redis, storage, sealer, keyPrefix: config.keyPrefix, metrics });
const app = express();
app.use('/api', createRouter({
  redis, storage, clients: [config.client], tokens: { secret: config.tokenSecret }, keyPrefix: config.keyPrefix, metrics,
  areas: [kycArea(kyc), bankArea(bank), statementsArea(statements)], publicBaseUrl: apiUrl,
}));
const server = await new Promise<Server>((resolve) => {
  const s = app.listen(config.port, '127.0.0.1', () => resolve(s));
});
process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${config.port}` })}\n`);
process.stdin.on('end', () => {
  server.closeAllConnections();
  server.close(() => {
    kyc.kyc.close();
    kyc.aadhaarOtp?.close();
    bank.close();
    void statements.close().then(() => {
      redis.disconnect();
      process.exit(0);
    });
  });
});
process.stdin.resume();
