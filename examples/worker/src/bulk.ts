import { KeySpace, type Logger, type ObjectStorage, type RedisConnection, type SatyapanMetrics, type Sealer } from '@satyapan/core';
import { CashfreePennyDropProvider, SetuPennyLessProvider, createBankService, type BankService } from '@satyapan/bank';
import { RowCheckRegistry, bankRowChecks, createBulkWorker, kycRowChecks, type BulkWorker } from '@satyapan/bulk';
import { CashfreePanProvider, IncomeTaxLinkStatusProvider, PanAadhaarLinkService, PanVerificationService } from '@satyapan/kyc';
import type { BulkConfig, WorkerConfig } from './config.js';

/**
 * The bulk verification worker of this process: the bank service wired to the configured providers (with the
 * API's cache keys and sealer, so rows share the API's per-key cache and single flight), its row checks, and
 * the worker itself.
 */
export async function startBulkWorker(
  config: WorkerConfig, connection: RedisConnection, storage: ObjectStorage, sealer: Sealer, logger: Logger, metrics: SatyapanMetrics,
): Promise<{ worker: BulkWorker; bank: BankService; kinds: string[]; close(): void }> {
  const bank = await bankServiceFor(config.bulk, config.keyPrefix, connection, sealer, logger, metrics);
  const pan = panServiceFor(config.bulk, config.keyPrefix, connection, sealer, logger, metrics);
  const panAadhaarLink = linkServiceFor(config.bulk, config.keyPrefix, connection, sealer, logger, metrics);
  const registry = new RowCheckRegistry([...bankRowChecks(bank), ...kycRowChecks({ pan, panAadhaarLink })]);
  const worker = createBulkWorker({
    connection, storage, sealer, registry, keyPrefix: config.keyPrefix, logger, metrics,
    concurrency: config.concurrency,
    rateLimits: config.bulk.rateLimits,
    ...(config.bulk.rowConcurrency ? { rowConcurrency: config.bulk.rowConcurrency } : {}),
    ...(config.bulk.chunkSize ? { chunkSize: config.bulk.chunkSize } : {}),
    ...(config.lockDurationMs ? { lockDurationMs: config.lockDurationMs } : {}),
    ...(config.stalledIntervalMs ? { stalledIntervalMs: config.stalledIntervalMs } : {}),
    ...(config.sweepIntervalMs ? { sweepIntervalMs: config.sweepIntervalMs } : {}),
  });
  await worker.ready();
  return { worker, bank, kinds: registry.kinds, close: () => { bank.close(); pan?.close(); panAadhaarLink?.close(); } };
}

function bankServiceFor(
  bulk: BulkConfig, keyPrefix: string, redis: RedisConnection, sealer: Sealer, logger: Logger, metrics: SatyapanMetrics,
): Promise<BankService> {
  // The API's bank settings: the same key space and sealer, so a row reads and fills the API's cache.
  const settings = { redis, keys: new KeySpace(keyPrefix).child('bank'), sealer, logger, metrics };
  return createBankService({
    ...(bulk.ifscDirectory ? { directory: bulk.ifscDirectory } : {}),
    refuseUnknownIfsc: bulk.refuseUnknownIfsc,
    ...(bulk.pennyDrop ? {
      verification: {
        ...settings,
        provider: new CashfreePennyDropProvider({
          baseUrl: bulk.pennyDrop.url, clientId: bulk.pennyDrop.clientId, clientSecret: bulk.pennyDrop.clientSecret, logger,
          ...(bulk.pennyDrop.publicKeyPem ? { publicKeyPem: bulk.pennyDrop.publicKeyPem } : {}),
        }),
        keySecret: bulk.pennyDrop.cacheKeySecret,
      },
    } : {}),
    ...(bulk.pennyLess ? {
      pennyLess: {
        ...settings,
        provider: new SetuPennyLessProvider({
          baseUrl: bulk.pennyLess.url, clientId: bulk.pennyLess.clientId, clientSecret: bulk.pennyLess.clientSecret,
          productInstanceId: bulk.pennyLess.productInstanceId, logger,
        }),
        keySecret: bulk.pennyLess.cacheKeySecret,
      },
    } : {}),
  });
}

/** PAN verification as the API's kyc services build it: the same `<prefix>:kyc` key space, sealer and cache key secret. */
function panServiceFor(
  bulk: BulkConfig, keyPrefix: string, redis: RedisConnection, sealer: Sealer, logger: Logger, metrics: SatyapanMetrics,
): PanVerificationService | undefined {
  if (!bulk.pan) return undefined;
  return new PanVerificationService({
    redis, keys: new KeySpace(keyPrefix).child('kyc'), sealer, logger, metrics,
    keySecret: bulk.pan.cacheKeySecret,
    provider: new CashfreePanProvider({
      baseUrl: bulk.pan.url, clientId: bulk.pan.clientId, clientSecret: bulk.pan.clientSecret, logger,
      ...(bulk.pan.publicKeyPem ? { publicKeyPem: bulk.pan.publicKeyPem } : {}),
    }),
  });
}

/** The API's PAN-Aadhaar link status settings: the same key space, sealer and cache key secret as the API's. */
function linkServiceFor(
  bulk: BulkConfig, keyPrefix: string, redis: RedisConnection, sealer: Sealer, logger: Logger, metrics: SatyapanMetrics,
): PanAadhaarLinkService | undefined {
  if (!bulk.panAadhaarLink) return undefined;
  return new PanAadhaarLinkService({
    redis, keys: new KeySpace(keyPrefix).child('kyc'), sealer, logger, metrics,
    keySecret: bulk.panAadhaarLink.cacheKeySecret,
    provider: new IncomeTaxLinkStatusProvider({ baseUrl: bulk.panAadhaarLink.url, logger }),
  });
}
