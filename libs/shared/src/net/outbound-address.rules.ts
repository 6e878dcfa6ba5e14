/**
 * Where a request to a user-given URL may go (issue 38, break 2): the addresses a server must never be
 * made to reach for a user, whatever spelling the user chose. Pure: no DNS, no sockets.
 *
 * Every address is normalised before it is checked: an IPv6 address that carries an IPv4 one
 * (IPv4-mapped `::ffff:a.b.c.d` in either spelling, IPv4-compatible `::a.b.c.d`) is checked as that
 * IPv4 address; the translation prefixes that reach an IPv4 address through a gateway (NAT64, 6to4,
 * Teredo) are refused whole, since what they reach depends on the network's gateways, not on us.
 * The host of a URL is read by the WHATWG URL parser first, which turns decimal (`2130706433`), octal
 * (`0177.0.0.1`), hex (`0x7f.1`) and short (`127.1`) IPv4 spellings into dotted form.
 */
import { BlockList, isIP } from 'node:net';

/** A refused range, with where it is defined. */
interface Range {
  net: string;
  prefix: number;
  why: string;
}

/** IPv4 ranges that are not the public internet (IANA IPv4 Special-Purpose Address Registry, RFC 6890). */
const V4: Range[] = [
  { net: '0.0.0.0', prefix: 8, why: '"this network" (RFC 791, RFC 6890): 0.0.0.0 reaches the server itself' },
  { net: '10.0.0.0', prefix: 8, why: 'private (RFC 1918)' },
  { net: '100.64.0.0', prefix: 10, why: 'shared address space, carrier-grade NAT (RFC 6598)' },
  { net: '127.0.0.0', prefix: 8, why: 'loopback (RFC 1122 §3.2.1.3)' },
  { net: '169.254.0.0', prefix: 16, why: 'link-local (RFC 3927), including the cloud metadata address 169.254.169.254' },
  { net: '172.16.0.0', prefix: 12, why: 'private (RFC 1918)' },
  { net: '192.0.0.0', prefix: 24, why: 'IETF protocol assignments (RFC 6890)' },
  { net: '192.0.2.0', prefix: 24, why: 'documentation TEST-NET-1 (RFC 5737)' },
  { net: '192.88.99.0', prefix: 24, why: '6to4 relay anycast (RFC 7526)' },
  { net: '192.168.0.0', prefix: 16, why: 'private (RFC 1918)' },
  { net: '198.18.0.0', prefix: 15, why: 'benchmarking (RFC 2544)' },
  { net: '198.51.100.0', prefix: 24, why: 'documentation TEST-NET-2 (RFC 5737)' },
  { net: '203.0.113.0', prefix: 24, why: 'documentation TEST-NET-3 (RFC 5737)' },
  { net: '224.0.0.0', prefix: 4, why: 'multicast (RFC 5771)' },
  { net: '240.0.0.0', prefix: 4, why: 'reserved (RFC 1112), including the broadcast address 255.255.255.255 (RFC 919)' },
];

/** IPv6 ranges that are not the public internet (IANA IPv6 Special-Purpose Address Registry). */
const V6: Range[] = [
  { net: '::', prefix: 128, why: 'the unspecified address (RFC 4291 §2.5.2)' },
  { net: '::1', prefix: 128, why: 'loopback (RFC 4291 §2.5.3)' },
  { net: '::ffff:0:0:0', prefix: 96, why: 'IPv4-translated (RFC 2765 §2.1): reaches an IPv4 address through a translator' },
  { net: '64:ff9b::', prefix: 96, why: 'NAT64 well-known prefix (RFC 6052): reaches an IPv4 address through a gateway' },
  { net: '64:ff9b:1::', prefix: 48, why: 'NAT64 local-use prefix (RFC 8215)' },
  { net: '100::', prefix: 64, why: 'discard-only (RFC 6666)' },
  { net: '2001::', prefix: 32, why: 'Teredo (RFC 4380): reaches an IPv4 address through a relay' },
  { net: '2001:db8::', prefix: 32, why: 'documentation (RFC 3849)' },
  { net: '2002::', prefix: 16, why: '6to4 (RFC 3056): reaches an IPv4 address through a relay' },
  { net: '3fff::', prefix: 20, why: 'documentation (RFC 9637)' },
  { net: '5f00::', prefix: 16, why: 'segment routing SIDs (RFC 9602)' },
  { net: 'fc00::', prefix: 7, why: 'unique local, the IPv6 private range (RFC 4193)' },
  { net: 'fe80::', prefix: 10, why: 'link-local (RFC 4291 §2.5.6)' },
  { net: 'fec0::', prefix: 10, why: 'site-local, deprecated but still routed by some stacks (RFC 3879)' },
  { net: 'ff00::', prefix: 8, why: 'multicast (RFC 4291 §2.7)' },
];

