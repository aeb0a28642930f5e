import { expect } from 'chai';
import {
  ERROR_REGISTRY, ManualClock, ServiceError, errorEnvelope, serviceError, serviceErrorWith, successEnvelope,
  toServiceError,
} from '@satyapan/core';

describe('core: coded errors and envelopes', () => {
  it('covers every status the spec and docs/API.md name', () => {
    const statuses = new Set(Object.values(ERROR_REGISTRY).map((e) => e.status));
    for (const status of [400, 401, 403, 404, 422, 429, 500, 503, 521, 523]) expect(statuses).to.include(status);
  });

  it('builds the exact messages of the spec', () => {
    expect(serviceError('DATA_NOT_FOUND', 'abc').message).to.equal('Data not found for: abc');
    expect(serviceError('INVALID_SESSION_STATUS', 'created').message).to.equal('Invalid session status: created');
    expect(serviceError('SESSION_EXPIRED').message).to.equal('Session expired');
    expect(serviceError('SOURCE_UNAVAILABLE').status).to.equal(503);
    expect(serviceError('CONSENT_NOT_PROVIDED', 'gstn_details').message).to.equal('Consent for gstn_details not provided');
    expect(serviceError('INVALID_REQUEST_BODY', 'flow', 'is required').message).to.equal('Invalid request body: flow is required');
  });

  it('keeps headers and cause but never exposes the cause in the message', () => {
    const error = serviceErrorWith({ headers: { 'retry-after': '3' }, cause: new Error('secret detail') }, 'TOO_MANY_REQUESTS');
    expect(error.headers['retry-after']).to.equal('3');
    expect(error.message).to.equal('Too Many Requests');
    expect((error.cause as Error).message).to.equal('secret detail');
  });

  it('turns unknown throwables into a 500 that says nothing', () => {
    const error = toServiceError(new TypeError('x is undefined at /srv/app.js:10'));
    expect(error).to.be.instanceOf(ServiceError);
    expect(error.status).to.equal(500);
    expect(error.message).to.equal('Internal Server Error');
  });

  it('builds success and error envelopes with millisecond timestamps', () => {
    const clock = new ManualClock(1_700_000_000_123);
    expect(successEnvelope({ a: 1 }, 'tx-1', { clock })).to.deep.equal({ code: 200, timestamp: 1_700_000_000_123, data: { a: 1 }, transaction_id: 'tx-1' });
    expect(errorEnvelope(serviceError('UNAUTHORIZED'), 'tx-2', clock)).to.deep.equal({ code: 401, timestamp: 1_700_000_000_123, message: 'Unauthorized', transaction_id: 'tx-2' });
  });
});
