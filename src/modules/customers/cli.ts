import type { Command } from 'commander';
import { ApiError } from '../../common/errors.js';
import { isId } from '../../common/ids.js';
import { print, withContainer } from '../../cli/context.js';
import { KYC_STATUSES } from './schemas.js';

/** `npx corridor customer kyc`: the operator attests a customer's KYC (KYB for businesses); recorded in the audit log. */
export function registerCustomerCommands(program: Command) {
  const customer = program.command('customer').description("customers of any platform: the operator's KYC attestation");
  customer
    .command('kyc')
    .description("set a customer's kycStatus (with KYC_ATTESTATION=OPERATOR the only way in PRODUCTION)")
    .requiredOption('--customer <id>', 'Customer:<id>')
    .requiredOption('--status <status>', KYC_STATUSES.join('|'))
    .option('--json', 'print {customerId, environment, kycStatus, previousKycStatus}')
    .action(async (opts: { customer: string; status: string; json?: boolean }) => {
      if (!isId('Customer', opts.customer)) program.error(`--customer must be a customer id (Customer:<uuid>), got "${opts.customer}"`);
      const status = opts.status.toUpperCase();
      if (!(KYC_STATUSES as readonly string[]).includes(status)) program.error(`--status must be one of ${KYC_STATUSES.join(', ')}`);
      await withContainer(async (c) => {
        try {
          const done = await c.services.customers.attestKyc(opts.customer, status);
          const out = { customerId: done.id, kycStatus: done.kycStatus, previousKycStatus: done.previousKycStatus };
          print(!!opts.json, out, `${done.id}: kycStatus ${done.previousKycStatus} → ${done.kycStatus}`);
        } catch (e) {
          if (e instanceof ApiError) program.error(`${e.message}`);
          throw e;
        }
      });
    });
}
