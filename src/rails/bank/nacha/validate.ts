/**
 * Checks a NACHA file against every rule parseNachaFile applies and lists all the problems (line,
 * rule, message), in file order; an empty list means the file is valid. Used before a file is
 * uploaded and by the bank simulator on what it receives.
 */

import type { NachaProblem } from './errors.js';
import { inspectNachaFile } from './inspect.js';

export function validateNachaFile(text: string): NachaProblem[] {
  if (typeof text !== 'string') return [{ line: 0, rule: 'not-nacha', message: 'a NACHA file is text' }];
  return inspectNachaFile(text).problems;
}
