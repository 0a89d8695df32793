/**
 * Return reason codes (addenda type 99) and change codes (addenda type 98) with the titles the
 * Nacha Operating Rules (Appendix Four and Five) give them.
 */

export interface ReturnCodeInfo {
  code: string;
  description: string;
  /**
   * Whether the return says the account cannot take entries from us any more, so the external
   * account should be disabled rather than the payment retried: closed, not found, invalid, frozen,
   * holder deceased, not a transaction account, the routing number no longer valid, or the receiver
   * saying the originator is not authorised. Funds (R01, R09), one-off stops (R08), duplicates,
   * format errors and codes of other SEC types and of dishonoured returns leave it usable.
   */
  accountUnusable: boolean;
}

// [code, title, accountUnusable]
const RETURN_CODES: readonly (readonly [string, string, boolean])[] = [
  ['R01', 'Insufficient Funds', false],
  ['R02', 'Account Closed', true],
  ['R03', 'No Account/Unable to Locate Account', true],
  ['R04', 'Invalid Account Number Structure', true],
  // An unauthorised debit to a consumer account under a corporate SEC code: the account must not
  // be debited under this authorisation again.
  ['R05', 'Unauthorized Debit to Consumer Account Using Corporate SEC Code', true],
  ['R06', "Returned per ODFI's Request", false],
  ['R07', 'Authorization Revoked by Customer', true],
  ['R08', 'Payment Stopped', false],
  ['R09', 'Uncollected Funds', false],
  ['R10', "Customer Advises Originator is Not Known to Receiver and/or Originator is Not Authorized by Receiver to Debit Receiver's Account", true],
  ['R11', 'Customer Advises Entry Not in Accordance with the Terms of the Authorization', false],
  // The account moved with a branch to another bank: the routing number we hold is wrong now.
  ['R12', 'Account Sold to Another DFI', true],
  ['R13', 'Invalid ACH Routing Number', true],
  ['R14', 'Representative Payee Deceased or Unable to Continue in That Capacity', true],
  ['R15', 'Beneficiary or Account Holder (Other Than a Representative Payee) Deceased', true],
  ['R16', 'Account Frozen/Entry Returned per OFAC Instruction', true],
  // Also used for an invalid account number initiated under questionable circumstances: treat the
  // account as unusable until someone looks at it.
  ['R17', 'File Record Edit Criteria/Entry with Invalid Account Number Initiated Under Questionable Circumstances', true],
  ['R18', 'Improper Effective Entry Date', false],
  ['R19', 'Amount Field Error', false],
  ['R20', 'Non-Transaction Account', true],
  ['R21', 'Invalid Company Identification', false],
  ['R22', 'Invalid Individual ID Number', false],
  // The receiver refuses credits to this account from us: a payout must not be sent there again.
  ['R23', 'Credit Entry Refused by Receiver', true],
  ['R24', 'Duplicate Entry', false],
  ['R25', 'Addenda Error', false],
  ['R26', 'Mandatory Field Error', false],
  ['R27', 'Trace Number Error', false],
  ['R28', 'Routing Number Check Digit Error', true],
  ['R29', 'Corporate Customer Advises Not Authorized', true],
  ['R30', 'RDFI Not Participant in Check Truncation Program', false],
  ['R31', 'Permissible Return Entry (CCD and CTX only)', false],
  ['R32', 'RDFI Non-Settlement', false],
  ['R33', 'Return of XCK Entry', false],
  // The RDFI's participation is limited by its supervisor: it cannot receive our entries.
  ['R34', 'Limited Participation DFI', true],
  ['R35', 'Return of Improper Debit Entry', false],
  ['R36', 'Return of Improper Credit Entry', false],
  ['R37', 'Source Document Presented for Payment', false],
  ['R38', 'Stop Payment on Source Document', false],
  ['R39', 'Improper Source Document/Source Document Presented for Payment', false],
  ['R40', 'Return of ENR Entry by Federal Government Agency', false],
  ['R41', 'Invalid Transaction Code', false],
  ['R42', 'Routing Number/Check Digit Error', false],
  ['R43', 'Invalid DFI Account Number', false],
  ['R44', 'Invalid Individual ID Number/Identification Number', false],
  ['R45', 'Invalid Individual Name/Company Name', false],
  ['R46', 'Invalid Representative Payee Indicator', false],
  ['R47', 'Duplicate Enrollment', false],
  ['R50', 'State Law Affecting RCK Acceptance', false],
  ['R51', 'Item Related to RCK Entry is Ineligible or RCK Entry is Improper', false],
  ['R52', 'Stop Payment on Item Related to RCK Entry', false],
  ['R53', 'Item and RCK Entry Presented for Payment', false],
  ['R61', 'Misrouted Return', false],
  ['R62', 'Return of Erroneous or Reversing Debit', false],
  ['R67', 'Duplicate Return', false],
  ['R68', 'Untimely Return', false],
  ['R69', 'Field Error(s)', false],
  ['R70', 'Permissible Return Entry Not Accepted/Return Not Requested by ODFI', false],
  ['R71', 'Misrouted Dishonored Return', false],
  ['R72', 'Untimely Dishonored Return', false],
  ['R73', 'Timely Original Return', false],
  ['R74', 'Corrected Return', false],
  ['R75', 'Return Not a Duplicate', false],
  ['R76', 'No Errors Found', false],
  ['R77', 'Non-Acceptance of R62 Dishonored Return', false],
  ['R80', 'IAT Entry Coding Error', false],
  ['R81', 'Non-Participant in IAT Program', false],
  ['R82', 'Invalid Foreign Receiving DFI Identification', false],
  ['R83', 'Foreign Receiving DFI Unable to Settle', false],
  ['R84', 'Entry Not Processed by Gateway', false],
  ['R85', 'Incorrectly Coded Outbound International Payment', false],
];

