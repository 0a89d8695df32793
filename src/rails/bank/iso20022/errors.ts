/**
 * The two ways an ISO 20022 file can go wrong here. Input we were asked to write is refused with
 * the field at fault, so the caller can fix (or reject) that one payment; a file we were asked to
 * read is refused as a whole with a code the ingest pipeline can file as an exception.
 */

/** Builder input that cannot become a valid file; `field` is a path into the input, e.g. `payments[3].amount`. */
export class IsoInputError extends Error {
  override readonly name = 'IsoInputError';
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(`${field}: ${reason}`);
  }
}

export type IsoParseErrorCode =
  /** Not XML at all, or XML that is cut off or malformed. */
  | 'NOT_WELL_FORMED'
  /** Well-formed XML whose root is not an ISO 20022 Document of a message this module knows. */
  | 'UNKNOWN_NAMESPACE'
  /** A known ISO 20022 message, but not the one the caller asked to parse. */
  | 'WRONG_MESSAGE'
  /** An element we need is absent or empty. */
  | 'MISSING_ELEMENT'
  /** A value is present but cannot be read exactly (an amount with too many decimals, a bad code). */
  | 'BAD_VALUE';

/** A file we read that cannot be used; nothing of it is returned. */
export class IsoParseError extends Error {
  override readonly name = 'IsoParseError';
  constructor(
    readonly code: IsoParseErrorCode,
    message: string,
    /** Where in the document, as element names from the message root, when known. */
    readonly path?: string,
  ) {
    super(path ? `${message} (at ${path})` : message);
  }
}
