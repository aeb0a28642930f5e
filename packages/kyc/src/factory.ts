import { CACHE_KEY_SECRET_HINT, KeySpace, OptionError, Sealer, requireSecret, type Clock, type Logger, type ObjectStorage, type SatyapanMetrics, type SealingKey } from '@satyapan/core';
import { OpenIdLockerClient } from './locker/openid-locker-client.js';
import type { LockerClientConfig, LockerKind } from './locker/types.js';
import { KycService } from './sessions/kyc-service.js';
import type { RedisClient } from './sessions/session-store.js';
import { AadhaarOtpService } from './aadhaar/aadhaar-otp-service.js';
import { HttpOtpProvider, type HttpOtpProviderConfig } from './aadhaar/otp-provider.js';
import { CashfreePanProvider, type CashfreePanOptions } from './pan/cashfree-pan.js';
import { IncomeTaxLinkStatusProvider, type IncomeTaxLinkStatusOptions } from './pan/income-tax-link-status.js';
import { PanAadhaarLinkService, PanVerificationService } from './pan/service.js';

/** Cache settings of a PAN service (the cache is sealed with `sealingKeys`). */
export interface PanCacheConfig {
  /**
   * HMAC key of the cache's Redis keys (16 bytes or more, the same in every process and worker), so that a Redis
   * dump cannot be brute-forced back to PANs and Aadhaar numbers. Required.
   */
  cacheKeySecret: string;
  /** Default 30 days (PAN verification) and 1 day (link status). */
  cacheTtlSeconds?: number;
}

export interface KycServicesConfig {
  /** A producer-flavour connection. */
  redis: RedisClient;
  /** Prefix of the router's keys (the kyc keys go under `<prefix>:kyc`). */
  keyPrefix?: string;
  storage: ObjectStorage;
  /** Keys sealing upstream tokens at rest; the first is the active one. */
  sealingKeys: SealingKey[];
  /** HMAC secret of the OAuth state, at least 16 bytes; the same in every process. */
  stateSecret: string | Buffer;
  lockers: Record<LockerKind, Omit<LockerClientConfig, 'kind'>>;
  aadhaarOtp?: HttpOtpProviderConfig & {
    /** HMAC key standing for Aadhaar numbers in Redis keys. */
    numberHashSecret: string | Buffer;
    /** A test deployment's accepted sandbox numbers (see AadhaarOtpServiceOptions.testNumbers); never in production. */
    testNumbers?: Iterable<string>;
  };
  /** PAN verification (`POST /kyc/pan/verify`) over Cashfree PAN 360; without it the route is not mounted. */
  pan?: CashfreePanOptions & PanCacheConfig & { nameMatchThreshold?: number };
  /** PAN-Aadhaar link status (`POST /kyc/pan-aadhaar/status`) from the e-filing portal; without it the route is not mounted. */
  panAadhaarLink?: IncomeTaxLinkStatusOptions & PanCacheConfig;
  clock?: Clock;
  logger?: Logger;
  /**
   * How often expired document copies are deleted (default every 60 s; 0 turns the sweeper off, e.g. when
   * another process sweeps). `kyc.close()` stops it.
   */
  documentSweepIntervalMs?: number;
  /**
   * Where upstream calls are timed (`createMetrics()` from @satyapan/core): upstreams `docvault`, `entityvault`
   * and `aadhaar_otp`, operation = the adapter's method (`exchangeCode`, `sendOtp`, ...).
   */
  metrics?: SatyapanMetrics;
}

export interface KycServices {
  kyc: KycService;
  aadhaarOtp?: AadhaarOtpService;
  pan?: PanVerificationService;
  panAadhaarLink?: PanAadhaarLinkService;
}

