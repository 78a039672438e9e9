import dns, { type LookupAddress, type LookupAllOptions } from 'node:dns';
import { isIP, isIPv4, isIPv6, type LookupFunction } from 'node:net';

/**
 * Where a webhook may point. A tenant types the URL and this service makes the request, so
 * without these rules a webhook could reach what only the service's network reaches: the
 * loopback, the private networks, the cloud's metadata address (169.254.169.254). The URL is
 * checked when it is saved (checkWebhookUrl), and every delivery resolves the host again through
 * guardedLookup, so a name that later resolves elsewhere (DNS rebinding) is refused too.
 *
 * `allowPrivate` lifts the address rules, for development and for tests against a local server.
 */

/** The longest URL accepted: an endpoint needs no more, and what is stored stays bounded. */
const MAX_URL_LENGTH = 2048;

/** The code of guardedLookup's refusal, for the sender to tell it from a network error. */
export const WEBHOOK_ADDRESS_NOT_ALLOWED = 'WEBHOOK_ADDRESS_NOT_ALLOWED';

/** Why a webhook URL was refused; `reason` is shown to the tenant who typed it. */
export class WebhookUrlError extends Error {
  constructor(readonly reason: string) {
    super(`webhook URL refused: ${reason}`);
    this.name = 'WebhookUrlError';
  }
}

export interface WebhookUrlRules {
  /** Only https in production: the body and its signature travel in clear over http. */
  production: boolean;
  /** Whether private, loopback and other reserved addresses are allowed. */
  allowPrivate: boolean;
}

/** IPv4 ranges no webhook may reach, as [the network's four octets, prefix length]. */
const DISALLOWED_IPV4: readonly (readonly [number, number, number, number, number])[] = [
  [0, 0, 0, 0, 8], // "this network"
  [10, 0, 0, 0, 8], // private
  [100, 64, 0, 0, 10], // carrier-grade NAT
  [127, 0, 0, 0, 8], // loopback
  [169, 254, 0, 0, 16], // link-local, with the clouds' metadata service
  [172, 16, 0, 0, 12], // private
  [192, 0, 0, 0, 24], // IETF protocol assignments
  [192, 168, 0, 0, 16], // private
  [198, 18, 0, 0, 15], // benchmarking
  [224, 0, 0, 0, 4], // multicast
  [240, 0, 0, 0, 4], // reserved, with the broadcast 255.255.255.255
];

function ipv4Number(ip: string): number {
  return ip.split('.').reduce((value, octet) => value * 256 + Number(octet), 0);
}

function ipv4Disallowed(value: number): boolean {
  return DISALLOWED_IPV4.some(([a, b, c, d, prefix]) => {
    const size = 2 ** (32 - prefix);
    const first = ((a * 256 + b) * 256 + c) * 256 + d;
    return value >= first && value < first + size;
  });
}

/** The eight 16-bit groups of a valid IPv6 text (a zone `%eth0` is dropped). */
function ipv6Groups(ip: string): number[] {
  let text = ip.split('%')[0];
  // a dotted IPv4 tail (::ffff:10.0.0.1) becomes its two groups
  const tail = text.slice(text.lastIndexOf(':') + 1);
  if (tail.includes('.')) {
    const value = ipv4Number(tail);
    const high = Math.floor(value / 65536);
    const low = value % 65536;
    text = `${text.slice(0, text.length - tail.length)}${high.toString(16)}:${low.toString(16)}`;
  }
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const [head, rest] = text.split('::');
  if (rest === undefined) return parse(head);
  const left = parse(head);
  const right = parse(rest);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

function ipv6Disallowed(ip: string): boolean {
  const g = ipv6Groups(ip);
  const embeddedIpv4 = g[6] * 65536 + g[7];
  const zeroUpTo = (n: number) => g.slice(0, n).every((group) => group === 0);
  // :: and ::1, then IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d): as their IPv4
  if (zeroUpTo(7) && g[7] <= 1) return true;
  if (zeroUpTo(5) && g[5] === 0xffff) return ipv4Disallowed(embeddedIpv4);
  if (zeroUpTo(6)) return ipv4Disallowed(embeddedIpv4);
  // NAT64 (64:ff9b::/96) and 6to4 (2002::/16) reach the IPv4 address they carry
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((group) => group === 0)) {
    return ipv4Disallowed(embeddedIpv4);
  }
  if (g[0] === 0x2002) return ipv4Disallowed(g[1] * 65536 + g[2]);
  if ((g[0] & 0xfe00) === 0xfc00) return true; // unique local fc00::/7
  if ((g[0] & 0xffc0) === 0xfe80) return true; // link-local fe80::/10
  if ((g[0] & 0xffc0) === 0xfec0) return true; // site-local fec0::/10 (deprecated, still private)
  if ((g[0] & 0xff00) === 0xff00) return true; // multicast ff00::/8
  return false;
}

