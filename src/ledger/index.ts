export { createLedger, type Ledger } from './ledger.js';
export { TRANSFER_CODES, type Journal, type JournalInput, type ResolveInput, type Transfer, type TransferCode, type TransferInput } from './types.js';
export { balanceOf, MAX_BALANCE, SYSTEM_CODES, type AccountBalance, type SystemCode } from './accounts.js';
export { ledgerErrors } from './errors.js';
export { ledgerSummary, verifyLedger, type LedgerProblem } from './verify.js';
export { bankLegs, depositLegs, paymentLegs, returnLegs, sandboxFundingLegs, type PaymentAmounts } from './recipes.js';
