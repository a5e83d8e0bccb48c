// The one outbound-request guard (ADR 0247): a request the service makes for someone else (a push endpoint,
// and the next such case) goes only to a public address, checked after DNS and pinned for the connection.
import { lookup as dnsLookup } from 'node:dns';
import { isIP } from 'node:net';
import { OutboundRefusedError } from './errors.js';

export { OutboundRefusedError } from './errors.js';

/** What an address is, as far as an outbound request is concerned. */
export type AddressKind =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'unspecified'
  | 'multicast'
  | 'reserved'
  | 'invalid';

/** One address a name resolves to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has (the default uses the system resolver, `dns.lookup`). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface OutboundGuardOptions {
  /** Default: the system resolver. Tests pass a stub that answers what they need (and never connect). */
  resolve?: Resolver;
  /**
   * Allows loopback addresses (127.0.0.0/8, ::1, localhost) and plain `http:` to them: only for tests and
   * local development, behind a setting the operator sets on purpose. Default false.
   */
  allowLoopback?: boolean;
}

/** An address that passed the guard: connect to exactly this one (see {@link pinnedLookup}). */
export interface OutboundTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

/** Checks an outbound URL; one instance per use (push, webhooks...), each with its own options. */
export interface OutboundGuard {
  /** Resolves `url`'s host and answers the address to connect to; throws {@link OutboundRefusedError}. */
  check(url: string | URL): Promise<OutboundTarget>;
}

type Range = [base: bigint, bits: number, kind: Exclude<AddressKind, 'public' | 'invalid'>];

function v4ToBigInt(ip: string): bigint {
  return ip.split('.').reduce((n, part) => (n << 8n) | BigInt(Number(part)), 0n);
}

