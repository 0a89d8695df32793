import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import * as m001 from './001_foundation.js';
import * as m002 from './002_onboarding.js';
import * as m003 from './003_ledger_accounts.js';
import * as m004 from './004_webhooks.js';
import * as m005 from './005_dashboard.js';
import * as m006 from './006_payments.js';
import * as m007 from './007_incoming.js';
import * as m008 from './008_list_counts.js';
import * as m009 from './009_filtered_counts.js';
import * as m100 from './100_audit_log.js';
import * as m101 from './101_token_expiry.js';
import * as m102 from './102_retention_indexes.js';
import * as m200 from './200_lookup_payer.js';
import * as m300 from './300_sandbox_clocks.js';
import * as m400 from './400_dead_jobs.js';
import * as m500 from './500_invitations_imports_kyc_links.js';
import * as m600 from './600_grid_profile.js';
import * as m700 from './700_ledger_deltas.js';
import * as m800 from './800_ledger_transfer_indexes.js';
import * as m900 from './900_shared_row_references.js';
import * as m910 from './910_dead_jobs_index.js';
import * as m950 from './950_uma_keys_nonces.js';
import * as m951 from './951_uma_remote_lookups.js';
import * as m952 from './952_uma_invoices.js';
import * as m960 from './960_bank_credentials.js';
import * as m961 from './961_bank_rails.js';
import * as m970 from './970_uma_payments.js';

/** Every migration in order. Names sort; a migration never changes once released. */
export const migrations: Record<string, { up(db: Kysely<any>, dialect: Dialect): Promise<void> }> = {
  '001_foundation': m001,
  '002_onboarding': m002,
  '003_ledger_accounts': m003,
  '004_webhooks': m004,
  '005_dashboard': m005,
  '006_payments': m006,
  '007_incoming': m007,
  '008_list_counts': m008,
  '009_filtered_counts': m009,
  '100_audit_log': m100,
  '101_token_expiry': m101,
  '102_retention_indexes': m102,
  '200_lookup_payer': m200,
  '300_sandbox_clocks': m300,
  '400_dead_jobs': m400,
  '500_invitations_imports_kyc_links': m500,
  '600_grid_profile': m600,
  '700_ledger_deltas': m700,
  '800_ledger_transfer_indexes': m800,
  '900_shared_row_references': m900,
  '910_dead_jobs_index': m910,
  '950_uma_keys_nonces': m950,
  '951_uma_remote_lookups': m951,
  '952_uma_invoices': m952,
  '960_bank_credentials': m960,
  '961_bank_rails': m961,
  '970_uma_payments': m970,
};
