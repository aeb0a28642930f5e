// Issue 22: a list cursor or a numeric bound past 2^53 is the caller's mistake, answered in the error envelope
// naming the field; `GET /bulk/verifications?last_evaluated_key=99999999999999999999` was a 500.
import { expect } from 'chai';
import request from 'supertest';
import { randomUUID } from 'node:crypto';
import { FsStorage, KeySpace, Sealer, createRedisConnection, waitForRedis, type RedisConnection } from '@satyapan/core';
import { CashfreePennyDropProvider, createBankService, loadSampleDirectory, type BankService } from '@satyapan/bank';
import { BulkService, RowCheckRegistry, bankRowChecks, bulkArea } from '@satyapan/bulk';
import { StatementService, statementsArea } from '@satyapan/statement-queue';
import { CLIENTS, startHarness, type Harness } from './support/harness.js';

describe('router: cursors and numeric bounds that are not safe integers', function () {
  this.timeout(30_000);
  let h: Harness;
  let redis: RedisConnection;
  let bank: BankService;
  let bulk: BulkService;
  let statements: StatementService;
  let token: string;

  before(async () => {
    const keyPrefix = `test:${randomUUID()}`;
    redis = createRedisConnection({ flavour: 'producer', connectionName: 'router-cursor-test' });
    await waitForRedis(redis);
    const sealer = new Sealer([{ id: 'k1', key: Sealer.generateKey() }]);
    // No row is checked here: the provider is never called.
    bank = await createBankService({
      directory: await loadSampleDirectory(),
      verification: {
        redis, keys: new KeySpace(keyPrefix).child('bank'), sealer, keySecret: 'test-cache-key-secret',
        provider: new CashfreePennyDropProvider({ baseUrl: 'http://127.0.0.1:9/verification', clientId: 'unused', clientSecret: 'unused' }),
      },
    });
    let storage: FsStorage | undefined;
    const services = {
      get bulk(): BulkService {
        bulk ??= new BulkService({ redis, storage: storage as FsStorage, sealer, registry: new RowCheckRegistry(bankRowChecks(bank)), keyPrefix });
        return bulk;
      },
      get statements(): StatementService {
        statements ??= new StatementService({ redis, storage: storage as FsStorage, sealer, keyPrefix });
        return statements;
      },
    };
    h = await startHarness({
      keyPrefix,
      storage: (dataDir) => (storage = new FsStorage({ root: dataDir, signingSecret: 'cursor-route-secret' })),
      areas: [
        { name: 'bulk', routes: (ctx) => bulkArea(services.bulk).routes(ctx) },
        { name: 'statements', routes: (ctx) => statementsArea(services.statements).routes(ctx) },
      ],
    });
    token = await h.token();
  });
  after(async () => {
    await bulk.close();
    await statements.close();
    await h.close();
    bank.close();
    redis.disconnect();
  });

  const call = (method: 'get' | 'post', path: string) => request(h.app)[method](`/api${path}`).set('authorization', token).set('x-api-key', CLIENTS.all.apiKey);

  it('the bulk list: a cursor past 2^53 is a 400 naming last_evaluated_key; the largest safe one is a page', async () => {
    const res = await call('get', '/bulk/verifications?last_evaluated_key=99999999999999999999');
    expect(res.status, JSON.stringify(res.body)).to.equal(400);
    expect(res.body).to.include({ code: 400, message: 'Invalid parameter: last_evaluated_key must be an integer of at most 9007199254740991' });
    const last = await call('get', `/bulk/verifications?last_evaluated_key=${Number.MAX_SAFE_INTEGER}`);
    expect(last.status, JSON.stringify(last.body)).to.equal(200);
    expect(last.body.data).to.include({ last_evaluated_key: null });
  });

  it('the statement search: a numeric cursor is not one of ours (422), an epoch bound past 2^53 is refused naming the field', async () => {
    const search = { '@entity': 'in.co.service.tds.reports.jobs.search' };
    const cursor = await call('post', '/tds/reports/txt/search').send({ ...search, last_evaluated_key: '99999999999999999999' });
    expect(cursor.status, JSON.stringify(cursor.body)).to.equal(422);
    expect(cursor.body.message).to.equal('Invalid last_evaluated_key: not a cursor of a previous search');
    const bound = await call('post', '/tds/reports/txt/search').send({ ...search, from_date: 99999999999999999999 });
    // A body field's bound, like page_size's: 422 naming it (a query parameter's is 400).
    expect(bound.status, JSON.stringify(bound.body)).to.equal(422);
    expect(bound.body.message).to.equal('Invalid from_date: must be <= 9007199254740991');
  });
});
