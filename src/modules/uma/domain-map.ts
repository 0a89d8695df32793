/**
 * UMA_DOMAIN_ADDRESSES: where to reach UMA domains that have no public DNS, for development and
 * tests (two Corridors on one machine). A comma-separated list of `domain=base URL`; a domain
 * written `*.example.test` covers every name under it. A mapped domain is reached at the base
 * URL, with the UMA domain as the Host header, so the instance behind it still picks the platform
 * by its domain. Unmapped domains are reached at https://<domain>.
 *
 *   UMA_DOMAIN_ADDRESSES="*.b.test=http://127.0.0.1:9092,vasp.test=http://127.0.0.1:9300"
 */
export interface DomainAddress {
  /** lower-cased; a leading `*.` matches any name under the rest */
  domain: string;
  /** http(s)://host[:port], no path */
  base: string;
}

export function parseDomainAddresses(text: string | undefined, problems: string[]): DomainAddress[] {
  if (!text) return [];
  const out: DomainAddress[] = [];
  for (const entry of text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const eq = entry.indexOf('=');
    const domain = entry.slice(0, eq).trim().toLowerCase();
    const base = entry.slice(eq + 1).trim();
    let url: URL | undefined;
    try {
      url = new URL(base);
    } catch {
      url = undefined;
    }
    if (
      eq <= 0 ||
      !/^(\*\.)?[a-z0-9.-]+(:[0-9]{1,5})?$/.test(domain) ||
      !url ||
      !/^https?:$/.test(url.protocol) ||
      (url.pathname !== '/' && url.pathname !== '')
    ) {
      problems.push(`UMA_DOMAIN_ADDRESSES: "${entry}" is not domain=http(s)://host[:port]`);
      continue;
    }
    out.push({ domain, base: url.origin });
  }
  return out;
}

/** The base URL a UMA domain is reached at: its mapping, else https://<domain>. */
export function baseUrlOf(map: readonly DomainAddress[], domain: string): { base: string; mapped: boolean } {
  const d = domain.toLowerCase();
  const hit = map.find((m) => m.domain === d) ?? map.find((m) => m.domain.startsWith('*.') && d.endsWith(m.domain.slice(1)) && d.length > m.domain.length - 1);
  return hit ? { base: hit.base, mapped: true } : { base: `https://${d}`, mapped: false };
}