/** Builds the kyc services from configuration, the way a host app hands them to `createRouter({ services })`. */
export function createKycServices(config: KycServicesConfig): KycServices {
  if (!Array.isArray(config.sealingKeys) || config.sealingKeys.length === 0) {
    throw new OptionError('sealingKeys', 'createKycServices: sealingKeys is missing: give [{ id, key }] (key: 32 random bytes, base64), the same as the other services\'');
  }
  for (const kind of ['docvault', 'entityvault'] as const) {
    if (!config.lockers?.[kind]) throw new OptionError(`lockers.${kind}`, `createKycServices: lockers.${kind} is missing: give its baseUrl, clientId, clientSecret and callbackUrl`);
  }
  const keys = new KeySpace(config.keyPrefix ?? 'satyapan').child('kyc');
  const common = {
    redis: config.redis, keys, ...(config.clock ? { clock: config.clock } : {}), ...(config.logger ? { logger: config.logger } : {}),
  };
  const kyc = new KycService({
    ...common,
    storage: config.storage,
    sealer: new Sealer(config.sealingKeys),
    stateSecret: config.stateSecret,
    lockers: {
      docvault: instrumented(config, new OpenIdLockerClient({ kind: 'docvault', ...config.lockers.docvault }), 'docvault'),
      entityvault: instrumented(config, new OpenIdLockerClient({ kind: 'entityvault', ...config.lockers.entityvault }), 'entityvault'),
    },
  });
  const sweepEvery = config.documentSweepIntervalMs ?? 60_000;
  if (sweepEvery > 0) kyc.startHousekeeping(sweepEvery);
  const services: KycServices = { kyc, ...panServices(config, common) };
  if (!config.aadhaarOtp) return services;
  const { numberHashSecret, testNumbers, ...provider } = config.aadhaarOtp;
  return {
    ...services,
    aadhaarOtp: new AadhaarOtpService({
      ...common, numberHashSecret, provider: instrumented(config, new HttpOtpProvider({ ...(common.logger ? { logger: common.logger } : {}), ...provider }), 'aadhaar_otp'), ...(testNumbers ? { testNumbers } : {}),
    }),
  };
}

/** The PAN services the configuration asks for; their answers are timed by the shared cache (`pan_verification`, `pan_aadhaar_link`). */
function panServices(config: KycServicesConfig, common: { redis: RedisClient; keys: KeySpace; clock?: Clock; logger?: Logger }): Pick<KycServices, 'pan' | 'panAadhaarLink'> {
  const settings = (option: string, cache: Partial<PanCacheConfig>) => ({
    ...common, sealer: new Sealer(config.sealingKeys),
    keySecret: requireSecret('createKycServices', `${option}.cacheKeySecret`, cache.cacheKeySecret, 16, CACHE_KEY_SECRET_HINT),
    ...(cache.cacheTtlSeconds ? { cacheTtlSeconds: cache.cacheTtlSeconds } : {}),
    ...(config.metrics ? { metrics: config.metrics } : {}),
  });
  const out: Pick<KycServices, 'pan' | 'panAadhaarLink'> = {};
  if (config.pan) {
    const { cacheKeySecret, cacheTtlSeconds, nameMatchThreshold, ...provider } = config.pan;
    out.pan = new PanVerificationService({
      ...settings('pan', { cacheKeySecret, cacheTtlSeconds }), provider: new CashfreePanProvider({ ...(common.logger ? { logger: common.logger } : {}), ...provider }),
      ...(nameMatchThreshold === undefined ? {} : { nameMatchThreshold }),
    });
  }
  if (config.panAadhaarLink) {
    const { cacheKeySecret, cacheTtlSeconds, ...provider } = config.panAadhaarLink;
    out.panAadhaarLink = new PanAadhaarLinkService({
      ...settings('panAadhaarLink', { cacheKeySecret, cacheTtlSeconds }), provider: new IncomeTaxLinkStatusProvider({ ...(common.logger ? { logger: common.logger } : {}), ...provider }),
    });
  }
  return out;
}

/** The adapter, timed as calls to `upstream` when the host gave metrics. */
function instrumented<T extends object>(config: KycServicesConfig, adapter: T, upstream: string): T {
  return config.metrics ? config.metrics.instrumentUpstream(adapter, upstream) : adapter;
}
