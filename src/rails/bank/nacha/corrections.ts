/** The corrected values a notification of change (addenda 98) carries. */

import { isDigits } from './fields.js';
import type { NachaCorrection } from './types.js';

/**
 * The corrected values of a notification of change, read from the 29-column corrected-data field
 * as Appendix Five lays it out: C01 account (1-17); C02 routing (1-9); C03 routing (1-9), account
 * (13-29); C05 transaction code (1-2); C06 account (1-17), transaction code (21-22); C07 routing
 * (1-9), account (10-26), transaction code (27-28). Some banks pack the values without the
 * positional gaps; when the positional reading fails, whitespace-separated values are read.
 */
export function readCorrection(changeCode: string, field: string): NachaCorrection | undefined {
  const f = field.padEnd(29, ' ');
  const words = f.trim().split(/\s+/).filter(Boolean);
  const txCode = (s: string): number | undefined => (/^[0-9]{2}$/.test(s) ? Number(s) : undefined);
  const account = (s: string): string | undefined => (s.trim() !== '' && !/\s/.test(s.trim()) ? s.trim() : undefined);
  const routing = (s: string): string | undefined => (isDigits(s, 9) ? s : undefined);
  switch (changeCode) {
    case 'C01': {
      const accountNumber = account(f.slice(0, 17));
      return accountNumber ? { accountNumber } : undefined;
    }
    case 'C02': {
      const routingNumber = routing(f.slice(0, 9));
      return routingNumber ? { routingNumber } : undefined;
    }
    case 'C03': {
      const routingNumber = routing(f.slice(0, 9));
      const accountNumber = account(f.slice(9, 29));
      return routingNumber && accountNumber ? { routingNumber, accountNumber } : undefined;
    }
    case 'C05': {
      const transactionCode = txCode(f.slice(0, 2));
      return transactionCode !== undefined && f.slice(2).trim() === '' ? { transactionCode } : undefined;
    }
    case 'C06': {
      let accountNumber = account(f.slice(0, 17));
      let transactionCode = txCode(f.slice(17).trim());
      if ((!accountNumber || transactionCode === undefined) && words.length === 2) [accountNumber, transactionCode] = [words[0], txCode(words[1])];
      return accountNumber && transactionCode !== undefined ? { accountNumber, transactionCode } : undefined;
    }
    case 'C07': {
      const routingNumber = routing(f.slice(0, 9));
      let accountNumber = account(f.slice(9, 26));
      let transactionCode = txCode(f.slice(26, 29).trim());
      const rest = f.slice(9).trim().split(/\s+/).filter(Boolean);
      if ((!accountNumber || transactionCode === undefined) && rest.length === 2) [accountNumber, transactionCode] = [rest[0], txCode(rest[1])];
      return routingNumber && accountNumber && transactionCode !== undefined ? { routingNumber, accountNumber, transactionCode } : undefined;
    }
    default:
      return undefined;
  }
}
