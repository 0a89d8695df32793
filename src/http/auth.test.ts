import { describe, expect, it } from 'vitest';
import { parseBasic } from './auth.js';

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
