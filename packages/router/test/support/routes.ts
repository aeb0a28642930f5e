// Routes a test host adds through `RouterOptions.routes`, to exercise the router's machinery on its own.
import type { RouteDefinition } from '@satyapan/router';

export const echoRoute: RouteDefinition = {
  method: 'post',
  path: '/test/echo/:ifsc',
  operationId: 'testEcho',
  summary: 'Echoes validated input',
  tag: 'test',
  product: 'bank',
  auth: 'jwt',
  schemas: {
    params: { type: 'object', required: ['ifsc'], properties: { ifsc: { type: 'string', pattern: '^[A-Za-z]{4}[A-Za-z0-9]{7}$', 'x-message': 'Invalid IFSC pattern' } } },
    query: { type: 'object', properties: { limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 } } },
    body: {
      type: 'object',
      required: ['@entity', 'quarter', 'doc_types'],
      properties: {
        '@entity': { const: 'in.co.service.test.request' },
        quarter: { enum: ['Q1', 'Q2', 'Q3', 'Q4'], 'x-message': 'Invalid quarter: {value}' },
        doc_types: { type: 'array', minItems: 1, items: { enum: ['aadhaar', 'pan'] } },
        note: { type: 'string', maxLength: 5 },
      },
    },
    response: { type: 'object' },
  },
  handler: async ({ body, query, params, client }) => ({ data: { body, query, params, client: client.id } }),
};

export const crashRoute: RouteDefinition = {
  method: 'get',
  path: '/test/crash',
  operationId: 'testCrash',
  summary: 'Throws a programming error',
  tag: 'test',
  product: 'kyc',
  auth: 'jwt',
  schemas: {},
  handler: async () => {
    throw new TypeError('Cannot read properties of undefined (reading "x") at /srv/secret/path.js:1:1');
  },
};

export const deprecatedRoute: RouteDefinition = {
  method: 'post',
  path: '/test/old',
  operationId: 'testOld',
  summary: 'A deprecated operation with a successor',
  tag: 'test',
  product: 'kyc',
  auth: 'jwt',
  deprecated: true,
  successor: '/test/echo/HDFC0000001',
  schemas: {
    headers: { type: 'object', properties: { 'x-mode': { enum: ['fast', 'slow'], 'x-message': 'Invalid mode: {value}' } } },
    body: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } },
  },
  handler: async ({ body }) => ({ data: body }),
};
