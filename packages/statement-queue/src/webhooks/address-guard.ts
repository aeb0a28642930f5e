import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { StatementQueueError } from '../errors.js';

/**
 * Webhook URLs are chosen by clients, so a delivery could be aimed at the operator's own network (OWASP API7,
 * SSRF). Deliveries go only to public addresses unless the URL is allow-listed by the operator; the check is
 * made on the addresses the connection actually uses (a lookup hook), so DNS rebinding does not get around it.
 */
const BLOCKED = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) BLOCKED.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['2001:db8::', 32], ['64:ff9b::', 96], ['100::', 64],
] as const) BLOCKED.addSubnet(network, prefix, 'ipv6');

export class BlockedAddressError extends StatementQueueError {
  override readonly name = 'BlockedAddressError';
  constructor(host: string) {
    super('WEBHOOK_ADDRESS_BLOCKED', `Webhook host ${host} resolves to a private, loopback or link-local address`);
  }
}

/** True for loopback, private, link-local, unique-local, multicast, documentation and other non-public ranges. */
export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return BLOCKED.check(address, 'ipv4');
  if (family !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return BLOCKED.check(mapped[1] as string, 'ipv4');
  return BLOCKED.check(address, 'ipv6');
}

/** Allow-list entries are origins (`http://127.0.0.1:8080`) or host names (`localhost`, `10.0.0.5`). */
export function isAllowListed(url: URL, allowList: readonly string[]): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return allowList.some((entry) => entry === url.origin || entry.replace(/^\[|\]$/g, '') === host);
}

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** A `lookup` for the HTTP client that refuses non-public answers. */
export async function publicLookup(hostname: string): Promise<ResolvedAddress[]> {
  const addresses = await lookup(hostname, { all: true });
  if (addresses.length === 0 || addresses.some((entry) => isNonPublicAddress(entry.address))) throw new BlockedAddressError(hostname);
  return addresses;
}

/** `publicLookup` in the callback form HTTP clients call (`dns.lookup`'s). */
export function publicLookupCallback(
  hostname: string,
  _options: unknown,
  callback: (error: Error | null, addresses?: ResolvedAddress[]) => void,
): void {
  publicLookup(hostname).then((addresses) => callback(null, addresses), (error: Error) => callback(error));
}

/** Refuses an IP-literal host that is not public (those never go through a lookup). */
export function assertPublicLiteral(url: URL): void {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0 && isNonPublicAddress(host)) throw new BlockedAddressError(host);
}
