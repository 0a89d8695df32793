/**
 * SSRF protection for webhook URLs. A webhook endpoint is chosen by the integrator, so without
 * this check Corridor could be made to POST into its own network: the database, an admin port,
 * or the cloud metadata service that hands out credentials.
 *
 * The check resolves the host and refuses if ANY address is forbidden (an attacker controls
 * their DNS and can mix one public and one private answer). The caller must then connect to one
 * of the returned `addresses` (http-delivery's `pinnedAddresses`), never resolve again: a second
 * lookup could answer differently (DNS rebinding).
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

export type Environment = 'SANDBOX' | 'PRODUCTION';

export interface UrlGuardOptions {
  environment: Environment;
  /**
   * Operator switch (WEBHOOK_ALLOW_PRIVATE_ADDRESSES): loopback and private networks. Allowed by
   * default only when the server itself listens on loopback (the laptop case), see config.ts.
   */
  allowPrivate: boolean;
  /** Injected in tests; defaults to the system resolver (what the HTTP client would use). */
  resolve?: (host: string) => Promise<string[]>;
}

export type UrlCheck = { ok: true; url: URL; addresses: string[] } | { ok: false; reason: string };

const RESOLVE_TIMEOUT_MS = 5_000;

// Names stay stable: they appear in refusal reasons, and 'loopback' / 'cloud-metadata' drive rules below.
type Range = [name: string, network: string, prefix: number];

const IPV4_RANGES: Range[] = [
  // Specific before general: the first match names the range.
  ['cloud-metadata', '169.254.169.254', 32], // AWS, GCP, Azure, OpenStack...
  ['cloud-metadata', '169.254.170.2', 32], // AWS ECS task credentials
  ['cloud-metadata', '100.100.100.200', 32], // Alibaba Cloud
  ['unspecified', '0.0.0.0', 8], // "this network"; 0.0.0.0 reaches the local host on Linux
  ['private', '10.0.0.0', 8],
  ['cgnat', '100.64.0.0', 10],
  ['loopback', '127.0.0.0', 8],
  ['link-local', '169.254.0.0', 16],
  ['private', '172.16.0.0', 12],
  ['reserved', '192.0.0.0', 24], // IETF protocol assignments
  ['documentation', '192.0.2.0', 24],
  ['reserved', '192.88.99.0', 24], // deprecated 6to4 relay anycast
  ['private', '192.168.0.0', 16],
  ['benchmarking', '198.18.0.0', 15],
  ['documentation', '198.51.100.0', 24],
  ['documentation', '203.0.113.0', 24],
  ['multicast', '224.0.0.0', 4],
  ['reserved', '240.0.0.0', 4], // includes the 255.255.255.255 broadcast
];

const IPV6_RANGES: Range[] = [
  ['cloud-metadata', 'fd00:ec2::254', 128], // AWS IMDS over IPv6
  ['unspecified', '::', 128],
  ['loopback', '::1', 128],
  ['reserved', '::', 96], // deprecated IPv4-compatible (::a.b.c.d)
  ['reserved', '64:ff9b:1::', 48], // local-use NAT64
  ['reserved', '100::', 64], // discard-only
  ['reserved', '2001::', 23], // IETF protocol assignments, incl. Teredo
  ['documentation', '2001:db8::', 32],
  ['reserved', '2002::', 16], // 6to4 (deprecated; embeds an arbitrary IPv4 address)
  ['documentation', '3fff::', 20],
  ['private', 'fc00::', 7], // unique local
  ['link-local', 'fe80::', 10],
  ['private', 'fec0::', 10], // deprecated site-local
  ['multicast', 'ff00::', 8],
];

// One BlockList per range so a match can be named. Families are kept apart on purpose: a
// BlockList matches IPv4 rules against IPv4-mapped IPv6 and vice versa, which would blur names.
const compile = (ranges: Range[], family: 'ipv4' | 'ipv6') =>
  ranges.map(([name, network, prefix]) => {
    const list = new BlockList();
    list.addSubnet(network, prefix, family);
    return { name, list };
  });
const V4 = compile(IPV4_RANGES, 'ipv4');
const V6 = compile(IPV6_RANGES, 'ipv6');
const GLOBAL_UNICAST_V6 = new BlockList();
GLOBAL_UNICAST_V6.addSubnet('2000::', 3, 'ipv6'); // everything else in IPv6 is unassigned or special

