import { expect } from 'chai';
import type { Queue, Worker } from 'bullmq';
import { Writable } from 'node:stream';
import { createLogger, createMetrics, createRedisConnection, hmacSign, type RedisConnection } from '@satyapan/core';
import {
  WebhookVerificationError, createWebhookQueue, createWebhookWorker, enqueueWebhook, isNonPublicAddress, ownerOf,
  signWebhook, verifyWebhook, webhookAttempts, webhookBackoff, type DeliveryJobData, type StatementJobView,
} from '@satyapan/statement-queue';
import { TDS_REQUEST, eventually, startEnv, type TestEnv } from './support/env.js';
import { startReceiver, type Received } from '../../../test/support/webhook-receiver.js';


describe('statement-queue: webhook signatures', () => {
  const body = JSON.stringify({ data: { job_id: 'j', status: 'succeeded' } });

  it('signs with x-service-signature (base64 HMAC of the body) and the Standard Webhooks headers', () => {
    const headers = signWebhook('client-secret', 'msg_1', 1_700_000_000, body);
    expect(headers['x-service-signature']).to.equal(hmacSign('client-secret', body, 'base64'));
    expect(headers['webhook-id']).to.equal('msg_1');
    expect(headers['webhook-timestamp']).to.equal('1700000000');
    expect(headers['webhook-signature']).to.equal(`v1,${hmacSign('client-secret', `msg_1.1700000000.${body}`, 'base64')}`);
  });

  it('uses the decoded key of a whsec_ secret for the Standard Webhooks signature', () => {
    const key = Buffer.from('0123456789abcdef0123456789abcdef');
    const headers = signWebhook(`whsec_${key.toString('base64')}`, 'msg_2', 1_700_000_000, body);
    expect(headers['webhook-signature']).to.equal(`v1,${hmacSign(key, `msg_2.1700000000.${body}`, 'base64')}`);
  });

  it('verifies a genuine delivery and returns its body', () => {
    const headers = signWebhook('s3cret', 'msg_3', 1_700_000_000, body);
    expect(verifyWebhook({ secret: 's3cret', body, headers: { ...headers }, now: 1_700_000_100_000 })).to.deep.equal(JSON.parse(body));
    // Header names in any case, several signatures (key rotation) in one header.
    const upper = { 'Webhook-Id': headers['webhook-id'], 'Webhook-Timestamp': headers['webhook-timestamp'], 'Webhook-Signature': `v1,bm9wZQ== ${headers['webhook-signature']}` };
    expect(verifyWebhook({ secret: 's3cret', body, headers: upper, now: 1_700_000_000_000 })).to.deep.equal(JSON.parse(body));
    const legacy = { 'x-service-signature': headers['x-service-signature'] };
    expect(verifyWebhook({ secret: 's3cret', body: Buffer.from(body), headers: legacy, scheme: 'x-service-signature' })).to.deep.equal(JSON.parse(body));
  });

  it('cannot be downgraded: by default a delivery without a fresh Standard Webhooks signature is refused', () => {
    const headers = signWebhook('s3cret', 'msg_5', 1_700_000_000, body);
    // A captured delivery with the timestamped headers stripped: only the replayable body signature is left.
    const stripped = { 'x-service-signature': headers['x-service-signature'] };
    expect(() => verifyWebhook({ secret: 's3cret', body, headers: stripped, now: 1_700_000_000_000 }))
      .to.throw(WebhookVerificationError).with.property('code', 'MISSING_HEADERS');
    // Replayed a day later with every header: the timestamp is stale.
    expect(() => verifyWebhook({ secret: 's3cret', body, headers: { ...headers }, now: 1_700_086_400_000 }))
      .to.throw(WebhookVerificationError).with.property('code', 'TIMESTAMP_OUT_OF_TOLERANCE');
    // A receiver that chose the vendor's scheme checks that one only, never the other.
    expect(() => verifyWebhook({ secret: 's3cret', body, headers: { 'webhook-id': 'msg_5', 'webhook-timestamp': '1700000000', 'webhook-signature': headers['webhook-signature'] }, scheme: 'x-service-signature' }))
      .to.throw(WebhookVerificationError).with.property('code', 'MISSING_HEADERS');
    // A misspelt scheme is a programming error, never a quiet fallback to the replayable one.
    expect(() => verifyWebhook({ secret: 's3cret', body, headers: stripped, scheme: 'legacy' as never })).to.throw(TypeError, /Unknown webhook scheme/);
  });

  it('refuses a changed body, a wrong secret, an old timestamp and missing headers', () => {
    const headers = { ...signWebhook('s3cret', 'msg_4', 1_700_000_000, body) };
    const attempts: Array<[() => unknown, string]> = [
      [() => verifyWebhook({ secret: 's3cret', body: body.replace('succeeded', 'failed'), headers, now: 1_700_000_000_000 }), 'BAD_SIGNATURE'],
      [() => verifyWebhook({ secret: 'other', body, headers, now: 1_700_000_000_000 }), 'BAD_SIGNATURE'],
      [() => verifyWebhook({ secret: 's3cret', body, headers, now: 1_700_000_301_000 }), 'TIMESTAMP_OUT_OF_TOLERANCE'],
      [() => verifyWebhook({ secret: 's3cret', body, headers: { 'x-service-signature': hmacSign('other', body, 'base64') }, scheme: 'x-service-signature' }), 'BAD_SIGNATURE'],
      [() => verifyWebhook({ secret: 's3cret', body, headers: {} }), 'MISSING_HEADERS'],
    ];
    for (const [attempt, code] of attempts) {
      expect(attempt).to.throw(WebhookVerificationError).with.property('code', code);
    }
  });
});

