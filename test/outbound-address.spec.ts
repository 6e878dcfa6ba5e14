import { REFUSED_URL_SPELLINGS } from './support/address-spellings';
import { embeddedIPv4, refusedAddress, refusedUrlHost } from '@gridrocket/shared/net';

describe('outbound address rules (issue 38, break 2)', () => {
  it.each(REFUSED_URL_SPELLINGS)('refuses $url ($family)', ({ url }) => {
    expect(refusedUrlHost(new URL(url).hostname)).not.toBeNull();
  });

  it('holds at least the 42 spellings of the attack', () => {
    expect(REFUSED_URL_SPELLINGS.length).toBeGreaterThanOrEqual(42);
  });

  it.each(['http://93.184.215.14/hook', 'https://hooks.example.com/x', 'http://[2606:4700:4700::1111]/', 'http://[::ffff:8.8.8.8]/', 'http://8.8.8.8:8080/'])('lets %s through (a public address or a name, resolved later)', (url) => {
    expect(refusedUrlHost(new URL(url).hostname)).toBeNull();
  });

  it('reads the IPv4 address inside mapped and compatible IPv6 addresses', () => {
    expect(embeddedIPv4('::ffff:7f00:1')).toBe('127.0.0.1');
    expect(embeddedIPv4('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(embeddedIPv4('0:0:0:0:0:ffff:a9fe:a9fe')).toBe('169.254.169.254');
    expect(embeddedIPv4('::7f00:1')).toBe('127.0.0.1');
    expect(embeddedIPv4('::1')).toBeNull();
    expect(embeddedIPv4('2606:4700::1111')).toBeNull();
  });

  it('names the range it refuses, and refuses what is not an address', () => {
    expect(refusedAddress('::ffff:7f00:1')).toMatch(/127\.0\.0\.1: loopback/);
    expect(refusedAddress('fec0::1')).toMatch(/site-local/);
    expect(refusedAddress('64:ff9b::7f00:1')).toMatch(/NAT64/);
    expect(refusedAddress('fe80::1%eth0')).toMatch(/link-local/);
    expect(refusedAddress('example.com')).toBe('not an IP address');
    expect(refusedAddress('93.184.215.14')).toBeNull();
  });
});
