import { BlockList, isIP } from 'node:net';

/**
 * Which addresses an outbound request to a user's URL may reach (RELIABILITY R5.1): only public
 * unicast ones. No loopback, private, link-local (incl. the cloud metadata service at
 * 169.254.169.254), CGNAT, multicast, reserved, documentation or benchmark ranges, and an IPv4
 * address wrapped in IPv6 (mapped, compatible, NAT64) is judged as the IPv4 address it reaches.
 *
 * Ranges are matched with node:net BlockList rather than hand-written bit maths: it parses both
 * families with the platform's inet_pton and compares prefixes itself, so there is no parser of
 * our own to get wrong. One list per family, so an IPv4 rule can never match an IPv6 address by
 * Node's own mapping rules (we unwrap explicitly instead, below, which also covers NAT64).
 */

/** IPv4 ranges that are not public (IANA special-purpose registry, RFC 6890 and successors). */
const IPV4_NOT_PUBLIC: ReadonlyArray<[string, number]> = [
  ['0.0.0.0', 8], // "this network"; 0.0.0.0 reaches the local host on Linux
  ['10.0.0.0', 8], // private, RFC 1918
  ['100.64.0.0', 10], // carrier-grade NAT, RFC 6598
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, incl. 169.254.169.254 (cloud metadata)
  ['172.16.0.0', 12], // private, RFC 1918
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // TEST-NET-1, documentation
  ['192.88.99.0', 24], // 6to4 relay anycast, deprecated
  ['192.168.0.0', 16], // private, RFC 1918
  ['198.18.0.0', 15], // benchmarking, RFC 2544
  ['198.51.100.0', 24], // TEST-NET-2, documentation
  ['203.0.113.0', 24], // TEST-NET-3, documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, incl. broadcast 255.255.255.255
];

/**
 * IPv6 is judged the other way round: only global unicast 2000::/3 can be public (that alone
 * refuses ::, ::1, fc00::/7 unique-local, fe80::/10 link-local, fec0::/10, ff00::/8 multicast,
 * 100::/64 discard), minus the special ranges carved out of it below.
 */
const IPV6_GLOBAL: [string, number] = ['2000::', 3];
const IPV6_NOT_PUBLIC: ReadonlyArray<[string, number]> = [
  ['2001::', 23], // IETF protocol assignments (Teredo, benchmarking 2001:2::/48, ORCHID)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: embeds an IPv4 address, deprecated
  ['3fff::', 20], // documentation, RFC 9637
];

/** Prefixes whose last 32 bits are an IPv4 address: mapped, compatible (deprecated), NAT64 (RFC 6052). */
const IPV4_IN_IPV6: ReadonlyArray<[string, number]> = [
  ['::ffff:0:0', 96],
  ['::', 96],
  ['64:ff9b::', 96],
];

function blockList(family: 'ipv4' | 'ipv6', ranges: ReadonlyArray<[string, number]>): BlockList {
  const list = new BlockList();
  for (const [network, prefix] of ranges) list.addSubnet(network, prefix, family);
  return list;
}

const ipv4NotPublic = blockList('ipv4', IPV4_NOT_PUBLIC);
const ipv6Global = blockList('ipv6', [IPV6_GLOBAL]);
const ipv6NotPublic = blockList('ipv6', IPV6_NOT_PUBLIC);
const ipv4InIpv6 = blockList('ipv6', IPV4_IN_IPV6);

/** True only for a public unicast address; anything unparsable (or with a zone id) is false. */
export function isPublicAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 4) return !ipv4NotPublic.check(ip, 'ipv4');
  if (family !== 6 || ip.includes('%')) return false; // fe80::1%eth0: scoped, never public
  if (ipv4InIpv6.check(ip, 'ipv6')) {
    const [, , , , , , high, low] = ipv6Groups(ip);
    return isPublicAddress(`${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`);
  }
  return ipv6Global.check(ip, 'ipv6') && !ipv6NotPublic.check(ip, 'ipv6');
}

/**
 * The same address written one way (IPv6 lower-case and compressed, dotted quads as hex), so an
 * address a socket reports can be compared with the one that was checked.
 */
export function canonicalAddress(ip: string): string {
  if (isIP(ip) !== 6 || ip.includes('%')) return ip; // a zone id is not URL syntax; such an address is never public anyway
  return new URL(`http://[${ip}]/`).hostname.slice(1, -1);
}

/**
 * The eight 16-bit groups of an IPv6 address. The WHATWG URL parser (RFC 4291 text forms) writes
 * it in canonical hex with at most one `::`, which leaves only the gap to fill in here.
 */
function ipv6Groups(ip: string): number[] {
  const [head, tail] = canonicalAddress(ip).split('::') as [string, string | undefined];
  const groups = (part: string | undefined) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const front = groups(head);
  const back = groups(tail);
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}
