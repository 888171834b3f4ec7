/**
 * Addresses: loopback names, one canonical form of an IP, the client behind trusted proxies,
 * and the key an address is limited by. Pure.
 */
import { isIP } from 'node:net';

/** 127.0.0.0/8, ::1 and localhost (a URL's hostname or a HOST value; IPv6 may be bracketed). */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}
/**
 * An IP address in one form, so a configured address and a socket's compare equal: IPv4 as
 * is (also when IPv4-mapped, `::ffff:10.0.0.5`), IPv6 compressed and lower case. Null when
 * `text` is not an IP address.
 */
export function canonicalIp(text: string): string | null {
  const t = text.trim();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(t);
  if (mapped !== null) return isIP(mapped[1]!) === 4 ? mapped[1]! : null;
  const kind = isIP(t);
  if (kind === 4) return t;
  if (kind !== 6 || t.includes('%')) return null;
  const v6 = new URL(`http://[${t}]/`).hostname.slice(1, -1);
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(v6);
  if (hex === null) return v6;
  const [hi, lo] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}
/**
 * The client's address: the peer's, unless the peer is a trusted proxy; then the right-most
 * address of `X-Forwarded-For` that is not a trusted proxy (each proxy appends the address it
 * got the request from, so what is left of that was written by whoever sent it and may be
 * forged). An entry that is not an address stops the walk at the proxy that wrote it.
 */
export function forwardedClient(
  peer: string,
  forwardedFor: string | undefined,
  trusted: ReadonlySet<string>,
): string {
  let client = canonicalIp(peer) ?? peer;
  if (!trusted.has(client) || forwardedFor === undefined) return client;
  const hops = forwardedFor.split(',');
  for (let i = hops.length - 1; i >= 0; i--) {
    const ip = canonicalIp(stripPort(hops[i]!.trim()));
    if (ip === null) return client;
    client = ip;
    if (!trusted.has(ip)) return ip;
  }
  return client;
}

/** `[2001:db8::1]:443` and `10.0.0.5:443` without their port. */
function stripPort(hop: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(hop);
  if (bracketed !== null) return bracketed[1]!;
  const v4 = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(hop);
  return v4 === null ? hop : v4[1]!;
}

/** The key an address is limited by: IPv4 as is, IPv6 by its /64 (one host holds a /64). */
export function addressKey(ip: string): string {
  if (!ip.includes(':')) return ip;
  const [head = '', tail] = ip.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups =
    tail === undefined
      ? left
      : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return `${groups.slice(0, 4).join(':')}::/64`;
}
