import { expect } from 'chai';
import { PassThrough } from 'node:stream';
import { createLogger, redactText } from '@satyapan/core';

function capture(): { stream: PassThrough; lines: () => Record<string, unknown>[] } {
  const stream = new PassThrough();
  const chunks: string[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
  return { stream, lines: () => chunks.join('').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) };
}

const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJrZXkifQ.c2lnbmF0dXJlLXBhcnQ';

describe('core: logger redaction', () => {
  it('scrubs Aadhaar numbers, PANs, account numbers and JWTs from free text', () => {
    const text = `aadhaar 2345 6789 0123 pan ABCPE1234F acct 001234567890 token ${JWT} ok`;
    const out = redactText(text);
    for (const secret of ['2345 6789 0123', 'ABCPE1234F', '001234567890', JWT]) expect(out).not.to.include(secret);
    expect(out).to.include('ok');
  });

  it('leaves request ids and short numbers alone', () => {
    const id = '3f2b8c1e-1a2b-4c3d-9e8f-123456789012';
    expect(redactText(`request ${id} took 42 ms`)).to.equal(`request ${id} took 42 ms`);
  });

  it('never touches a UUID, whatever digits its groups hold, and still scrubs an Aadhaar number beside one', () => {
    for (const id of ['7a7f9576-2345-6789-0123-007bc5ea0725', '12345678-2345-4789-8123-123456789012', '00000000-9999-9999-9999-000000000000']) {
      expect(redactText(`session ${id} not found`)).to.equal(`session ${id} not found`);
      expect(redactText(`id=${id},`)).to.equal(`id=${id},`);
    }
    const mixed = redactText('session 7a7f9576-2345-6789-0123-007bc5ea0725 for 2345-6789-0123 and 2345 6789 0123');
    expect(mixed).to.equal('session 7a7f9576-2345-6789-0123-007bc5ea0725 for [REDACTED:aadhaar] and [REDACTED:aadhaar]');
  });

  it('writes JSON lines with the request id and no identity data in message or metadata', async () => {
    const { stream, lines } = capture();
    const logger = createLogger({ stream }).child({ request_id: 'req-1' });
    logger.info('verifying account 123456789012 for PAN ABCPE1234F', {
      account_number: '987654321',
      headers: { authorization: JWT, 'x-api-secret': 'sk_live_abc', 'x-api-key': 'key_1' },
      nested: { deep: [{ aadhaar_number: '234567890123', note: `Bearer ${JWT}` }] },
      client_secret: 'shh',
    });
    await new Promise((resolve) => setImmediate(resolve));
    const [line] = lines();
    expect(line).to.include({ request_id: 'req-1', level: 'info' });
    const serialised = JSON.stringify(line);
    for (const secret of ['123456789012', 'ABCPE1234F', '987654321', JWT, 'sk_live_abc', '234567890123', 'shh']) {
      expect(serialised, secret).not.to.include(secret);
    }
  });
});
