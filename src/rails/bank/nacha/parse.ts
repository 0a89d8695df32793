/**
 * Reads a NACHA file: ours (round trip of buildNachaFile) and what the bank sends back — returns
 * (entries with an addenda 99) and notifications of change (COR batches, addenda 98). The file is
 * refused whole on the first broken rule, with its line and rule; see inspect.ts for what is
 * tolerated and checked.
 */

import { NachaError } from './errors.js';
import { inspectNachaFile } from './inspect.js';
import type { NachaBatchHeader, NachaChange, NachaEntry, NachaFile, NachaReturn } from './types.js';

export function parseNachaFile(text: string): NachaFile {
  if (typeof text !== 'string') throw new NachaError('file', 'a NACHA file is text');
  const { file, problems } = inspectNachaFile(text);
  if (problems.length > 0) {
    const p = problems[0];
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? 's' : ''})` : '';
    throw new NachaError(`line ${p.line}`, p.message + more, p);
  }
  return file!;
}

/** A return with the entry and batch it came in. */
export interface NachaReturnItem extends NachaReturn {
  entry: NachaEntry;
  batch: NachaBatchHeader;
}

/** A notification of change with the entry and batch it came in. */
export interface NachaChangeItem extends NachaChange {
  entry: NachaEntry;
  batch: NachaBatchHeader;
}

/** Every return in a file, in file order. */
export function nachaReturns(file: NachaFile): NachaReturnItem[] {
  return file.batches.flatMap((b) => b.entries.flatMap((entry) => (entry.return ? [{ ...entry.return, entry, batch: b.header }] : [])));
}

/** Every notification of change in a file, in file order. */
export function nachaChanges(file: NachaFile): NachaChangeItem[] {
  return file.batches.flatMap((b) => b.entries.flatMap((entry) => (entry.change ? [{ ...entry.change, entry, batch: b.header }] : [])));
}
