/**
 * Indian UPI virtual payment address (VPA), `handle@psp`. Hand-written: no maintained library.
 * The local part follows NPCI's allowed characters; the PSP handle is letters only (okaxis, ybl, paytm).
 */
const VPA = /^[a-zA-Z0-9.\-_]{2,}@[a-zA-Z]{2,}$/;

export function validateUpiVpa(value: string): string | null {
  if (value.length < 2 || value.length > 256) return 'UPI VPA must be 2 to 256 characters';
  if (!VPA.test(value)) return 'UPI VPA must look like name@handle (handle letters only)';
  return null;
}
