import { describe, expect, it } from 'vitest';
import { checkWebhookUrl, isForbiddenAddress, type UrlGuardOptions } from './url-guard.ts';

// A fake resolver: tests never touch real DNS.
const dns = (table: Record<string, string[]>) => async (host: string) => {
  const answer = table[host];
  if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return answer;
};
const resolve = dns({
  'hooks.example.com': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  localhost: ['127.0.0.1', '::1'],
  'mixed.example.com': ['93.184.215.14', '10.0.0.5'], // one bad answer is enough to refuse
  'rebind.example.com': ['169.254.169.254'],
  'intranet.example.com': ['192.168.1.20'],
  'empty.example.com': [],
});
const prod: UrlGuardOptions = { environment: 'PRODUCTION', allowPrivate: false, resolve };
const sandbox: UrlGuardOptions = { environment: 'SANDBOX', allowPrivate: false, resolve };

describe('isForbiddenAddress', () => {
  const forbidden: [string, string][] = [
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456:789a::1', 'private'],
    ['fec0::1', 'private'],
    ['169.254.0.1', 'link-local'],
    ['169.254.255.255', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['169.254.169.254', 'cloud-metadata'],
    ['169.254.170.2', 'cloud-metadata'],
    ['100.100.100.200', 'cloud-metadata'],
    ['fd00:ec2::254', 'cloud-metadata'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.255', 'cgnat'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['ff05::1:3', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['192.0.0.8', 'reserved'],
    ['192.88.99.1', 'reserved'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['192.0.2.1', 'documentation'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['100::1', 'reserved'],
    ['2001::1', 'reserved'],
    ['2002:7f00:1::1', 'reserved'],
    ['64:ff9b:1::1', 'reserved'],
    ['::7f00:1', 'reserved'],
    ['4000::1', 'reserved'],
    ['::ffff:0:7f00:1', 'reserved'],
    // IPv4 inside IPv6: judged as the IPv4 address the packet ends up at.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['0:0:0:0:0:ffff:7f00:0001', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:169.254.169.254', 'cloud-metadata'],
    ['::ffff:a9fe:1', 'link-local'],
    ['::ffff:0.0.0.0', 'unspecified'],
    ['::ffff:100.64.0.1', 'cgnat'],
    ['::ffff:224.0.0.1', 'multicast'],
    ['64:ff9b::127.0.0.1', 'loopback'],
    ['64:ff9b::192.168.0.1', 'private'],
    ['64:ff9b::0.0.0.1', 'unspecified'],
    ['not-an-ip', 'invalid'],
    ['', 'invalid'],
    ['127.1', 'invalid'],
  ];
  it.each(forbidden)('%s is %s', (ip, range) => {
    expect(isForbiddenAddress(ip)).toBe(range);
  });

  it.each([
    '93.184.215.14',
    '8.8.8.8',
    '1.1.1.1',
    '172.15.255.255',
    '172.32.0.1',
    '100.63.255.255',
    '100.128.0.1',
    '192.169.0.1',
    '169.253.0.1',
    '11.0.0.1',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '2a00:1450:4001::1',
    '::ffff:8.8.8.8',
    '64:ff9b::8.8.8.8',
  ])('%s is public', (ip) => {
    expect(isForbiddenAddress(ip)).toBeNull();
  });
});

describe('checkWebhookUrl', () => {
  it('accepts a public https URL and returns the addresses to connect to', async () => {
    const result = await checkWebhookUrl('https://hooks.example.com/corridor?x=1', prod);
    expect(result).toMatchObject({ ok: true, addresses: ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'] });
    if (result.ok) expect(result.url.href).toBe('https://hooks.example.com/corridor?x=1');
  });

  it('accepts a public IP literal without resolving', async () => {
    const noDns = async () => {
      throw new Error('must not resolve');
    };
    expect(await checkWebhookUrl('https://93.184.215.14/hook', { ...prod, resolve: noDns })).toMatchObject({ ok: true, addresses: ['93.184.215.14'] });
    expect(await checkWebhookUrl('https://[2606:4700::1111]/hook', { ...prod, resolve: noDns })).toMatchObject({ ok: true, addresses: ['2606:4700::1111'] });
  });

  it('allows only http and https; PRODUCTION requires https', async () => {
    for (const url of [
      'ftp://hooks.example.com/',
      'file:///etc/passwd',
      'gopher://hooks.example.com/',
      'javascript:alert(1)',
      'data:text/plain,hi',
      'ws://hooks.example.com/',
    ]) {
      expect(await checkWebhookUrl(url, sandbox)).toEqual({ ok: false, reason: 'only http and https URLs are allowed' });
    }
    expect(await checkWebhookUrl('http://hooks.example.com/', prod)).toEqual({ ok: false, reason: 'PRODUCTION webhooks require https' });
    expect((await checkWebhookUrl('http://hooks.example.com/', sandbox)).ok).toBe(true);
    expect(await checkWebhookUrl('not a url', sandbox)).toEqual({ ok: false, reason: 'not a valid URL' });
  });

  it('refuses credentials in the URL', async () => {
    expect((await checkWebhookUrl('https://user:pass@hooks.example.com/', prod)).ok).toBe(false);
    expect((await checkWebhookUrl('https://user@hooks.example.com/', prod)).ok).toBe(false);
    expect((await checkWebhookUrl('https://hooks.example.com@127.0.0.1/', prod)).ok).toBe(false);
  });

  it('refuses a name if ANY of its addresses is forbidden', async () => {
    expect(await checkWebhookUrl('https://mixed.example.com/', prod)).toEqual({ ok: false, reason: 'address 10.0.0.5 is not allowed (private)' });
    expect((await checkWebhookUrl('https://rebind.example.com/', prod)).ok).toBe(false);
    expect((await checkWebhookUrl('https://intranet.example.com/', prod)).ok).toBe(false);
  });

  it('refuses names that do not resolve', async () => {
    expect(await checkWebhookUrl('https://nxdomain.example.com/', prod)).toEqual({ ok: false, reason: 'could not resolve nxdomain.example.com' });
    expect((await checkWebhookUrl('https://empty.example.com/', prod)).ok).toBe(false);
  });

  it('refuses cloud metadata host names, even with allowPrivate', async () => {
    for (const url of [
      'http://metadata.google.internal/computeMetadata/v1/',
      'http://METADATA.google.internal./',
      'http://metadata/',
      'http://instance-data/latest/',
      'http://metadata.goog/',
    ]) {
      expect((await checkWebhookUrl(url, { ...sandbox, allowPrivate: true })).ok).toBe(false);
    }
    expect((await checkWebhookUrl('http://169.254.169.254/latest/meta-data/', { ...sandbox, allowPrivate: true })).ok).toBe(false);
    expect((await checkWebhookUrl('https://[fd00:ec2::254]/', { ...prod, allowPrivate: true })).ok).toBe(false);
  });

  // Every forbidden range, as an IP literal in a URL, IPv4 and IPv6.
  const literals = [
    '127.0.0.1',
    '127.8.9.10',
    '[::1]',
    '0.0.0.0',
    '[::]',
    '10.1.2.3',
    '172.16.5.4',
    '172.31.0.1',
    '192.168.100.1',
    '[fc00::1]',
    '[fdff::1]',
    '169.254.1.1',
    '169.254.169.254',
    '[fe80::1]',
    '100.64.1.1',
    '224.0.0.251',
    '[ff02::fb]',
    '240.1.2.3',
    '255.255.255.255',
    '192.0.2.10',
    '198.18.0.9',
    '[2001:db8::5]',
    '[::ffff:127.0.0.1]',
    '[::ffff:10.0.0.1]',
    '[::ffff:169.254.169.254]',
    '[::ffff:192.168.1.1]',
    '[64:ff9b::10.0.0.1]',
  ];
  it.each(literals)('PRODUCTION refuses https://%s/', async (host) => {
    const result = await checkWebhookUrl(`https://${host}/hook`, prod);
    expect(result.ok).toBe(false);
  });

  // Numeric spellings that the WHATWG URL parser normalises; they must be judged as what they mean.
  it.each([
    ['http://2130706433/', 'loopback'],
    ['http://0x7f000001/', 'loopback'],
    ['http://0x7f.1/', 'loopback'],
    ['http://017700000001/', 'loopback'],
    ['http://0177.0.0.1/', 'loopback'],
    ['http://127.1/', 'loopback'],
    ['http://127.0.1/', 'loopback'],
    ['http://0/', 'unspecified'],
    ['http://167772161/', 'private'],
    ['http://0xa.0.0.1/', 'private'],
    ['http://012.0.0.1/', 'private'],
    ['http://0xc0.0xa8.0.1/', 'private'],
    ['http://2852039166/', 'cloud-metadata'],
    ['http://0xa9fea9fe/', 'cloud-metadata'],
    ['http://0251.0376.0251.0376/', 'cloud-metadata'],
    ['http://[0:0:0:0:0:ffff:7f00:1]/', 'loopback'],
    ['http://[::ffff:0a00:0001]/', 'private'],
  ])('%s is refused (%s)', async (url, range) => {
    for (const environment of ['SANDBOX', 'PRODUCTION'] as const) {
      const result = await checkWebhookUrl(environment === 'SANDBOX' ? url : url.replace('http:', 'https:'), { environment, allowPrivate: false, resolve });
      expect(result).toMatchObject({ ok: false });
      if (!result.ok) expect(result.reason).toContain(`(${range})`);
    }
  });

  it('SANDBOX refuses loopback and private ranges like PRODUCTION unless the operator allows them', async () => {
    for (const url of [
      'http://localhost:3000/hook',
      'http://127.0.0.1:8080/',
      'http://[::1]:4000/',
      'https://localhost/',
      'http://192.168.1.20/',
      'http://intranet.example.com/',
    ]) {
      expect((await checkWebhookUrl(url, sandbox)).ok).toBe(false);
      expect((await checkWebhookUrl(url, { ...sandbox, allowPrivate: true })).ok).toBe(true);
    }
    expect((await checkWebhookUrl('http://169.254.169.254/', { ...sandbox, allowPrivate: true })).ok).toBe(false);
  });

  it('PRODUCTION refuses loopback unless the operator allows private addresses', async () => {
    expect(await checkWebhookUrl('https://localhost/hook', prod)).toEqual({ ok: false, reason: 'address 127.0.0.1 is not allowed (loopback)' });
    expect(await checkWebhookUrl('https://localhost/hook', { ...prod, allowPrivate: true })).toMatchObject({ ok: true, addresses: ['127.0.0.1', '::1'] });
    expect((await checkWebhookUrl('https://10.0.0.1/hook', { ...prod, allowPrivate: true })).ok).toBe(true);
  });

  it('uses the system resolver by default', async () => {
    const result = await checkWebhookUrl('http://localhost:9/', { environment: 'SANDBOX', allowPrivate: true });
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.addresses.every((a) => isForbiddenAddress(a) === 'loopback')).toBe(true);
  });
});
