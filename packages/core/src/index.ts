export {
  ERROR_REGISTRY, ServiceError, serviceError, serviceErrorWith, isServiceError, toServiceError, documentedError, describeError,
  type ErrorCode, type ServiceErrorOptions, type DocumentedError, type FixedMessageCode, type OperationError,
} from './errors.js';
export { successEnvelope, errorEnvelope, newTransactionId, type SuccessEnvelope, type ErrorEnvelope } from './envelope.js';
export { systemClock, ManualClock, type Clock } from './clock.js';
export { createLogger, silentLogger, type Logger, type LoggerOptions } from './logger.js';
export { redact, redactText, redactEntry, isSensitiveKey } from './redact.js';
export {
  createRedisConnection, watchRedisConnection, duplicateConnection, connectionNameOf, parseClusterNodes, isRedisCluster, logUnlessRedisUnavailable, waitForRedis, readyOrLetCommandFail, isRedisUnavailableError, RedisUnavailableError, KeySpace, DEFAULT_REDIS_URL,
  type RedisFlavour, type RedisConnectionOptions, type RedisConnection, type RedisCluster,
} from './redis.js';
export {
  Sealer, SealError, constantTimeEqual, hmacSign, hmacVerify, sha256Hex,
  type SealingKey, type SignatureEncoding,
} from './crypto.js';
export {
  OptionError, requirePresent, requireText, requireSecret, requireHttpUrl, requirePublicUrl, isPlaceholderHost, optionalEnv, requiredEnv, parseSealingKeys,
} from './options.js';
export { LuaScript } from './lua.js';
export { batched, type BatchTarget } from './redis-batch.js';
export * from './storage/index.js';
export { readAll, readAtMost } from './streams.js';
export { keepAliveFetch, type KeepAliveFetch, type FetchRequest, type BufferedAnswer } from './http/keep-alive-fetch.js';
export {
  PRODUCTS, PreparedJson,
  type Product, type ClientRecord, type Area, type RouteDefinition, type RouteContext, type RouteRequest, type RouteResult,
  type RouteSchemas, type JsonSchema, type HttpMethod, type RouteExample, type SecurityScheme,
} from './http/routes.js';
export {
  CURSOR_FIELD, CURSOR_REFUSAL, pageSizeSchema, cursorSchema, pagedListSchema, encodeCursor, decodeCursor, type PageSizeLimits,
} from './http/paging.js';
export {
  SatyapanMetrics, createMetrics, metricsHandler,
  type MetricsOptions, type QueueCounts, type UpstreamOutcome, type BulkRunOutcome,
} from './metrics.js';
export {
  JOB_STATUSES, JOB_ID_PATTERN, JOB_OWNER_PATTERN, jobOwnerOf, canMove, sourcesOf, isTerminal, scoredEntries, repeatEvery, closeWithin, watchQueueDepth,
  type JobStatus, type ClosableWorker, type CountableQueue,
} from './jobs.js';
export {
  VerificationCache, DEFAULT_CACHE_TTL_SECONDS, RedisSingleFlight, CachedAnswers, CACHE_KEY_SECRET_HINT, parseAcceptCache,
  type SingleFlightOptions, type CachedAnswersSettings, type CacheableAnswer, type CachedAnswer,
} from './verification/index.js';
export {
  cashfreeBaseUrl, checkedCashfreeBaseUrl, cashfreeRefusal, CASHFREE_REFUSAL_CAUSES, CashfreeHeaders, type CashfreeCredentials, type CashfreeRefusal,
} from './upstream/cashfree.js';
