// Bulk jobs on the job framework (@satyapan/jobs, issue 25): the end of a job is posted to its client's webhook
// URL, signed as statement webhooks are (Standard Webhooks and x-service-signature), retried until the receiver
// takes it, once per job; and jobs are counted by kind. Real Redis, FsStorage, a bulk worker, a receiver on loopback.
import { expect } from 'chai';
import { createMetrics, hmacSign } from '@satyapan/core';
import { verifyWebhook } from '@satyapan/jobs';
import { BULK_JOB_ENTITY, type BulkJobView } from '@satyapan/bulk';
import { CLIENT, startBulkEnv, type BulkEnv } from './support/env.js';
import { startReceiver } from '../../../test/support/webhook-receiver.js';

const IFSC = 'KKBK0000131';
const SECRET = 'bulk-hook-secret';
const FAST_RETRY = { baseDelayMs: 50, maxDelayMs: 100, minimumSpanMs: 1_000 };

async function eventually(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('bulk: webhooks and per-kind metrics on the job framework', function () {
  this.timeout(30_000);
  let env: BulkEnv;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  afterEach(async () => {
    await receiver?.close();
    await env?.close();
  });

  async function submit(kind: string, csv: string, webhook: boolean): Promise<BulkJobView> {
    const owner = webhook ? { ...CLIENT, webhookUrl: receiver.url, webhookSecret: SECRET } : CLIENT;
    const job = await env.service.submit({ kind }, owner);
    await env.upload(job.csv_url as string, csv);
    return job;
  }

  it('posts {data: <job as polled>} of a succeeded and of a failed job, signed with the client secret, once each', async () => {
    receiver = await startReceiver();
    env = await startBulkEnv();
    await env.startWorker({ webhooks: { allowPrivateUrls: [new URL(receiver.url).origin], retry: FAST_RETRY } });
    const ok = await env.finished((await submit('ifsc', `ifsc\n${IFSC}\n`, true)).job_id);
    const failed = await env.finished((await submit('penny_drop', `ifsc,name\n${IFSC},A\n`, true)).job_id);
    expect([ok.status, failed.status]).to.deep.equal(['succeeded', 'failed']);
    await eventually(() => receiver.received.length === 2);
    const byJob = new Map(receiver.received.map((delivery) => {
      const verified = verifyWebhook<{ data: BulkJobView }>({ secret: SECRET, body: delivery.body, headers: delivery.headers });
      expect(delivery.headers['x-service-signature']).to.equal(hmacSign(SECRET, delivery.body, 'base64'));
      expect(delivery.headers['webhook-id']).to.equal(`msg_${verified.data.job_id}`);
      return [verified.data.job_id, verified.data] as const;
    }));
    expect(byJob.get(ok.job_id)).to.include({ '@entity': BULK_JOB_ENTITY, status: 'succeeded', kind: 'ifsc', rows_total: 1 });
    expect(byJob.get(ok.job_id)!.result_url).to.match(/result\.csv\?/);
    expect(byJob.get(failed.job_id)).to.include({ status: 'failed', kind: 'penny_drop', message: 'Missing column: account_number' });
    // Nothing more arrives: one delivery per job.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received).to.have.length(2);
  });

  it('retries a delivery the receiver refused, with the same webhook-id; a client without a URL gets none', async () => {
    receiver = await startReceiver([500, 503]);
    const metrics = createMetrics();
    env = await startBulkEnv({ service: { metrics } });
    await env.startWorker({ metrics, webhooks: { allowPrivateUrls: [new URL(receiver.url).origin], retry: FAST_RETRY } });
    const hooked = await env.finished((await submit('ifsc', `ifsc\n${IFSC}\n`, true)).job_id);
    await env.finished((await submit('ifsc', `ifsc\n${IFSC}\n`, false)).job_id);
    await eventually(() => receiver.received.length === 3);
    expect(new Set(receiver.received.map((delivery) => delivery.headers['webhook-id']))).to.deep.equal(new Set([`msg_${hooked.job_id}`]));
    let text = '';
    const value = (series: string): number => Number(text.split('\n').find((line) => line.startsWith(`${series} `))?.slice(series.length + 1));
    // The worker counts a delivery when BullMQ reports it completed, a moment after the receiver answered.
    for (let tries = 0; value('satyapan_bulk_webhook_deliveries_total{outcome="delivered"}') !== 1 && tries < 200; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      text = await metrics.text();
    }
    expect(value('satyapan_bulk_webhook_deliveries_total{outcome="failed"}')).to.equal(2);
    expect(value('satyapan_bulk_webhook_deliveries_total{outcome="delivered"}')).to.equal(1);
    expect(value('satyapan_jobs_by_kind_total{family="bulk",kind="ifsc",state="created"}')).to.equal(2);
    expect(value('satyapan_jobs_by_kind_total{family="bulk",kind="ifsc",state="succeeded"}')).to.equal(2);
    // The statement family's counter is untouched by bulk deliveries.
    expect(value('satyapan_webhook_deliveries_total{outcome="delivered"}')).to.equal(0);
  });

  it('refuses a webhook URL on a private address unless allow-listed: no delivery, the job still succeeds', async () => {
    receiver = await startReceiver();
    env = await startBulkEnv();
    await env.startWorker({ webhooks: { retry: FAST_RETRY } });
    const done = await env.finished((await submit('ifsc', `ifsc\n${IFSC}\n`, true)).job_id);
    expect(done.status).to.equal('succeeded');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received).to.have.length(0);
  });
});
