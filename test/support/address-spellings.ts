/**
 * Issue 38, break 2: the spellings of an address on the server's own network that a webhook URL was
 * tried with (and more). Each is a URL a user could type; `why` is the family it belongs to. Every one
 * is refused at save (the alert settings route) and at send (the guarded agent).
 */
export const REFUSED_URL_SPELLINGS: Array<{ url: string; family: string }> = [
  // IPv4 loopback, every way the WHATWG URL parser reads it
  { url: 'http://127.0.0.1/hook', family: 'dotted' },
  { url: 'http://127.0.0.2:8080/hook', family: 'dotted' },
  { url: 'http://2130706433/hook', family: 'decimal' },
  { url: 'http://0177.0.0.1/hook', family: 'octal' },
  { url: 'http://0177.0000.0000.0001/hook', family: 'octal' },
  { url: 'http://0x7f.0x0.0x0.0x1/hook', family: 'hex' },
  { url: 'http://0x7f000001/hook', family: 'hex' },
  { url: 'http://0x7f.1/hook', family: 'hex + short' },
  { url: 'http://127.1/hook', family: 'short' },
  { url: 'http://127.0.1/hook', family: 'short' },
  { url: 'http://0/hook', family: 'short: 0.0.0.0' },
  { url: 'http://0.0.0.0:6379/', family: 'this network' },
  // private, link-local, metadata, CGNAT, broadcast, multicast
  { url: 'http://10.0.0.1/hook', family: 'private' },
  { url: 'http://172.16.0.1/hook', family: 'private' },
  { url: 'http://172.31.255.254/hook', family: 'private' },
  { url: 'http://192.168.1.1/hook', family: 'private' },
  { url: 'http://169.254.169.254/latest/meta-data/', family: 'metadata' },
  { url: 'http://0xa9fea9fe/latest/meta-data/', family: 'metadata, hex' },
  { url: 'http://100.64.0.1/hook', family: 'CGNAT' },
  { url: 'http://255.255.255.255/hook', family: 'broadcast' },
  { url: 'http://224.0.0.1/hook', family: 'multicast' },
  { url: 'http://198.18.0.1/hook', family: 'benchmarking' },
  // IPv6 loopback and unspecified
  { url: 'http://[::1]/hook', family: 'IPv6 loopback' },
  { url: 'http://[0:0:0:0:0:0:0:1]/hook', family: 'IPv6 loopback, long' },
  { url: 'http://[::]/hook', family: 'IPv6 unspecified' },
  // IPv4-mapped, both spellings
  { url: 'http://[::ffff:127.0.0.1]:5432/', family: 'mapped, dotted' },
  { url: 'http://[::ffff:7f00:1]:5432/', family: 'mapped, hex' },
  { url: 'http://[0:0:0:0:0:ffff:7f00:1]/', family: 'mapped, long' },
  { url: 'http://[::ffff:0.0.0.0]/', family: 'mapped this network' },
  { url: 'http://[::ffff:10.0.0.1]/', family: 'mapped private' },
  { url: 'http://[::ffff:a9fe:a9fe]/', family: 'mapped metadata' },
  // IPv4-compatible
  { url: 'http://[::127.0.0.1]/', family: 'compatible, dotted' },
  { url: 'http://[::7f00:1]/', family: 'compatible, hex' },
  // IPv4-translated (RFC 2765), outside global unicast, documentation
  { url: 'http://[::ffff:0:7f00:1]/', family: 'translated' },
  { url: 'http://[4000::1]/', family: 'outside 2000::/3' },
  { url: 'http://[3fff::1]/', family: 'documentation (RFC 9637)' },
  // NAT64, 6to4, Teredo
  { url: 'http://[64:ff9b::127.0.0.1]/', family: 'NAT64' },
  { url: 'http://[64:ff9b::7f00:1]/', family: 'NAT64' },
  { url: 'http://[64:ff9b:1::a00:1]/', family: 'NAT64 local-use' },
  { url: 'http://[2002:7f00:1::1]/', family: '6to4' },
  { url: 'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/', family: 'Teredo' },
  // unique local, link-local, site-local, multicast
  { url: 'http://[fc00::1]/', family: 'fc00::/7' },
  { url: 'http://[fd12:3456:789a::1]/', family: 'fc00::/7' },
  { url: 'http://[fe80::1]/', family: 'fe80::/10' },
  { url: 'http://[febf::1]/', family: 'fe80::/10' },
  { url: 'http://[fec0::1]/', family: 'fec0::/10' },
  { url: 'http://[ff02::1]/', family: 'multicast' },
  // names that mean this host
  { url: 'http://localhost/hook', family: 'name: localhost' },
  { url: 'http://LOCALHOST:3000/hook', family: 'name: localhost' },
  { url: 'http://localhost./hook', family: 'name: localhost, trailing dot' },
  { url: 'http://api.localhost/hook', family: 'name under localhost' },
  { url: 'http://ip6-localhost/hook', family: 'name: ip6-localhost' },
];

/** Names that DNS (here, a resolver the test gives) answers with a loopback or private address. */
export const NAMES_RESOLVING_INSIDE: Array<{ name: string; addresses: string[] }> = [
  { name: 'rebind.example.com', addresses: ['127.0.0.1'] },
  { name: 'mapped.example.com', addresses: ['::ffff:127.0.0.1'] },
  { name: 'mixed.example.com', addresses: ['93.184.215.14', '10.0.0.7'] },
  { name: 'v6.example.com', addresses: ['::1'] },
  { name: 'meta.example.com', addresses: ['169.254.169.254'] },
];
