import { call, type TestContext } from './context.js';

let seq = 0;

/** A valid individual-customer body; override any field. */
export function individual(overrides: Record<string, unknown> = {}) {
  seq += 1;
  return {
    platformCustomerId: `cust-${Date.now()}-${seq}`,
    customerType: 'INDIVIDUAL',
    fullName: 'Ada Lovelace',
    birthDate: '1990-12-10',
    nationality: 'GB',
    address: { line1: '12 St James Square', city: 'London', postalCode: 'SW1Y 4JH', country: 'GB' },
    ...overrides,
  };
}

export function business(overrides: Record<string, unknown> = {}) {
  seq += 1;
  return {
    platformCustomerId: `biz-${Date.now()}-${seq}`,
    customerType: 'BUSINESS',
    businessInfo: { legalName: 'Analytical Engines Ltd', registrationNumber: '01234567', incorporationCountry: 'GB' },
    address: { line1: '1 Engine Row', postalCode: 'EC1A 1BB', country: 'GB' },
    ...overrides,
  };
}

/** Creates a customer through the API and returns its body. */
export async function createCustomer(ctx: TestContext, overrides: Record<string, unknown> = {}, auth?: string) {
  const res = await call(ctx, 'POST', '/customers', { body: individual(overrides), auth });
  if (res.status !== 201) throw new Error(`customer create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}