/**
 * Whether a webhook may not reach `ip`: loopback, private, link-local, carrier-grade NAT,
 * multicast and reserved ranges, in IPv4 and IPv6. An IPv6 address that carries an IPv4 one
 * (mapped ::ffff:a.b.c.d or ::ffff:7f00:1, compatible ::a.b.c.d, NAT64, 6to4) is judged by that
 * IPv4 address. Text that is not an IP address is disallowed.
 */
export function isDisallowedAddress(ip: string): boolean {
  if (isIPv4(ip)) return ipv4Disallowed(ipv4Number(ip));
  if (isIPv6(ip)) return ipv6Disallowed(ip);
  return true;
}

function privateAddressReason(address: string, literal: boolean): string {
  return literal
    ? `the host is a private address (${address})`
    : `the host resolves to a private address (${address})`;
}

/** The host of a parsed URL as an address or name: without the brackets of an IPv6 literal. */
export function urlHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * The URL a webhook may be sent to, or a WebhookUrlError saying why not: an absolute http(s) URL
 * (https only in production) of at most 2048 characters, without a user name or password, whose
 * host resolves, and, unless rules.allowPrivate, only to addresses isDisallowedAddress allows
 * (every address the name has: any one of them may be the one a delivery connects to). An IP
 * address written in the URL is judged as it is, without DNS; the URL parser has already turned
 * forms such as http://2130706433/ or http://0x7f.1/ into 127.0.0.1.
 */
export async function checkWebhookUrl(raw: string, rules: WebhookUrlRules): Promise<URL> {
  if (raw.length > MAX_URL_LENGTH) {
    throw new WebhookUrlError(`the URL is longer than ${MAX_URL_LENGTH} characters`);
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookUrlError('not a valid absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new WebhookUrlError('the scheme must be http or https');
  }
  if (url.protocol === 'http:' && rules.production) {
    throw new WebhookUrlError('the scheme must be https');
  }
  if (url.username !== '' || url.password !== '') {
    throw new WebhookUrlError('the URL must not carry a user name or password');
  }
  const host = urlHost(url);
  if (isIP(host) !== 0) {
    if (!rules.allowPrivate && isDisallowedAddress(host)) {
      throw new WebhookUrlError(privateAddressReason(host, true));
    }
    return url;
  }
  let addresses: LookupAddress[];
  try {
    addresses = await dns.promises.lookup(host, { all: true, verbatim: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'no address';
    throw new WebhookUrlError(`the host ${host} does not resolve (${code})`);
  }
  if (addresses.length === 0) {
    throw new WebhookUrlError(`the host ${host} does not resolve (no address)`);
  }
  const refused = rules.allowPrivate
    ? undefined
    : addresses.find(({ address }) => isDisallowedAddress(address));
  if (refused) throw new WebhookUrlError(privateAddressReason(refused.address, false));
  return url;
}

function addressNotAllowed(address: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(privateAddressReason(address, false));
  error.code = WEBHOOK_ADDRESS_NOT_ALLOWED;
  return error;
}

/**
 * A `lookup` for http.request and net.connect that resolves like dns.lookup and, unless
 * `allowPrivate`, fails with code WEBHOOK_ADDRESS_NOT_ALLOWED when the name has a disallowed
 * address: the delivery then connects only to addresses checked at that moment, whatever the
 * name resolved to when the URL was saved. It answers both forms Node asks for: one address, or
 * all of them (`all: true`, what net asks when it tries IPv4 and IPv6 in turn).
 *
 * Node does not call a lookup for a host that is already an IP address: whoever connects checks
 * those with isDisallowedAddress.
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    const wanted: LookupAllOptions = { ...options, all: true };
    dns.lookup(hostname, wanted, (error, addresses) => {
      if (error) return callback(error, []);
      const refused = allowPrivate
        ? undefined
        : addresses.find(({ address }) => isDisallowedAddress(address));
      if (refused) return callback(addressNotAllowed(refused.address), []);
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) {
        const notFound: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
        notFound.code = 'ENOTFOUND';
        return callback(notFound, []);
      }
      callback(null, first.address, first.family);
    });
  };
}
