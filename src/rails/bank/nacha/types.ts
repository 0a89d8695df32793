/** The shapes of a NACHA file as read by parseNachaFile. Amounts are bigint cents. */

export interface NachaFileHeader {
  /** The 9-digit routing number of the receiving point (the bank), without the leading space. */
  immediateDestination: string;
  /** The 10 characters of the sending point, trimmed (a routing number or "1" + EIN). */
  immediateOrigin: string;
  /** YYMMDD. */
  fileCreationDate: string;
  /** HHMM, or '' when the sender left this optional field blank. */
  fileCreationTime: string;
  fileIdModifier: string;
  immediateDestinationName: string;
  immediateOriginName: string;
  referenceCode: string;
}

export interface NachaBatchHeader {
  serviceClassCode: 200 | 220 | 225;
  companyName: string;
  companyDiscretionaryData: string;
  companyIdentification: string;
  standardEntryClassCode: string;
  companyEntryDescription: string;
  companyDescriptiveDate: string;
  /** YYMMDD. */
  effectiveEntryDate: string;
  /** Julian day the ACH Operator settled the batch, '' in files we originate. */
  settlementDate: string;
  originatorStatusCode: string;
  originatingDFIIdentification: string;
  batchNumber: number;
}

export interface NachaControlTotals {
  entryAddendaCount: number;
  /** Last 10 digits of the sum of the entries' 8-digit RDFI identifications. */
  entryHash: bigint;
  totalDebit: bigint;
  totalCredit: bigint;
}

export interface NachaBatchControl extends NachaControlTotals {
  serviceClassCode: number;
  companyIdentification: string;
  messageAuthenticationCode: string;
  originatingDFIIdentification: string;
  batchNumber: number;
}

export interface NachaFileControl extends NachaControlTotals {
  batchCount: number;
  blockCount: number;
}

/** Addenda 99: the RDFI returns the entry. */
export interface NachaReturn {
  /** R01…R85 (see returnCodeInfo); a bank-specific code of the same shape is kept as is. */
  returnCode: string;
  /** The trace number of the entry we sent, which this returns. */
  originalTraceNumber: string;
  /** YYMMDD or ''. */
  dateOfDeath: string;
  /** The 8-digit RDFI identification of the original entry. */
  originalReceivingDFIIdentification: string;
  addendaInformation: string;
  traceNumber: string;
}

/** Addenda 98: the RDFI posted the entry but some account data must change before the next one. */
export interface NachaChange {
  changeCode: string;
  originalTraceNumber: string;
  originalReceivingDFIIdentification: string;
  /** The corrected-data field as sent, trimmed. */
  correctedData: string;
  /** The values read from correctedData for C01, C02, C03, C05, C06, C07; undefined for other codes. */
  corrected?: NachaCorrection;
  traceNumber: string;
}

export interface NachaCorrection {
  accountNumber?: string;
  routingNumber?: string;
  transactionCode?: number;
}

export interface NachaEntry {
  /** 1-based line of the entry detail record. */
  line: number;
  transactionCode: number;
  direction: 'credit' | 'debit';
  /** Prenotes (23, 28, 33, 38) carry no money. */
  prenote: boolean;
  /** The 8-digit RDFI identification; with checkDigit it is the routing number. */
  receivingDFIIdentification: string;
  checkDigit: string;
  receivingDFIRoutingNumber: string;
  dfiAccountNumber: string;
  amount: bigint;
  individualIdentificationNumber: string;
  individualName: string;
  discretionaryData: string;
  addendaRecordIndicator: 0 | 1;
  traceNumber: string;
  /** Addenda 05: payment-related information. */
  paymentRelatedInformation?: string;
  return?: NachaReturn;
  change?: NachaChange;
}

export interface NachaBatch {
  line: number;
  header: NachaBatchHeader;
  entries: NachaEntry[];
  control: NachaBatchControl;
}

export interface NachaFile {
  header: NachaFileHeader;
  batches: NachaBatch[];
  control: NachaFileControl;
  /** Records in the file, padding included. */
  recordCount: number;
}
