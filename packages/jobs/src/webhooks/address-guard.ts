import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { JobsError } from '../errors.js';

/**
 * Webhook URLs are chosen by clients, so a delivery could be aimed at the operator's own network (OWASP API7,
 * SSRF). Deliveries go only to public addresses unless the URL is allow-listed by the operator; the check is
 * made on the addresses the connection actually uses (a lookup hook), so DNS rebinding does not get around it.
 *
 * Classification is ipaddr.js's (IANA special-purpose registries), not ranges of our own: an address is public
 * only when ipaddr.js calls it plain `unicast` and, for IPv6, it is in the global unicast block 2000::/3. That
 * refuses every spelling that tunnels or embeds another address (IPv4-compatible `::a.b.c.d`, IPv4-translated
 * `::ffff:0:a.b.c.d`, 6to4 `2002::/16`, Teredo `2001::/32`, NAT64 `64:ff9b::/96`) and the deprecated site-local
 * `fec0::/10`. An IPv4-mapped address (`::ffff:a.b.c.d`) is judged as the IPv4 address it is.
 */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];

export class BlockedAddressError extends JobsError {
  override readonly name = 'BlockedAddressError';
  constructor(host: string) {
    super('WEBHOOK_ADDRESS_BLOCKED', `Webhook host ${host} resolves to an address that is not public unicast (private, loopback, link-local, reserved or tunnelled)`);
  }
}

/** True for every address that is not public unicast (loopback, private, link-local, reserved, tunnels, ...). */
export function isNonPublicAddress(address: string): boolean {
  if (isIP(address) === 0) return true;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  if (parsed.range() !== 'unicast') return true;
  return parsed.kind() === 'ipv6' && !(parsed as ipaddr.IPv6).match(GLOBAL_UNICAST_V6);
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
