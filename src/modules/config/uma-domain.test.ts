import { describe, expect, it } from 'vitest';
import { claimView, proveClaim, systemProofNetwork, underBaseDomain, type DomainProofNetwork } from './uma-domain.js';

const claim = { domain: 'pay.example.com:8443', token: 'tok-123', requestedAt: '2026-01-01T00:00:00.000Z' };

describe('UMA domain proof', () => {
  it('names where the token goes: the HTTPS well-known file (with the port) and the TXT record (without)', () => {
    expect(claimView(claim)).toMatchObject({
      wellKnownUrl: 'https://pay.example.com:8443/.well-known/corridor-uma-domain.txt',
      dnsTxtName: '_corridor-uma-domain.pay.example.com',
      dnsTxtValue: 'corridor-uma-domain=tok-123',
    });
  });

  it('the operator namespace is the base domain and what is under it, nothing that only ends like it', () => {
    expect(underBaseDomain('a.uma.example', 'uma.example')).toBe(true);
    expect(underBaseDomain('uma.example', 'uma.example')).toBe(true);
    expect(underBaseDomain('evil-uma.example', 'uma.example')).toBe(false);
  });

  it('accepts only the exact token from a 2xx answer, or an exact TXT value', async () => {
    const net = (body: string, status = 200, txt: string[][] = []): DomainProofNetwork => ({
      fetchText: async () => ({ status, body }),
      resolveTxt: async () => txt,
    });
    expect(await proveClaim(net('tok-123\n'), claim)).toEqual({ proven: true, method: 'HTTPS' });
    expect((await proveClaim(net('tok-123', 404), claim)).proven).toBe(false);
    expect((await proveClaim(net('xtok-123'), claim)).proven).toBe(false);
    expect(await proveClaim(net('', 404, [['corridor-uma-', 'domain=tok-123']]), claim)).toEqual({ proven: true, method: 'DNS' });
  });

  it('the real fetch refuses private and loopback addresses before connecting', async () => {
    await expect(systemProofNetwork.fetchText('https://127.0.0.1/.well-known/corridor-uma-domain.txt')).rejects.toThrow(/loopback/);
    await expect(systemProofNetwork.fetchText('https://10.1.2.3/.well-known/corridor-uma-domain.txt')).rejects.toThrow(/private/);
    await expect(systemProofNetwork.fetchText('https://169.254.169.254/latest')).rejects.toThrow(/cloud-metadata/);
  });
});