describe('statement-queue: webhook retry schedule and address policy', () => {
  it('backs off exponentially up to the cap and keeps trying for at least 24 hours by default', () => {
    expect([1, 2, 3, 4].map((n) => webhookBackoff(n))).to.deep.equal([5_000, 10_000, 20_000, 40_000]);
    expect(webhookBackoff(30)).to.equal(3_600_000);
    const attempts = webhookAttempts();
    let total = 0;
    for (let made = 1; made < attempts; made += 1) total += webhookBackoff(made);
    expect(total).to.be.at.least(24 * 3_600_000);
    expect(total - webhookBackoff(attempts - 1)).to.be.below(24 * 3_600_000);
  });

  it('treats loopback, private, link-local, unique-local and mapped addresses as non-public', () => {
    for (const address of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1']) {
      expect(isNonPublicAddress(address), address).to.equal(true);
    }
    for (const address of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
      expect(isNonPublicAddress(address), address).to.equal(false);
    }
  });

  it('refuses every IPv6 spelling that embeds or tunnels another address, and all that is not global unicast', () => {
    const refused = [
      '::127.0.0.1', // IPv4-compatible (deprecated), loopback inside
      '::ffff:0:127.0.0.1', // IPv4-translated (RFC 6145)
      '2002:7f00:1::', // 6to4 of 127.0.0.1
      '2001:0:4136:e378:8000:63bf:3fff:fdd2', // Teredo (2001::/32)
      'fec0::1', 'feff::1', // deprecated site-local fec0::/10
      '64:ff9b::7f00:1', // NAT64 of 127.0.0.1
      '100::1', '2001:db8::1', '2001:2::1', 'ff02::1', '::', '5f00::1', '4000::1', 'e000::1',
      '192.0.0.8', '198.18.0.1', '224.0.0.1', '255.255.255.255', '240.0.0.1',
    ];
    for (const address of refused) expect(isNonPublicAddress(address), address).to.equal(true);
    for (const address of ['2a00:1450:4001:82a::200e', '2400:cb00::1', '49.44.0.1']) expect(isNonPublicAddress(address), address).to.equal(false);
  });
});

