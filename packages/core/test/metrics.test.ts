import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMetrics, metricsHandler, serviceError } from '@satyapan/core';

/** The value of one series of the exposition text, e.g. `satyapan_x_count{a="b"}`; undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

class CountingUpstream {
  #calls = 0;
  url(): URL {
    return new URL('https://upstream.example/authorize');
  }
  async answer(): Promise<string> {
    this.#calls += 1;
    return `answer ${this.#calls}`;
  }
  async fail(): Promise<never> {
    throw serviceError('SOURCE_UNAVAILABLE');
  }
}

describe('core: metrics', () => {
  it('times the async methods of an upstream adapter by operation and outcome, and leaves the others alone', async () => {
    const metrics = createMetrics();
    const adapter = metrics.instrumentUpstream(new CountingUpstream(), 'docvault');
    expect(adapter.url().href).to.equal('https://upstream.example/authorize');
    expect(await adapter.answer()).to.equal('answer 1'); // #private state: the call reaches the original object
    expect(await adapter.answer()).to.equal('answer 2');
    let failure: unknown;
    await adapter.fail().catch((error: unknown) => { failure = error; });
    expect((failure as { code?: string }).code).to.equal('SOURCE_UNAVAILABLE');
    expect(adapter.answer).to.equal(adapter.answer, 'one wrapper per method, not one per access');
    const text = await metrics.text();
    expect(sample(text, 'satyapan_upstream_request_duration_seconds_count{upstream="docvault",operation="answer",outcome="ok"}')).to.equal(2);
    expect(sample(text, 'satyapan_upstream_request_duration_seconds_count{upstream="docvault",operation="fail",outcome="error"}')).to.equal(1);
    expect(text).not.to.include('operation="url"');
  });

  it('reads queue depths at scrape time, and a queue that cannot answer does not break the scrape', async () => {
    const metrics = createMetrics();
    let waiting = 3;
    metrics.watchQueue('{statements}', async () => ({ waiting, active: 1 }));
    metrics.watchQueue('{statement-webhooks}', async () => { throw new Error('Connection is closed'); });
    expect(sample(await metrics.text(), 'satyapan_queue_jobs{queue="{statements}",state="waiting"}')).to.equal(3);
    waiting = 0;
    const text = await metrics.text();
    expect(sample(text, 'satyapan_queue_jobs{queue="{statements}",state="waiting"}')).to.equal(0);
    expect(sample(text, 'satyapan_queue_jobs{queue="{statements}",state="active"}')).to.equal(1);
    expect(text).not.to.include('statement-webhooks');
  });

  it('starts the known counter series at zero, and keeps each registry apart from the others and from prom-client\'s global one', async () => {
    const first = createMetrics({ defaultLabels: { role: 'worker' } });
    const second = createMetrics({ processMetrics: true });
    first.statementJobs.inc({ state: 'succeeded' });
    const text = await first.text();
    expect(sample(text, 'satyapan_statement_jobs_total{state="succeeded",role="worker"}')).to.equal(1);
    expect(sample(text, 'satyapan_statement_jobs_total{state="failed",role="worker"}')).to.equal(0);
    expect(sample(text, 'satyapan_webhook_deliveries_total{outcome="given_up",role="worker"}')).to.equal(0);
    expect(sample(text, 'satyapan_cache_lookups_total{cache="penny_less",result="hit",role="worker"}')).to.equal(0);
    expect(text).not.to.include('process_cpu');
    const other = await second.text();
    expect(sample(other, 'satyapan_statement_jobs_total{state="succeeded"}')).to.equal(0);
    expect(other).to.include('satyapan_process_cpu_user_seconds_total');
    const { register } = await import('prom-client');
    expect(await register.metrics()).not.to.include('satyapan_');
  });

  it('serves the exposition format over HTTP with metricsHandler', async () => {
    const metrics = createMetrics();
    metrics.cacheLookups.inc({ cache: 'penny_drop', result: 'hit' });
    const server: Server = createServer(metricsHandler(metrics));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`);
      expect(response.status).to.equal(200);
      expect(response.headers.get('content-type')).to.match(/^text\/plain; version=0\.0\.4/);
      expect(sample(await response.text(), 'satyapan_cache_lookups_total{cache="penny_drop",result="hit"}')).to.equal(1);
    } finally {
      server.close();
    }
  });
});