// Hostnames that reach a metadata service without an IP in the URL (the resolver may answer
// with a link-local address, but some setups answer differently, so the name alone is refused).
const METADATA_HOSTS = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.azure.internal',
]);

/**
 * The name of the forbidden range that `ip` falls in, or null for a public address.
 * Anything that is not an IP address at all is forbidden ('invalid').
 */
export function isForbiddenAddress(ip: string): string | null {
  const address = ip.replace(/%.*$/, ''); // drop an IPv6 zone id (fe80::1%eth0)
  const family = isIP(address);
  if (family === 4) return V4.find((r) => r.list.check(address, 'ipv4'))?.name ?? null;
  if (family !== 6) return 'invalid';
  const embedded = embeddedIPv4(address);
  if (embedded) return isForbiddenAddress(embedded);
  const named = V6.find((r) => r.list.check(address, 'ipv6'))?.name;
  if (named) return named;
  return GLOBAL_UNICAST_V6.check(address, 'ipv6') ? null : 'reserved';
}

/**
 * The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d) or well-known NAT64 (64:ff9b::a.b.c.d)
 * IPv6 address: the packet ends up at that IPv4 address, so that is the one to judge.
 */
function embeddedIPv4(ipv6: string): string | null {
  // Canonicalise through the WHATWG URL parser: every spelling becomes the compressed hex form.
  let canonical: string;
  try {
    canonical = new URL(`http://[${ipv6}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
  const m = /^(?:::ffff|64:ff9b:):([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical) ?? /^(?:::ffff|64:ff9b:):()([0-9a-f]{1,4})$/.exec(canonical); // ::ffff:0.0.x.y compresses to one group
  if (!m) return null;
  const high = m[1] ? parseInt(m[1], 16) : 0;
  const low = parseInt(m[2], 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/**
 * Decides whether Corridor may POST to `url`. Loopback and private ranges follow allowPrivate in
 * every environment: a sandbox token is handed to every new platform, so a sandbox exemption
 * would let any platform reach services on the server's own ports. Cloud metadata is refused
 * even when allowPrivate is set: no receiver lives there and it is the classic SSRF prize
 * (credentials).
 */
export async function checkWebhookUrl(url: string, options: UrlGuardOptions): Promise<UrlCheck> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: 'not a valid URL' };
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return { ok: false, reason: 'only http and https URLs are allowed' };
  if (options.environment === 'PRODUCTION' && parsed.protocol !== 'https:') return { ok: false, reason: 'PRODUCTION webhooks require https' };
  // Credentials in a URL end up in logs and databases; and user@host tricks mislead readers.
  if (parsed.username || parsed.password) return { ok: false, reason: 'credentials in the URL are not allowed' };

  // URL parsing already normalised 2130706433, 0x7f.1, 0177.0.0.1 etc. to dotted decimal.
  const host = parsed.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (!host) return { ok: false, reason: 'no host in the URL' };
  if (METADATA_HOSTS.has(host)) return { ok: false, reason: `host ${host} is a cloud metadata service` };

  let addresses: string[];
  if (isIP(host)) {
    addresses = [host];
  } else {
    try {
      addresses = await withTimeout((options.resolve ?? systemResolve)(host), RESOLVE_TIMEOUT_MS);
    } catch {
      return { ok: false, reason: `could not resolve ${host}` };
    }
    if (addresses.length === 0) return { ok: false, reason: `could not resolve ${host}` };
  }

  for (const address of addresses) {
    const range = isForbiddenAddress(address);
    if (range === null) continue;
    if (range === 'cloud-metadata' || range === 'invalid') return { ok: false, reason: `address ${address} is not allowed (${range})` };
    if (options.allowPrivate) continue;
    return { ok: false, reason: `address ${address} is not allowed (${range})` };
  }
  return { ok: true, url: parsed, addresses };
}

async function systemResolve(host: string): Promise<string[]> {
  // verbatim: keep the resolver's order, so addresses[0] is what a normal client would pick.
  const results = await lookup(host, { all: true, verbatim: true });
  return results.map((r) => r.address);
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
