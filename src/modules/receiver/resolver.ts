/**
 * Who is behind a UMA address. A Resolver answers with the receiver's currencies (and limits)
 * and the payer data it requires. The local resolver knows every platform this Corridor hosts
 * in the caller's environment, so an address of another platform's customer resolves (that is
 * what UMA is for) while its internal ids stay inside the returned `hosted` part, which callers
 * never show. Any other domain goes to the remote resolver: resolution over the UMA protocol
 * (src/modules/uma/sending.ts; no network call inside a database transaction).
 */
import type { Environment, Scope } from '../../common/scope.js';
import type { Executor } from '../../db/database.js';
import type { CustomersTable, PlatformConfigsTable } from '../../db/schema.js';
import { sandboxSuffixOf } from '../../identifiers/sandbox-fixtures.js';
import { requiredPayerDataFields, type CustomerInfoField } from '../config/incoming.js';
import { currencySetting } from '../config/settings.js';
import { decodeCurrencies } from '../customers/repository.js';
import { receiverErrors } from './errors.js';

export interface ReceivingCurrency {
  code: string;
  /** receiving minor units, inclusive; null: no limit */
  minAmount: bigint | null;
  maxAmount: bigint | null;
}

export interface UmaReceiver {
  /** lower-cased `$user@domain` */
  address: string;
  currencies: ReceivingCurrency[];
  requiredPayerDataFields: CustomerInfoField[];
  /** Present when this Corridor hosts the receiver: its scope and customer (never shown to the sender). */
  hosted?: { scope: Scope; customer: CustomersTable; config: PlatformConfigsTable };
  /** What else to store with the lookup, in its transaction (a remote receiver's verified terms). */
  persist?: (trx: Executor, lookupId: string) => Promise<unknown>;
}

export interface Resolver {
  /**
   * Throws UMA_ADDRESS_NOT_FOUND or LOOKUP_REQUEST_FAILED. `address` is already well-formed;
   * `sender` is the platform asking (a remote provider is asked in its name).
   */
  resolve(ex: Executor, environment: Environment, address: string, sender?: Scope): Promise<UmaReceiver>;
}

/** Sandbox UMA address suffix (docs/incoming-payments.md): the lookup fails as if the provider were down. */
export const SANDBOX_LOOKUP_FAILURE_SUFFIX = '002';

export function domainOf(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1);
}

/** The currencies a hosted customer receives: enabled on the customer and on its platform. */
export function receivingCurrencies(customer: CustomersTable, config: PlatformConfigsTable): ReceivingCurrency[] {
  return decodeCurrencies(customer.currencies)
    .map((code) => ({ code, setting: currencySetting(config, code) }))
    .filter((c) => c.setting.enabled)
    .map((c) => ({ code: c.code, minAmount: c.setting.minAmount, maxAmount: c.setting.maxAmount }));
}

/** Finds the platform hosting `address` in this environment and its live customer with that address. */
export async function findHosted(ex: Executor, environment: Environment, address: string) {
  const domain = domainOf(address);
  const config = await ex.selectFrom('platform_configs').selectAll().where('environment', '=', environment).where('uma_domain', '=', domain).executeTakeFirst();
  if (!config) return undefined;
  const customer = await ex
    .selectFrom('customers')
    .selectAll()
    .where('platform_id', '=', config.platform_id)
    .where('environment', '=', environment)
    .where('uma_address', '=', address)
    .where('is_deleted', '=', 0)
    .executeTakeFirst();
  if (!customer) throw receiverErrors.UMA_ADDRESS_NOT_FOUND({ umaAddress: address });
  return { config, customer };
}

/** Hosted addresses resolve locally (any platform of the environment); the rest go to `remote` (over the UMA protocol: src/modules/uma/sending.ts). */
export function createResolver(remote: Resolver): Resolver {
  return {
    async resolve(ex, environment, address, sender) {
      const hosted = await findHosted(ex, environment, address);
      if (!hosted) {
        // A domain this Corridor hosts in the other environment is not a remote provider.
        const elsewhere = await ex.selectFrom('platform_configs').select('platform_id').where('uma_domain', '=', domainOf(address)).executeTakeFirst();
        if (elsewhere) throw receiverErrors.UMA_ADDRESS_NOT_FOUND({ umaAddress: address });
        return remote.resolve(ex, environment, address, sender);
      }
      if (environment === 'SANDBOX' && sandboxSuffixOf(address) === SANDBOX_LOOKUP_FAILURE_SUFFIX) {
        throw receiverErrors.LOOKUP_REQUEST_FAILED({
          umaAddress: address,
          domain: domainOf(address),
          reason: 'sandbox test pattern 002: the UMA provider did not answer',
        });
      }
      const { config, customer } = hosted;
      return {
        address,
        currencies: receivingCurrencies(customer, config),
        requiredPayerDataFields: requiredPayerDataFields(config),
        hosted: { scope: { platformId: config.platform_id, environment }, customer, config },
      };
    },
  };
}
