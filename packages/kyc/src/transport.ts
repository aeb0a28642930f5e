import { OptionError, requireHttpUrl } from '@satyapan/core';

/**
 * Whether an upstream base URL needs plain http to be allowed. http is acceptable on loopback only (where the
 * sandbox's simulators listen); a public upstream must be reached over https, anything else throws.
 */
export function requiresInsecureTransport(baseUrl: string): boolean {
  const url = requireHttpUrl('upstream', 'baseUrl', baseUrl);
  if (url.protocol === 'https:') return false;
  if (!isLoopbackHost(url.hostname)) throw new OptionError('baseUrl', `An upstream URL over plain http must be on loopback, got ${url.hostname}`);
  return true;
}

function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}