function v6ToBigInt(ip: string): bigint {
  let text = ip;
  // A dotted tail (::ffff:127.0.0.1) becomes two groups.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v = v4ToBigInt(dotted[1]!);
    text = `${text.slice(0, dotted.index)}${(v >> 16n).toString(16)}:${(v & 0xffffn).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const left = head ? head.split(':') : [];
  const right = tail !== undefined && tail !== '' ? tail.split(':') : [];
  const groups =
    tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return groups.reduce((n, g) => (n << 16n) | BigInt(Number.parseInt(g, 16)), 0n);
}

const V4: Range[] = [
  [v4ToBigInt('0.0.0.0'), 8, 'unspecified'],
  [v4ToBigInt('10.0.0.0'), 8, 'private'],
  [v4ToBigInt('100.64.0.0'), 10, 'private'], // carrier-grade NAT
  [v4ToBigInt('127.0.0.0'), 8, 'loopback'],
  [v4ToBigInt('169.254.0.0'), 16, 'link-local'], // cloud metadata lives here
  [v4ToBigInt('172.16.0.0'), 12, 'private'],
  [v4ToBigInt('192.0.0.0'), 24, 'reserved'],
  [v4ToBigInt('192.0.2.0'), 24, 'reserved'],
  [v4ToBigInt('192.88.99.0'), 24, 'reserved'],
  [v4ToBigInt('192.168.0.0'), 16, 'private'],
  [v4ToBigInt('198.18.0.0'), 15, 'reserved'],
  [v4ToBigInt('198.51.100.0'), 24, 'reserved'],
  [v4ToBigInt('203.0.113.0'), 24, 'reserved'],
  [v4ToBigInt('224.0.0.0'), 4, 'multicast'],
  [v4ToBigInt('240.0.0.0'), 4, 'reserved'], // and 255.255.255.255
];

const V6: Range[] = [
  [0n, 128, 'unspecified'],
  [1n, 128, 'loopback'],
  [v6ToBigInt('100::'), 64, 'reserved'], // discard-only
  [v6ToBigInt('2001:db8::'), 32, 'reserved'], // documentation
  [v6ToBigInt('fc00::'), 7, 'private'], // unique local
  [v6ToBigInt('fe80::'), 10, 'link-local'],
  [v6ToBigInt('fec0::'), 10, 'private'], // old site-local
  [v6ToBigInt('ff00::'), 8, 'multicast'],
];

function inRange(value: bigint, width: number, [base, bits]: Range): boolean {
  const shift = BigInt(width - bits);
  return value >> shift === base >> shift;
}

function classifyV4(value: bigint): AddressKind {
  return V4.find((r) => inRange(value, 32, r))?.[2] ?? 'public';
}

/** IPv6 forms that carry an IPv4 address: mapped, compatible, NAT64 (64:ff9b::/96), 6to4 (2002::/16). */
function embeddedV4(value: bigint): bigint | null {
  const low32 = value & 0xffffffffn;
  if (value >> 32n === 0xffffn) return low32; // ::ffff:a.b.c.d
  if (value >> 32n === 0n && value > 1n) return low32; // ::a.b.c.d (deprecated, still routed by some stacks)
  if (value >> 32n === v6ToBigInt('64:ff9b::') >> 32n) return low32;
  if (value >> 112n === 0x2002n) return (value >> 80n) & 0xffffffffn;
  return null;
}

/**
 * What an IP address is: `public` only when it is none of loopback, private (RFC 1918, CGNAT, unique local),
 * link-local (169.254/16, fe80::/10: the cloud metadata service), unspecified, multicast or reserved. IPv6
 * forms that embed an IPv4 address (mapped, compatible, NAT64, 6to4) are judged by that address.
 *
 * @example
 * ```ts
 * classifyAddress('::ffff:127.0.0.1'); // 'loopback'
 * classifyAddress('169.254.169.254'); // 'link-local'
 * classifyAddress('93.184.215.14'); // 'public'
 * ```
 */
export function classifyAddress(ip: string): AddressKind {
  const bare = ip.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return classifyV4(v4ToBigInt(bare));
  if (family !== 6) return 'invalid';
  const value = v6ToBigInt(bare.toLowerCase());
  const v4 = embeddedV4(value);
  if (v4 !== null) return classifyV4(v4);
  return V6.find((r) => inRange(value, 128, r))?.[2] ?? 'public';
}

/** The system resolver: every address of the name, in the resolver's order. */
export const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) => {
      if (err) reject(err);
      else resolve(addresses.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 })));
    });
  });

const refuse = (url: string, message: string) => new OutboundRefusedError(message, url);

/**
 * Makes the guard: `https:` only (plain `http:` only to loopback, and only with `allowLoopback`), no user
 * name or password in the URL, and every address the host resolves to must be public (one private answer
 * among public ones refuses the whole name: a rebinding name cannot slip one in). Check at send time, then
 * connect to the answered address with {@link pinnedLookup}, so a second resolution cannot change it.
 *
 * @example
 * ```ts
 * const guard = createOutboundGuard();
 * const target = await guard.check('https://push.example/abc'); // throws OutboundRefusedError for 10.0.0.1
 * https.request(target.url, { lookup: pinnedLookup(target) });
 * ```
 */
export function createOutboundGuard(options: OutboundGuardOptions = {}): OutboundGuard {
  const resolve = options.resolve ?? systemResolver;
  const allowLoopback = options.allowLoopback === true;
  const allowed = (kind: AddressKind) => kind === 'public' || (allowLoopback && kind === 'loopback');
  return {
    async check(input) {
      let url: URL;
      try {
        url = typeof input === 'string' ? new URL(input) : new URL(input.href);
      } catch {
        throw refuse(String(input), 'the address is not a URL');
      }
      const shown = `${url.protocol}//${url.host}`;
      if (url.username !== '' || url.password !== '') {
        throw refuse(shown, 'a URL with a user name or password is not used for outbound requests');
      }
      if (url.protocol !== 'https:' && !(allowLoopback && url.protocol === 'http:')) {
        throw refuse(shown, `only https URLs are used for outbound requests, not ${url.protocol}`);
      }
      const host = url.hostname.replace(/^\[|\]$/g, '');
      let addresses: ResolvedAddress[];
      if (isIP(host)) addresses = [{ address: host, family: isIP(host) === 6 ? 6 : 4 }];
      else if (/^localhost\.?$|\.localhost\.?$/i.test(host))
        addresses = [{ address: '127.0.0.1', family: 4 }];
      else {
        try {
          addresses = await resolve(host);
        } catch (err) {
          throw refuse(shown, `the host name does not resolve (${(err as Error).message})`);
        }
      }
      if (addresses.length === 0) throw refuse(shown, 'the host name has no address');
      for (const a of addresses) {
        const kind = classifyAddress(a.address);
        if (!allowed(kind)) {
          throw refuse(shown, `${host} resolves to ${a.address}, a ${kind} address: only public addresses`);
        }
      }
      const loopback = addresses.every((a) => classifyAddress(a.address) === 'loopback');
      if (url.protocol === 'http:' && !loopback) {
        throw refuse(shown, 'plain http is allowed only to loopback (the test setting); use https');
      }
      const first = addresses[0]!;
      return { url, address: first.address, family: first.family };
    },
  };
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | { address: string; family: number }[],
  family?: number,
) => void;

/**
 * A `lookup` for node:http(s) and node:net that answers only the checked address: the connection goes where
 * the guard looked, whatever the name resolves to a moment later (DNS rebinding).
 */
export function pinnedLookup(
  target: Pick<OutboundTarget, 'address' | 'family'>,
): (hostname: string, options: { all?: boolean }, callback: LookupCallback) => void {
  return (_hostname, opts, callback) => {
    if (opts?.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
}
