import type { RouteContext, RouteDefinition } from '../route-types.js';
import { bankRoutes } from './bank.js';
import { kycRoutes } from './kyc.js';
import { statementsRoutes } from './statements.js';

/**
 * The route modules of the domain areas. Each returns the routes of its area, or none when the host did not
 * configure that area's service. Order matters only within a module (static paths before parameters).
 */
export const AREA_ROUTE_MODULES: ReadonlyArray<(ctx: RouteContext) => RouteDefinition[]> = [
  bankRoutes,
  kycRoutes,
  statementsRoutes,
];
