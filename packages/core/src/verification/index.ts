export { VerificationCache, DEFAULT_CACHE_TTL_SECONDS } from './cache.js';
export { RedisSingleFlight, type SingleFlightOptions } from './single-flight.js';
export {
  CachedAnswers, CACHE_KEY_SECRET_HINT, parseAcceptCache, type CachedAnswersSettings, type CacheableAnswer, type CachedAnswer,
} from './cached-answers.js';