const RETURNS = new Map(RETURN_CODES.map(([code, description, accountUnusable]) => [code, { code, description, accountUnusable }]));

/** Every return code this table knows, in order. */
export const RETURN_CODE_LIST: readonly ReturnCodeInfo[] = [...RETURNS.values()];

/** A return code's title and whether the account is unusable; undefined for a code not in the Rules. */
export function returnCodeInfo(code: string): ReturnCodeInfo | undefined {
  const info = RETURNS.get(code);
  return info && { ...info };
}

/** What a notification of change corrects; `corrects` names the fields of the corrected data. */
export interface ChangeCodeInfo {
  code: string;
  description: string;
  corrects: readonly (
    'accountNumber' | 'routingNumber' | 'transactionCode' | 'individualName' | 'identificationNumber' | 'companyName' | 'companyIdentification' | 'addenda'
  )[];
}

const CHANGE_CODES: readonly ChangeCodeInfo[] = [
  { code: 'C01', description: 'Incorrect DFI Account Number', corrects: ['accountNumber'] },
  { code: 'C02', description: 'Incorrect Routing Number', corrects: ['routingNumber'] },
  { code: 'C03', description: 'Incorrect Routing Number and Incorrect DFI Account Number', corrects: ['routingNumber', 'accountNumber'] },
  { code: 'C04', description: 'Incorrect Individual Name/Receiving Company Name', corrects: ['individualName'] },
  { code: 'C05', description: 'Incorrect Transaction Code', corrects: ['transactionCode'] },
  { code: 'C06', description: 'Incorrect DFI Account Number and Incorrect Transaction Code', corrects: ['accountNumber', 'transactionCode'] },
  {
    code: 'C07',
    description: 'Incorrect Routing Number, Incorrect DFI Account Number, and Incorrect Transaction Code',
    corrects: ['routingNumber', 'accountNumber', 'transactionCode'],
  },
  { code: 'C08', description: 'Incorrect Receiving DFI Identification (IAT Only)', corrects: ['routingNumber'] },
  { code: 'C09', description: 'Incorrect Individual Identification Number/Incorrect Receiver Identification Number', corrects: ['identificationNumber'] },
  // C10–C12 corrected corporate entries; recent editions of the Rules no longer list them (nor does
  // moov-io/ach), but a bank's older software may still send them, so they are recognised.
  { code: 'C10', description: 'Incorrect Company Name', corrects: ['companyName'] },
  { code: 'C11', description: 'Incorrect Company Identification', corrects: ['companyIdentification'] },
  { code: 'C12', description: 'Incorrect Company Name and Company Identification', corrects: ['companyName', 'companyIdentification'] },
  { code: 'C13', description: 'Addenda Format Error', corrects: ['addenda'] },
  { code: 'C14', description: 'Incorrect SEC Code for Outbound International Payment', corrects: [] },
];

const CHANGES = new Map(CHANGE_CODES.map((c) => [c.code, c]));

export const CHANGE_CODE_LIST: readonly ChangeCodeInfo[] = CHANGE_CODES;

/** A change code's title and what it corrects; undefined for a code not in the table. */
export function changeCodeInfo(code: string): ChangeCodeInfo | undefined {
  return CHANGES.get(code);
}
