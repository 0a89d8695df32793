import { describe, expect, it } from 'vitest';
import { failureKey, parseBasic } from './auth.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('parseBasic', () => {
  it('reads clientId and a secret that may contain colons', () => {
    expect(parseBasic(`Basic ${b64('corr_test_1:cs_a:b')}`)).toEqual({ clientId: 'corr_test_1', clientSecret: 'cs_a:b' });
    expect(parseBasic(`basic ${b64('id:secret')}`)).toEqual({ clientId: 'id', clientSecret: 'secret' });
  });

  it.each([undefined, '', 'Bearer x', 'Basic', `Basic ${b64('nocolon')}`, `Basic ${b64(':secret')}`, `Basic ${b64('id:')}`, `Basic ${'A'.repeat(2000)}`])(
    'refuses %j',
    (header) => {
      expect(parseBasic(header)).toBeUndefined();
    },
  );
});

describe('failureKey', () => {
  it('keys a failure on the address and the client id of the credential', () => {
    const header = (id: string) => `Basic ${Buffer.from(`${id}:secret`).toString('base64')}`;
    expect(failureKey('10.0.0.1', header('corr_test_a'), undefined)).toBe('10.0.0.1|corr_test_a');
    expect(failureKey('10.0.0.1', header('corr_test_b'), undefined)).not.toBe(failureKey('10.0.0.1', header('corr_test_a'), undefined));
    expect(failureKey('10.0.0.2', header('corr_test_a'), undefined)).not.toBe(failureKey('10.0.0.1', header('corr_test_a'), undefined));
    expect(failureKey('10.0.0.1', 'Bearer xyz', undefined)).toBe('10.0.0.1|(not basic)');
    expect(failureKey('10.0.0.1', undefined, 'token')).toBe('10.0.0.1|(dashboard session)');
    expect(failureKey('10.0.0.1', undefined, undefined)).toBeUndefined();
  });
});