/** One BlockList per range, so that a refusal names its range. */
const listed = (ranges: Range[], family: 'ipv4' | 'ipv6') =>
  ranges.map((r) => {
    const list = new BlockList();
    list.addSubnet(r.net, r.prefix, family);
    return { range: r, list };
  });
const LISTS_V4 = listed(V4, 'ipv4');
const LISTS_V6 = listed(V6, 'ipv6');
const GLOBAL_UNICAST = new BlockList();
GLOBAL_UNICAST.addSubnet('2000::', 3, 'ipv6');

/** The 8 groups of an IPv6 address as numbers (a trailing dotted IPv4 part counts as two), or null. */
function ipv6Groups(address: string): number[] | null {
  let a = address.toLowerCase();
  const zone = a.indexOf('%');
  if (zone >= 0) a = a.slice(0, zone);
  const dotted = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(a);
  if (dotted) {
    const b = dotted.slice(1, 5).map(Number);
    if (b.some((x) => x > 255)) return null;
    a = a.slice(0, dotted.index) + `${((b[0] << 8) | b[1]).toString(16)}:${((b[2] << 8) | b[3]).toString(16)}`;
  }
  const halves = a.split('::');
  if (halves.length > 2) return null;
  const parse = (s: string) => (s === '' ? [] : s.split(':').map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN)));
  const head = parse(halves[0]);
  const tail = halves.length === 2 ? parse(halves[1]) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array(halves.length === 2 ? missing : 0).fill(0), ...tail];
  return groups.some((g) => Number.isNaN(g)) ? null : groups;
}

/**
 * The IPv4 address an IPv6 address stands for on this host's own stack: IPv4-mapped
 * (`::ffff:0:0/96`, RFC 4291 §2.5.5.2) and the deprecated IPv4-compatible (`::/96`, §2.5.5.1) forms;
 * null for any other.
 */
export function embeddedIPv4(address: string): string | null {
  const g = ipv6Groups(address);
  if (!g) return null;
  const zeros5 = g.slice(0, 5).every((x) => x === 0);
  const mapped = zeros5 && g[5] === 0xffff;
  const compatible = zeros5 && g[5] === 0 && (g[6] !== 0 || g[7] > 1); // ::, ::1 are themselves, not IPv4
  if (!mapped && !compatible) return null;
  return [g[6] >> 8, g[6] & 255, g[7] >> 8, g[7] & 255].join('.');
}

/**
 * Why a literal address may not be reached, or null when it may. An address that is not an IP
 * literal is refused ("not an address"): names are resolved first, and their every address checked.
 */
export function refusedAddress(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, '');
  const v = isIP(bare.split('%')[0]);
  if (v === 4) {
    return LISTS_V4.find((l) => l.list.check(bare, 'ipv4'))?.range.why ?? null;
  }
  if (v === 6) {
    const plain = bare.split('%')[0];
    const v4 = embeddedIPv4(plain);
    if (v4 !== null) {
      const inner = refusedAddress(v4);
      return inner ? `an IPv6 spelling of ${v4}: ${inner}` : null;
    }
    const hit = LISTS_V6.find((l) => l.list.check(plain, 'ipv6'))?.range.why;
    if (hit) return hit;
    // the public IPv6 internet is global unicast, 2000::/3 (RFC 4291 §2.4); anything else is not reached for a user
    return GLOBAL_UNICAST.check(plain, 'ipv6') ? null : 'not global unicast (RFC 4291 §2.4)';
  }
  return 'not an IP address';
}

/** Names that mean this host whatever DNS says (RFC 6761 §6.3: `localhost` and every name under it). */
export function isLocalhostName(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.+$/, ''); // a trailing dot is the same name
  return h === 'localhost' || h.endsWith('.localhost') || h === 'localhost.localdomain' || h === 'ip6-localhost' || h === 'ip6-loopback';
}

/**
 * The host of a parsed URL (WHATWG `URL.hostname`): why it is refused without asking DNS, or null when
 * it is a public literal or a name (a name is then resolved, and each of its addresses checked).
 */
export function refusedUrlHost(hostname: string): string | null {
  const h = hostname.replace(/^\[|\]$/g, '');
  if (isIP(h)) return refusedAddress(h);
  if (isLocalhostName(h)) return 'a name of this host (RFC 6761)';
  if (h === '') return 'no host';
  return null;
}

/** Every range refused, for the documentation and the tests. */
export const REFUSED_RANGES: readonly Range[] = [...V4, ...V6];
