import { describe, expect, it } from 'vitest';
import { serialiseBody } from './outbox.js';

describe('an event body as JSON', () => {
  it('is the plain JSON of a body of numbers and strings', () => {
    const body = { type: 'OUTGOING_PAYMENT', webhookId: 'Webhook:1', transaction: { sentAmount: { amount: 1000, currency: { code: 'USD' } }, rate: 0.91 } };
    expect(serialiseBody(body)).toBe(JSON.stringify(body));
  });

  it('writes an exact bigint as a JSON number, at any depth', () => {
    expect(serialiseBody({ a: 12n, b: { c: [1n, -9007199254740991n] } })).toBe('{"a":12,"b":{"c":[1,-9007199254740991]}}');
  });

  it('refuses a bigint a JSON number would not hold exactly', () => {
    expect(() => serialiseBody({ amount: 9007199254740993n })).toThrow(RangeError);
    expect(() => serialiseBody({ nested: { amount: -9007199254740993n } })).toThrow(/does not fit a JSON number exactly/);
  });
});
