import { describe, expect, it } from 'vitest';
import { canonicalAddress, isPublicAddress } from './outbound-address.ts';

// RELIABILITY R5.1: every range an outbound request to a user's URL must not reach.
describe('isPublicAddress', () => {
  it.each([
    ['0.0.0.0', 'this network (reaches the local host)'],
    ['0.255.255.255', 'this network, top'],
    ['10.0.0.1', 'private 10/8'],
    ['10.255.255.255', 'private 10/8, top'],
    ['100.64.0.1', 'CGNAT 100.64/10'],
    ['100.127.255.254', 'CGNAT 100.64/10, top'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback, top'],
    ['169.254.169.254', 'cloud metadata (link-local)'],
    ['169.254.0.1', 'link-local'],
    ['172.16.0.1', 'private 172.16/12'],
    ['172.31.255.255', 'private 172.16/12, top'],
    ['192.0.0.8', 'IETF protocol assignments 192.0.0/24'],
    ['192.0.2.1', 'TEST-NET-1'],
    ['192.88.99.1', '6to4 relay anycast'],
    ['192.168.1.1', 'private 192.168/16'],
    ['198.18.0.1', 'benchmarking 198.18/15'],
    ['198.19.255.255', 'benchmarking 198.18/15, top'],
    ['198.51.100.7', 'TEST-NET-2'],
    ['203.0.113.9', 'TEST-NET-3'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast (SSDP)'],
    ['240.0.0.1', 'reserved 240/4'],
    ['255.255.255.255', 'broadcast'],
    ['::', 'IPv6 unspecified'],
    ['::1', 'IPv6 loopback'],
    ['fc00::1', 'unique-local fc00::/7'],
    ['fd12:3456:789a::1', 'unique-local fd00::/8'],
    ['fe80::1', 'link-local fe80::/10'],
    ['febf:ffff::1', 'link-local fe80::/10, top'],
    ['fe80::1%eth0', 'link-local with a zone id'],
    ['fec0::1', 'site-local (deprecated)'],
    ['ff02::1', 'IPv6 multicast'],
    ['ff0e::1', 'IPv6 global multicast'],
    ['100::1', 'discard-only 100::/64'],
    ['2001:db8::1', 'documentation 2001:db8::/32'],
    ['3fff::1', 'documentation 3fff::/20'],
    ['2001::1', 'Teredo, in IETF 2001::/23'],
    ['2002:7f00:1::1', '6to4 embedding 127.0.0.1'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback in hex'],
    ['::FFFF:169.254.169.254', 'IPv4-mapped metadata, upper case'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['0:0:0:0:0:ffff:c0a8:0101', 'IPv4-mapped private, long form'],
    ['::127.0.0.1', 'IPv4-compatible loopback'],
    ['::10.0.0.1', 'IPv4-compatible private'],
    ['64:ff9b::127.0.0.1', 'NAT64 of loopback'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 of metadata, hex'],
    ['64:ff9b:1::1', 'local-use NAT64 64:ff9b:1::/48'],
    ['not an ip', 'not an address'],
    ['', 'empty'],
    ['127.1', 'shorthand IPv4 (not an address here)'],
  ])('refuses %s (%s)', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each([
    ['1.1.1.1', 'public IPv4'],
    ['8.8.8.8', 'public IPv4'],
    ['93.184.215.14', 'public IPv4'],
    ['100.63.255.255', 'just below CGNAT'],
    ['100.128.0.0', 'just above CGNAT'],
    ['172.15.255.255', 'just below 172.16/12'],
    ['172.32.0.0', 'just above 172.16/12'],
    ['169.253.255.255', 'just below link-local'],
    ['198.17.255.255', 'just below benchmarking'],
    ['198.20.0.0', 'just above benchmarking'],
    ['223.255.255.255', 'just below multicast'],
    ['2606:4700:4700::1111', 'public IPv6'],
    ['2a00:1450:4001:80b::200e', 'public IPv6'],
    ['2001:200::1', 'just above 2001::/23'],
    ['::ffff:1.1.1.1', 'IPv4-mapped public'],
    ['64:ff9b::8.8.8.8', 'NAT64 of a public address'],
  ])('allows %s (%s)', (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });
});

describe('canonicalAddress', () => {
  it('writes IPv6 one way and leaves IPv4 alone', () => {
    expect(canonicalAddress('::FFFF:127.0.0.1')).toBe('::ffff:7f00:1');
    expect(canonicalAddress('0:0:0:0:0:0:0:1')).toBe('::1');
    expect(canonicalAddress('127.0.0.1')).toBe('127.0.0.1');
  });
});
