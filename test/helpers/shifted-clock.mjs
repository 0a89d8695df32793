// Loaded into a server process with NODE_OPTIONS=--import: moves its clock (Date.now and new Date())
// by CORRIDOR_TEST_CLOCK_OFFSET_MS. Used by test/e2e/bank-rails.test.ts to run the bank's calendar
// on a business day when the real day is a weekend; whole days only, so cut-offs stay on the minute.
const offset = Number(process.env.CORRIDOR_TEST_CLOCK_OFFSET_MS || 0);
if (offset) {
  const RealDate = Date;
  class ShiftedDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(RealDate.now() + offset);
      else super(...args);
    }
    static now() {
      return RealDate.now() + offset;
    }
  }
  globalThis.Date = ShiftedDate;
}