describe('statement-queue: webhook delivery', () => {
  let env: TestEnv;
  let connection: RedisConnection;
  let queue: Queue<DeliveryJobData>;
  const workers: Worker[] = [];
  const receivers: Array<{ close(): Promise<void> }> = [];

  before(async () => {
    env = await startEnv({ watchUploads: false });
    connection = createRedisConnection({ flavour: 'worker', connectionName: 'statement-webhook-test' });
    queue = createWebhookQueue(connection, env.service.keys.bullPrefix);
  });
  afterEach(async () => {
    for (const worker of workers.splice(0)) await worker.close();
    for (const receiver of receivers.splice(0)) await receiver.close();
  });
  after(async () => {
    await queue.close();
    connection.disconnect();
    await env.close();
  });

  async function finishedJob(webhookUrl: string, webhookSecret: string | undefined, status: 'succeeded' | 'failed') {
    const job = await env.service.submitJob(TDS_REQUEST, { clientId: 'client-w', webhookUrl, ...(webhookSecret ? { webhookSecret } : {}) });
    const ref = { owner: ownerOf('client-w'), jobId: job.job_id };
    await env.service.store.transition(ref, 'tds', 'queued', env.clock.now());
    await env.service.store.transition(ref, 'tds', 'in_progress', env.clock.now());
    await env.storage.put(`statements/${ref.owner}/${ref.jobId}/statement.txt`, 'TXT');
    await env.storage.put(`statements/${ref.owner}/${ref.jobId}/report.xlsx`, 'XLSX');
    const fields = status === 'succeeded'
      ? { txtKey: `statements/${ref.owner}/${ref.jobId}/statement.txt` }
      : { message: 'Validation error', reportXlsxKey: `statements/${ref.owner}/${ref.jobId}/report.xlsx` };
    const { record } = await env.service.store.transition(ref, 'tds', status, env.clock.now(), fields);
    return { ref, record };
  }

  function startWorker(allowPrivateUrls: string[]): Worker {
    const worker = createWebhookWorker({
      connection, storage: env.storage, sealer: env.sealer, keyPrefix: env.keyPrefix, allowPrivateUrls,
      retry: { baseDelayMs: 50, maxDelayMs: 100, minimumSpanMs: 1_000 },
    });
    workers.push(worker);
    return worker;
  }

  const fastRetry = { baseDelayMs: 50, maxDelayMs: 100, minimumSpanMs: 1_000 };

  it('posts {data: <job as polled>} signed with the client secret', async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const { ref, record } = await finishedJob(receiver.url, 'hook-secret', 'succeeded');
    startWorker([new URL(receiver.url).origin]);
    await enqueueWebhook(queue, record, ref, fastRetry);
    await eventually(async () => receiver.received.length === 1);
    const [delivery] = receiver.received as [Received];
    const verified = verifyWebhook<{ data: StatementJobView }>({ secret: 'hook-secret', body: delivery.body, headers: delivery.headers });
    expect(verified.data).to.include({ job_id: ref.jobId, status: 'succeeded', '@entity': 'in.co.service.tds.reports.job' });
    expect(verified.data.txt_url).to.match(/statement\.txt\?/);
    expect(delivery.headers['x-service-signature']).to.equal(hmacSign('hook-secret', delivery.body, 'base64'));
    expect(delivery.headers['webhook-id']).to.equal(`msg_${ref.jobId}`);
    expect(delivery.headers['content-type']).to.equal('application/json');
  });

  it('retries a receiver that fails twice and sends the same webhook-id on the third try', async () => {
    const receiver = await startReceiver([500, 503]);
    receivers.push(receiver);
    const { ref, record } = await finishedJob(receiver.url, 'hook-secret', 'failed');
    startWorker([new URL(receiver.url).origin]);
    await enqueueWebhook(queue, record, ref, fastRetry);
    await eventually(async () => receiver.received.length === 3);
    const ids = receiver.received.map((r) => r.headers['webhook-id']);
    expect(ids).to.deep.equal([`msg_${ref.jobId}`, `msg_${ref.jobId}`, `msg_${ref.jobId}`]);
    for (const delivery of receiver.received) {
      expect(() => verifyWebhook({ secret: 'hook-secret', body: delivery.body, headers: delivery.headers })).not.to.throw();
    }
    const last = JSON.parse((receiver.received[2] as Received).body) as { data: StatementJobView };
    expect(last.data).to.include({ status: 'failed', message: 'Validation error' });
    expect(last.data.validation_report_url).to.match(/report\.xlsx\?/);
    const delivery = await queue.getJob(`wh-${ref.jobId}`);
    await eventually(async () => (await delivery?.getState()) === 'completed');
  });

  it('counts delivery attempts by outcome in the metrics it is given', async () => {
    const receiver = await startReceiver([503]);
    receivers.push(receiver);
    const metrics = createMetrics();
    const { ref, record } = await finishedJob(receiver.url, 'hook-secret', 'succeeded');
    workers.push(createWebhookWorker({
      connection, storage: env.storage, sealer: env.sealer, keyPrefix: env.keyPrefix, allowPrivateUrls: [new URL(receiver.url).origin],
      retry: fastRetry, metrics,
    }));
    await enqueueWebhook(queue, record, ref, fastRetry);
    const counted = async (outcome: string) => (await metrics.webhookDeliveries.get()).values.find((value) => value.labels['outcome'] === outcome)?.value;
    await eventually(async () => (await counted('delivered')) === 1);
    expect(await counted('failed')).to.equal(1);
    expect(await counted('given_up')).to.equal(0);
  });

  it('enqueues one delivery per job however often it is announced', async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const { ref, record } = await finishedJob(receiver.url, 'hook-secret', 'succeeded');
    await Promise.all([1, 2, 3].map(() => enqueueWebhook(queue, record, ref, fastRetry)));
    startWorker([new URL(receiver.url).origin]);
    await eventually(async () => receiver.received.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received).to.have.length(1);
  });

  it('does not follow redirects: a 302 is a failure to retry', async () => {
    const receiver = await startReceiver([302]);
    receivers.push(receiver);
    const { ref, record } = await finishedJob(receiver.url, 'hook-secret', 'succeeded');
    startWorker([new URL(receiver.url).origin]);
    await enqueueWebhook(queue, record, ref, fastRetry);
    await eventually(async () => receiver.received.length === 2);
    expect(receiver.received.every((r) => r.headers['webhook-id'] === `msg_${ref.jobId}`)).to.equal(true);
  });

  it('refuses a loopback URL that is not allow-listed, without retrying', async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    for (const url of [receiver.url, receiver.url.replace('127.0.0.1', 'localhost')]) {
      const { ref, record } = await finishedJob(url, 'hook-secret', 'succeeded');
      startWorker([]);
      await enqueueWebhook(queue, record, ref, fastRetry);
      const delivery = await queue.getJob(`wh-${ref.jobId}`);
      await eventually(async () => (await delivery?.getState()) === 'failed');
      const failed = await queue.getJob(`wh-${ref.jobId}`);
      expect(failed?.attemptsMade, url).to.equal(1);
      expect(failed?.failedReason).to.match(/not public unicast/);
    }
    expect(receiver.received).to.have.length(0);
  });

  it('refuses the IPv6 literals that reach loopback (mapped, compatible, translated, 6to4) and logs each refusal without the URL\'s path or query', async () => {
    const lines: string[] = [];
    const stream = new Writable({ write(chunk: Buffer, _encoding, callback) { lines.push(chunk.toString('utf8')); callback(); } });
    const worker = createWebhookWorker({
      connection, storage: env.storage, sealer: env.sealer, keyPrefix: env.keyPrefix, allowPrivateUrls: [],
      retry: fastRetry, logger: createLogger({ stream }),
    });
    workers.push(worker);
    const hosts = ['[::127.0.0.1]', '[::ffff:0:127.0.0.1]', '[2002:7f00:1::]', '[fec0::1]', '[2001:0:4136:e378:8000:63bf:3fff:fdd2]'];
    for (const host of hosts) {
      const { ref, record } = await finishedJob(`http://user:pw@${host}:8080/hooks?token=s3cret-token`, 'hook-secret', 'succeeded');
      await enqueueWebhook(queue, record, ref, fastRetry);
      await eventually(async () => (await (await queue.getJob(`wh-${ref.jobId}`))?.getState()) === 'failed');
      const failed = await queue.getJob(`wh-${ref.jobId}`);
      expect(failed?.attemptsMade, host).to.equal(1);
      const refusal = lines.map((line) => JSON.parse(line) as Record<string, unknown>).find((entry) => entry['job_id'] === ref.jobId);
      expect(refusal, host).to.include({ level: 'warn', message: 'webhook delivery refused', webhook_id: `msg_${ref.jobId}` });
    }
    const logged = lines.join('');
    expect(logged).not.to.match(/s3cret-token|user:pw|\/hooks/);
  });

  it('sends without signatures when the client has no secret', async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const { ref, record } = await finishedJob(receiver.url, undefined, 'succeeded');
    startWorker([new URL(receiver.url).origin]);
    await enqueueWebhook(queue, record, ref, fastRetry);
    await eventually(async () => receiver.received.length === 1);
    const [delivery] = receiver.received as [Received];
    expect(delivery.headers['webhook-id']).to.equal(`msg_${ref.jobId}`);
    expect(delivery.headers).not.to.have.any.keys('x-service-signature', 'webhook-signature');
  });
});
