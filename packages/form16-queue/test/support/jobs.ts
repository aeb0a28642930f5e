// What the Form 16 job tests do alike: an upload through a pre-signed FsStorage URL, and waiting for a job's end.
import { Readable } from 'node:stream';
import type { FsStorage } from '@satyapan/core';
import type { Form16JobView, Form16Service } from '@satyapan/form16-queue';
import { loadScaled } from '../../../jobs/test/support/processes.js';

/** Puts `body` where the pre-signed PUT `url` points, as the router's storage endpoint would. */
export async function uploadTo(storage: FsStorage, url: string, body: Buffer | string): Promise<void> {
  const parsed = new URL(url);
  const key = decodeURIComponent(parsed.pathname.replace(/^\/storage\//, ''));
  await storage.receiveUpload(storage.verifySignedUrl('PUT', key, Object.fromEntries(parsed.searchParams)), Readable.from([Buffer.from(body)]));
}

/** The job once it succeeded or failed, polled every 50 ms for up to `timeoutMs` (longer under load: loadScaled). */
export async function finishedJob(service: Form16Service, clientId: string, jobId: string, timeoutMs = 45_000): Promise<Form16JobView> {
  const deadline = Date.now() + loadScaled(timeoutMs);
  for (;;) {
    const view = await service.get(clientId, jobId);
    if (view.status === 'succeeded' || view.status === 'failed') return view;
    if (Date.now() > deadline) throw new Error(`form16 job ${jobId} still ${view.status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
