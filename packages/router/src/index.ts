export { createRouter, type RouterOptions, type SatyapanRouter } from './router.js';
export {
  StaticClientStore, RedisClientStore, ChainedClientStore, clientFromConfig,
  type ClientConfig, type ClientRecord, type ClientStore,
} from './clients.js';
export { TokenService, type TokenOptions, type AccessClaims } from './tokens.js';
export { PRODUCTS, type Product } from './products.js';
export { buildOpenApi, openApiPath, type OpenApiInfo } from './openapi.js';
export type { ReadinessCheck } from './routes/health.js';
export { hostPages, type HostPagesOptions } from './host-pages.js';
export {
  loginLockout, clearCredentialLockout, type LoginLockoutOptions, type ClearCredentialLockoutOptions,
} from './middleware/rate-limit.js';
export type {
  Area, RouteDefinition, RouteContext, RouteRequest, RouteResult, RouteSchemas, JsonSchema, HttpMethod,
} from './route-types.js';
