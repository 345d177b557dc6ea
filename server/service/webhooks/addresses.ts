import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Where webhooks may not go unless the service allows private URLs: this host, the internal
 * network, link-local (cloud metadata at 169.254.169.254), and addresses that are not unicast.
 */
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 96], // unspecified, loopback and IPv4-compatible (::a.b.c.d, deprecated: never a public target)
  ['::ffff:0:0:0', 96], // IPv4-translated (SIIT)
  ['64:ff9b:1::', 48], // local-use IPv4/IPv6 translation
  ['2001::', 23], // IETF protocol assignments: Teredo (2001::/32), benchmarking, ORCHID
  ['2002::', 16], // 6to4: tunnels to an embedded IPv4 address, which may be internal
  ['3fff::', 20], // documentation
  ['5f00::', 16], // segment routing (SRv6) SIDs
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/** The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d) or NAT64 (64:ff9b::a.b.c.d) IPv6 address. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const m = /^(?:::ffff:|64:ff9b::)(?:0:)?([0-9a-f.:]+)$/.exec(lower);
  if (!m) return null;
  const tail = m[1]!;
  if (isIP(tail) === 4) return tail;
  const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(tail);
  if (!hex) return null;
  const hi = parseInt(hex[1]!, 16);
  const lo = parseInt(hex[2]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** True for loopback, private, link-local and other non-public addresses (IPv4 or IPv6). */
export function isPrivateAddress(address: string): boolean {
  const ip = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(ip);
  if (family === 4) return blocked.check(ip, 'ipv4');
  if (family === 6) {
    const v4 = embeddedIpv4(ip);
    if (v4) return blocked.check(v4, 'ipv4');
    return blocked.check(ip, 'ipv6');
  }
  return true; // not an address at all: never trusted
}

/** Host names that always mean this machine. */
export function isLocalHostName(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, '');
  return h === 'localhost' || h.endsWith('.localhost');
}

/** The URL's host without IPv6 brackets. */
export function urlHost(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

export class AddressNotAllowed extends Error {
  constructor(readonly host: string) {
    super('address not allowed');
  }
}

function resolveAll(hostname: string, timeoutMs: number): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('DNS lookup timed out')), timeoutMs);
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) => {
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(addresses);
    });
  });
}

/**
 * Create-time check of an endpoint URL: an address literal or `localhost` is judged at once; a
 * name is resolved and refused when any of its addresses is private. A name that does not resolve
 * (yet) is accepted: every delivery checks the address it actually connects to.
 * Answers the reason for refusal, or null.
 */
export async function privateTargetProblem(raw: string, opts: { allowPrivate: boolean; dnsTimeoutMs?: number }): Promise<string | null> {
  if (opts.allowPrivate) return null;
  const host = urlHost(new URL(raw));
  const refusal = 'must not point at a private, loopback or link-local address';
  if (isIP(host)) return isPrivateAddress(host) ? refusal : null;
  if (isLocalHostName(host)) return refusal;
  try {
    const addresses = await resolveAll(host, opts.dnsTimeoutMs ?? 2000);
    return addresses.some((a) => isPrivateAddress(a.address)) ? `${refusal} (${host} resolves to one)` : null;
  } catch {
    return null;
  }
}

/**
 * A `lookup` for http.request that refuses private addresses after DNS resolution, so a name
 * that resolved to a public address at creation cannot be re-pointed (DNS rebinding) at the
 * internal network: the address checked is the one connected to.
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses;
      if (!allowPrivate && (list.length === 0 || list.some((a) => isPrivateAddress(a.address)))) {
        return callback(Object.assign(new AddressNotAllowed(hostname), { code: 'EADDRNOTALLOWED' }), '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      const first = list[0]!;
      callback(null, first.address, first.family);
    });
  };
}
