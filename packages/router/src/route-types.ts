// The route contract lives in @satyapan/core, below both the router and the areas; re-exported here so that a
// host's extra routes can be typed from the package it mounts.
export type {
  Area, RouteDefinition, RouteContext, RouteRequest, RouteResult, RouteSchemas, JsonSchema, HttpMethod, RouteExample, SecurityScheme,
  OperationError, DocumentedError,
} from '@satyapan/core';
