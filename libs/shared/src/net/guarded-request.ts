/**
 * The one way to a user-given URL (issue 38, break 2): the host is resolved once, every address it
 * resolves to is checked (`refusedAddress`), and the connection is pinned to the checked address, so a
 * name that answers differently a moment later (DNS rebinding) reaches nothing else. Redirects are
 * never followed (the caller reads only the status).
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { refusedAddress, refusedUrlHost } from './outbound-address.rules';

/** All the addresses a name resolves to (the system resolver, as `dns.lookup` with `all: true`). */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) => dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))));

/** The destination is one we never reach for a user. Its message names no address or port. */
export class RefusedDestinationError extends Error {
  constructor(readonly reason: string) {
    super('The address is not allowed: it is private, loopback or reserved');
    this.name = 'RefusedDestinationError';
  }
}

/**
 * Where a request to `url` will connect: its checked address. Throws RefusedDestinationError when the
 * host, or any address its name resolves to, is refused; rethrows the resolver's error otherwise.
 * `allowPrivate` (ALERTS_ALLOW_PRIVATE_URLS, tests only) skips the check, never the pinning.
 */
export async function checkedDestination(url: URL, options: { resolver?: Resolver; allowPrivate?: boolean } = {}): Promise<LookupAddress> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!options.allowPrivate) {
    const why = refusedUrlHost(url.hostname);
    if (why) throw new RefusedDestinationError(why);
  }
  const family = isIP(host);
  if (family) return { address: host, family };
  const addresses = await (options.resolver ?? systemResolver)(host);
  if (!addresses.length) throw Object.assign(new Error(`${host} has no address`), { code: 'ENOTFOUND' });
  if (!options.allowPrivate) {
    for (const a of addresses) {
      const why = refusedAddress(a.address);
      if (why) throw new RefusedDestinationError(why);
    }
  }
  return addresses[0];
}

/** A `lookup` for http(s).request that answers only the checked address: no second resolution. */
export function pinnedLookup(destination: LookupAddress): typeof dnsLookup {
  return ((_hostname: string, options: { all?: boolean } | number | undefined, callback: (...args: unknown[]) => void) => {
    const cb = typeof options === 'function' ? (options as typeof callback) : callback;
    const all = typeof options === 'object' && options?.all;
    if (all) cb(null, [destination]);
    else cb(null, destination.address, destination.family);
  }) as unknown as typeof dnsLookup;
}
