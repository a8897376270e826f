import { describe, expect, it } from 'vitest';
import { parseTrustedProxies } from './trusted-proxies.ts';

describe('parseTrustedProxies (TRUSTED_PROXIES)', () => {
  it('trusts nobody when unset, blank or 0', () => {
    for (const raw of [undefined, '', '  ', '0']) expect(parseTrustedProxies(raw)).toEqual({ value: false });
  });

  it('reads a hop count', () => {
    expect(parseTrustedProxies('1')).toEqual({ value: 1 });
    expect(parseTrustedProxies(' 2 ')).toEqual({ value: 2 });
  });

  it('reads a list of addresses, ranges and proxy-addr names', () => {
    expect(parseTrustedProxies('10.0.0.0/8, 127.0.0.1').value).toEqual(['10.0.0.0/8', '127.0.0.1']);
    expect(parseTrustedProxies('fd00::/8,::1,loopback,uniquelocal,192.168.0.0/255.255.0.0').value).toEqual(['fd00::/8', '::1', 'loopback', 'uniquelocal', '192.168.0.0/255.255.0.0']);
  });

  it.each([
    ['trust everyone', 'true'],
    ['a wildcard', '*'],
    ['a host name', 'proxy.internal'],
    ['shorthand IPv4', '10.1'],
    ['a prefix too long', '10.0.0.0/33'],
    ['an IPv6 prefix too long', '::1/129'],
    ['a broken netmask', '10.0.0.0/255.0.255.0'],
    ['an empty entry', '10.0.0.1,,127.0.0.1'],
    ['too many hops', '11'],
    ['a negative count', '-1'],
  ])('refuses %s with a problem naming the setting', (_label, raw) => {
    const parsed = parseTrustedProxies(raw);
    expect(parsed.value).toBe(false);
    expect(parsed.problem).toMatch(/^TRUSTED_PROXIES /);
  });

  it('names every bad entry of a list', () => {
    expect(parseTrustedProxies('10.0.0.1,bogus,1.2.3.4/40').problem).toContain('not valid: "bogus", "1.2.3.4/40"');
  });
});
