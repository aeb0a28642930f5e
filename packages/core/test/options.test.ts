// A host's settings are checked where they are read: one OptionError naming the setting, never a TypeError.
import { expect } from 'chai';
import {
  OptionError, createRedisConnection, isPlaceholderHost, optionalEnv, parseSealingKeys, requireHttpUrl, requirePublicUrl, requireSecret, requireText, requiredEnv,
} from '@satyapan/core';

describe('options: checks of what a host passes', () => {
  it('requireText names the owner and the option, and says what to give', () => {
    expect(() => requireText('Thing', 'clientId', undefined, 'the id from the dashboard'))
      .to.throw(OptionError, 'Thing: clientId is missing: the id from the dashboard');
    expect(() => requireText('Thing', 'clientId', 42)).to.throw(OptionError, 'Thing: clientId must be a string, got number');
    expect(requireText('Thing', 'clientId', 'abc')).to.equal('abc');
    try {
      requireText('Thing', 'a.b', '');
    } catch (error) {
      expect(error).to.include({ option: 'a.b', code: 'INVALID_OPTION', name: 'OptionError' });
    }
  });

  it('requireSecret counts bytes', () => {
    expect(() => requireSecret('T', 'keySecret', 'short', 16)).to.throw(OptionError, 'T: keySecret must be at least 16 bytes, got 5');
    expect(requireSecret('T', 'keySecret', 'x'.repeat(16), 16)).to.have.length(16);
  });

  it('requireHttpUrl wants an absolute http(s) URL', () => {
    expect(() => requireHttpUrl('P', 'baseUrl', 'api.cashfree.com')).to.throw(OptionError, 'P: baseUrl must be an absolute http(s) URL, got "api.cashfree.com"');
    expect(() => requireHttpUrl('P', 'baseUrl', 'ftp://x.org/')).to.throw(OptionError, /must be an http\(s\) URL/);
    expect(requireHttpUrl('P', 'baseUrl', 'https://x.org/v').pathname).to.equal('/v');
  });

  it('requirePublicUrl refuses the documentation placeholders and drops trailing slashes', () => {
    expect(() => requirePublicUrl('createRouter', 'publicBaseUrl', 'https://api.example.com/kyc-api'))
      .to.throw(OptionError, /^createRouter: publicBaseUrl is https:\/\/api\.example\.com, a documentation placeholder/);
    expect(requirePublicUrl('R', 'u', 'https://kyc.acme.in/api//')).to.equal('https://kyc.acme.in/api');
    expect(requirePublicUrl('R', 'u', 'http://127.0.0.1:3000/api')).to.equal('http://127.0.0.1:3000/api');
    for (const host of ['example.com', 'API.Example.org', 'a.example', 'x.invalid', 'b.test']) expect(isPlaceholderHost(host), host).to.equal(true);
    for (const host of ['examples.com', 'example.co.in', 'localhost', 'testing.io']) expect(isPlaceholderHost(host), host).to.equal(false);
  });

  it('requiredEnv names the variable; an empty variable counts as unset', () => {
    expect(() => requiredEnv('SATYAPAN_X', 'what it is', {})).to.throw(OptionError, 'SATYAPAN_X is not set: what it is');
    expect(() => requiredEnv('SATYAPAN_X', undefined, { SATYAPAN_X: '' })).to.throw(OptionError, 'SATYAPAN_X is not set');
    expect(optionalEnv('SATYAPAN_X', { SATYAPAN_X: '' })).to.equal(undefined);
    expect(requiredEnv('SATYAPAN_X', undefined, { SATYAPAN_X: 'v' })).to.equal('v');
  });

  it('parseSealingKeys reads id:key lists without quoting a malformed entry', () => {
    expect(parseSealingKeys('k2:AAA=, k1:BBB=')).to.deep.equal([{ id: 'k2', key: 'AAA=' }, { id: 'k1', key: 'BBB=' }]);
    expect(() => parseSealingKeys('k1:AAA=,c2VjcmV0')).to.throw(OptionError, 'SATYAPAN_SEALING_KEYS entry 2 is not id:base64key')
      .with.property('message').that.does.not.include('c2VjcmV0');
  });
});

describe('options: the Redis URL', () => {
  it('refuses a URL without its scheme, naming REDIS_URL when it came from there, and masking a password', () => {
    const saved = process.env['REDIS_URL'];
    try {
      process.env['REDIS_URL'] = 'cache.internal:6379';
      expect(() => createRedisConnection({ flavour: 'producer' })).to.throw(OptionError, 'createRedisConnection: REDIS_URL must be a redis:// or rediss:// URL, got "cache.internal:6379"');
    } finally {
      if (saved === undefined) delete process.env['REDIS_URL'];
      else process.env['REDIS_URL'] = saved;
    }
    expect(() => createRedisConnection({ flavour: 'producer', url: 'http://u:pw@host:1' })).to.throw(OptionError, 'url must be a redis:// or rediss:// URL, got "http://***@host:1"');
  });
});
