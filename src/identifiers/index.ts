/** Identifier validators: each `(value) => string | null` (null = valid, else a short reason). */
export * from './aba.js';
export * from './iban.js';
export * from './clabe.js';
export * from './brazil.js';
export * from './uk.js';
export * from './upi.js';
export * from './canada.js';
export * from './bank-digits.js';
export * from './mobile-money.js';
export * from './crypto.js';
