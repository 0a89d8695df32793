/**
 * What the NACHA module reports. A builder refuses its input with a NachaError naming the input
 * field; a reader refuses a file with a NachaError naming the line and the rule, the same line and
 * rule validateNachaFile lists as a NachaProblem.
 */

/** One broken rule of a file: where (1-based line, 0 for the file as a whole), which rule, why. */
export interface NachaProblem {
  line: number;
  rule: NachaRule;
  message: string;
}

/** The rules a file is checked against; each is checked in one place (inspect.ts). */
export type NachaRule =
  | 'not-nacha'
  | 'record-length'
  | 'record-type'
  | 'record-order'
  | 'truncated'
  | 'blocking'
  | 'charset'
  | 'required'
  | 'numeric'
  | 'date'
  | 'constant'
  | 'routing-check-digit'
  | 'service-class'
  | 'sec-code'
  | 'transaction-code'
  | 'amount'
  | 'addenda'
  | 'trace-number'
  | 'batch-number'
  | 'batch-control'
  | 'entry-hash'
  | 'file-control';

export class NachaError extends Error {
  override readonly name = 'NachaError';
  constructor(
    /** The input field (builder) or record field (reader) at fault, e.g. `batches[0].entries[2].amount`. */
    readonly field: string,
    message: string,
    /** The problem in a file being read: its line and rule. Absent for a builder's input errors. */
    readonly problem?: NachaProblem,
  ) {
    super(problem ? `line ${problem.line}: ${message} [${problem.rule}]` : `${field}: ${message}`);
  }
}
