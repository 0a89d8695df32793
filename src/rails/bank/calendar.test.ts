import { describe, expect, it } from 'vitest';
import { addDays, CalendarError, isBusinessDay, localDateAt, nextBusinessDay, nextWindow, windowsBetween, zonedTimeToInstant } from './calendar.js';
import type { BankSchedule } from './profile.js';

// A US bank with two same-day ACH windows and a next-day one; US holidays of the dates below.
const newYork: BankSchedule = {
  timeZone: 'America/New_York',
  cutoffs: { NACHA: [{ time: '10:15', sameDay: true }, { time: '14:00', sameDay: true }, { time: '16:30' }] },
  holidays: ['2026-11-26', '2026-12-25', '2027-01-18'],
};
// A euro bank sending SEPA files twice a day; Good Friday and Easter Monday 2027.
const berlin: BankSchedule = {
  timeZone: 'Europe/Berlin',
  cutoffs: { PAIN001_SEPA: [{ time: '09:00' }, { time: '15:30' }] },
  holidays: ['2026-12-25', '2027-03-26', '2027-03-29'],
};

const at = (iso: string) => new Date(iso);
const iso = (d: Date) => d.toISOString();

describe('zonedTimeToInstant', () => {
  it('reads a wall time with the offset in force that day, in winter and in summer', () => {
    expect(iso(zonedTimeToInstant('America/New_York', '2026-12-01', '16:30'))).toBe('2026-12-01T21:30:00.000Z'); // EST, UTC-5
    expect(iso(zonedTimeToInstant('America/New_York', '2026-07-01', '16:30'))).toBe('2026-07-01T20:30:00.000Z'); // EDT, UTC-4
    expect(iso(zonedTimeToInstant('Europe/Berlin', '2026-12-01', '15:30'))).toBe('2026-12-01T14:30:00.000Z'); // CET, UTC+1
    expect(iso(zonedTimeToInstant('Europe/Berlin', '2026-07-01', '15:30'))).toBe('2026-07-01T13:30:00.000Z'); // CEST, UTC+2
    expect(iso(zonedTimeToInstant('Asia/Kolkata', '2026-07-01', '00:00'))).toBe('2026-06-30T18:30:00.000Z');
  });

  it('on the days the clocks change: before and after the change, a skipped time moves forward, a repeated one is the first', () => {
    // New York, clocks forward at 02:00 on 2026-03-08 and back at 02:00 on 2026-11-01.
    expect(iso(zonedTimeToInstant('America/New_York', '2026-03-08', '01:59'))).toBe('2026-03-08T06:59:00.000Z');
    expect(iso(zonedTimeToInstant('America/New_York', '2026-03-08', '02:30'))).toBe('2026-03-08T07:30:00.000Z'); // = 03:30 EDT
    expect(iso(zonedTimeToInstant('America/New_York', '2026-03-08', '03:00'))).toBe('2026-03-08T07:00:00.000Z');
    expect(iso(zonedTimeToInstant('America/New_York', '2026-03-08', '16:30'))).toBe('2026-03-08T20:30:00.000Z');
    expect(iso(zonedTimeToInstant('America/New_York', '2026-11-01', '00:30'))).toBe('2026-11-01T04:30:00.000Z');
    expect(iso(zonedTimeToInstant('America/New_York', '2026-11-01', '01:30'))).toBe('2026-11-01T05:30:00.000Z'); // the EDT 01:30
    expect(iso(zonedTimeToInstant('America/New_York', '2026-11-01', '02:00'))).toBe('2026-11-01T07:00:00.000Z');
    expect(iso(zonedTimeToInstant('America/New_York', '2026-11-01', '16:30'))).toBe('2026-11-01T21:30:00.000Z');
    // Berlin, clocks forward at 02:00 on 2026-03-29 and back at 03:00 on 2026-10-25.
    expect(iso(zonedTimeToInstant('Europe/Berlin', '2026-03-29', '01:30'))).toBe('2026-03-29T00:30:00.000Z');
    expect(iso(zonedTimeToInstant('Europe/Berlin', '2026-03-29', '02:30'))).toBe('2026-03-29T01:30:00.000Z'); // = 03:30 CEST
    expect(iso(zonedTimeToInstant('Europe/Berlin', '2026-03-29', '09:00'))).toBe('2026-03-29T07:00:00.000Z');
    expect(iso(zonedTimeToInstant('Europe/Berlin', '2026-10-25', '02:30'))).toBe('2026-10-25T00:30:00.000Z'); // the CEST 02:30
    expect(iso(zonedTimeToInstant('Europe/Berlin', '2026-10-25', '03:00'))).toBe('2026-10-25T02:00:00.000Z');
    expect(iso(zonedTimeToInstant('Europe/Berlin', '2026-10-25', '09:00'))).toBe('2026-10-25T08:00:00.000Z');
  });

  it('answers an instant whose wall clock shows the time asked, on every day of a year', () => {
    for (const timeZone of ['America/New_York', 'Europe/Berlin', 'Australia/Sydney', 'Pacific/Chatham']) {
      // Swedish dates and times read YYYY-MM-DD HH:MM.
      const wallClock = new Intl.DateTimeFormat('sv-SE', { timeZone, dateStyle: 'short', timeStyle: 'short' });
      for (let day = '2026-01-01'; day < '2027-01-01'; day = addDays(day, 1)) {
        for (const time of ['00:00', '09:00', '16:30', '23:59']) {
          const instant = zonedTimeToInstant(timeZone, day, time);
          expect(wallClock.format(instant), `${timeZone} ${day} ${time}`).toBe(`${day} ${time}`);
        }
      }
    }
  });
});

describe('isBusinessDay', () => {
  it('is false on Saturdays, Sundays and holidays', () => {
    expect(isBusinessDay(newYork, '2026-11-25')).toBe(true); // Wednesday
    expect(isBusinessDay(newYork, '2026-11-26')).toBe(false); // Thanksgiving
    expect(isBusinessDay(newYork, '2026-11-27')).toBe(true); // Friday
    expect(isBusinessDay(newYork, '2026-11-28')).toBe(false); // Saturday
    expect(isBusinessDay(newYork, '2026-11-29')).toBe(false); // Sunday
    expect(isBusinessDay(berlin, '2026-11-26')).toBe(true); // another bank's holiday is not this one's
    expect(nextBusinessDay(newYork, '2026-11-25')).toBe('2026-11-27');
    expect(nextBusinessDay(newYork, '2027-01-15')).toBe('2027-01-19'); // Friday → Tuesday after a Monday holiday
  });

  it('refuses a date that is not YYYY-MM-DD', () => {
    expect(() => isBusinessDay(newYork, '2026-1-5')).toThrow(CalendarError);
  });
});

describe('nextWindow', () => {
  it('a payout queued one minute after a cut-off waits for the next window of the day', () => {
    // Wednesday 2026-12-02, EST: the 10:15 window closed at 15:15Z.
    expect(nextWindow(newYork, 'NACHA', at('2026-12-02T15:16:00Z'))).toEqual({
      cutoffAt: at('2026-12-02T19:00:00Z'),
      localDate: '2026-12-02',
      sameDay: true,
      effectiveDate: '2026-12-02',
    });
  });

  it('a cut-off is strictly after now: queued at the very instant, the payout takes the next one', () => {
    expect(nextWindow(newYork, 'NACHA', at('2026-12-02T14:59:59.999Z')).cutoffAt).toEqual(at('2026-12-02T15:15:00Z'));
    expect(nextWindow(newYork, 'NACHA', at('2026-12-02T15:15:00Z')).cutoffAt).toEqual(at('2026-12-02T19:00:00Z'));
  });

  it('the next-day ACH window is effective the next business day', () => {
    expect(nextWindow(newYork, 'NACHA', at('2026-12-02T19:00:00Z'))).toEqual({
      cutoffAt: at('2026-12-02T21:30:00Z'),
      localDate: '2026-12-02',
      sameDay: false,
      effectiveDate: '2026-12-03',
    });
    // The Wednesday before Thanksgiving: effective on Friday.
    expect(nextWindow(newYork, 'NACHA', at('2026-11-25T20:00:00Z')).effectiveDate).toBe('2026-11-27');
  });

  it('Friday after the last cut-off → Monday; Tuesday when Monday is a holiday', () => {
    // Friday 2026-12-04 17:00 in New York.
    expect(nextWindow(newYork, 'NACHA', at('2026-12-04T22:00:00Z'))).toEqual({
      cutoffAt: at('2026-12-07T15:15:00Z'),
      localDate: '2026-12-07',
      sameDay: true,
      effectiveDate: '2026-12-07',
    });
    // Friday 2027-01-15 17:00; Monday the 18th is Martin Luther King Jr. Day.
    expect(nextWindow(newYork, 'NACHA', at('2027-01-15T22:00:00Z'))).toEqual({
      cutoffAt: at('2027-01-19T15:15:00Z'),
      localDate: '2027-01-19',
      sameDay: true,
      effectiveDate: '2027-01-19',
    });
    // The same Friday's next-day window is effective on the Tuesday too.
    expect(nextWindow(newYork, 'NACHA', at('2027-01-15T20:00:00Z'))).toMatchObject({ localDate: '2027-01-15', sameDay: false, effectiveDate: '2027-01-19' });
  });

  it('skips a holiday and a weekend queued on them, at any hour', () => {
    expect(nextWindow(newYork, 'NACHA', at('2026-11-26T12:00:00Z')).localDate).toBe('2026-11-27'); // Thanksgiving morning
    expect(nextWindow(newYork, 'NACHA', at('2026-11-28T15:00:00Z')).localDate).toBe('2026-11-30'); // Saturday
    // Friday 23:30 in New York is already Saturday in UTC: the bank's day is what counts.
    expect(nextWindow(newYork, 'NACHA', at('2026-12-05T04:30:00Z')).localDate).toBe('2026-12-07');
  });

  it('ISO 20022: the requested execution date is the business day of the cut-off', () => {
    expect(nextWindow(berlin, 'PAIN001_SEPA', at('2026-12-02T09:00:00Z'))).toEqual({
      cutoffAt: at('2026-12-02T14:30:00Z'),
      localDate: '2026-12-02',
      sameDay: false,
      effectiveDate: '2026-12-02',
    });
    // Thursday before Easter 2027 after the last cut-off: Good Friday and Easter Monday are holidays.
    expect(nextWindow(berlin, 'PAIN001_SEPA', at('2027-03-25T15:00:00Z'))).toEqual({
      cutoffAt: at('2027-03-30T07:00:00Z'),
      localDate: '2027-03-30',
      sameDay: false,
      effectiveDate: '2027-03-30',
    });
  });

  it('New York across both switches of 2026: Friday in one offset, Monday in the other', () => {
    // Clocks forward on Sunday 2026-03-08: Friday's 16:30 is EST, Monday's EDT.
    expect(nextWindow(newYork, 'NACHA', at('2026-03-06T21:00:00Z')).cutoffAt).toEqual(at('2026-03-06T21:30:00Z'));
    expect(nextWindow(newYork, 'NACHA', at('2026-03-06T21:30:00Z')).cutoffAt).toEqual(at('2026-03-09T14:15:00Z'));
    expect(nextWindow(newYork, 'NACHA', at('2026-03-09T18:00:00Z')).cutoffAt).toEqual(at('2026-03-09T20:30:00Z'));
    // Clocks back on Sunday 2026-11-01.
    expect(nextWindow(newYork, 'NACHA', at('2026-10-30T20:00:00Z')).cutoffAt).toEqual(at('2026-10-30T20:30:00Z'));
    expect(nextWindow(newYork, 'NACHA', at('2026-10-30T20:30:00Z')).cutoffAt).toEqual(at('2026-11-02T15:15:00Z'));
    expect(nextWindow(newYork, 'NACHA', at('2026-11-02T19:00:00Z')).cutoffAt).toEqual(at('2026-11-02T21:30:00Z'));
  });

  it('Berlin across both switches of 2026', () => {
    // Clocks forward on Sunday 2026-03-29.
    expect(nextWindow(berlin, 'PAIN001_SEPA', at('2026-03-27T14:00:00Z')).cutoffAt).toEqual(at('2026-03-27T14:30:00Z'));
    expect(nextWindow(berlin, 'PAIN001_SEPA', at('2026-03-27T14:30:00Z')).cutoffAt).toEqual(at('2026-03-30T07:00:00Z'));
    // Clocks back on Sunday 2026-10-25.
    expect(nextWindow(berlin, 'PAIN001_SEPA', at('2026-10-23T13:00:00Z')).cutoffAt).toEqual(at('2026-10-23T13:30:00Z'));
    expect(nextWindow(berlin, 'PAIN001_SEPA', at('2026-10-23T13:30:00Z')).cutoffAt).toEqual(at('2026-10-26T08:00:00Z'));
  });

  it('on a business day the clocks go forward, a cut-off in the gap moves past the next one and the windows keep their order', () => {
    // Cairo turns its clocks from 00:00 to 01:00 on Friday 2026-04-24: 00:30 does not occur that
    // night and reads as 01:30, after the 01:00 cut-off.
    const cairo: BankSchedule = { timeZone: 'Africa/Cairo', cutoffs: { PAIN001: [{ time: '00:30' }, { time: '01:00' }] }, holidays: [] };
    expect(windowsBetween(cairo, 'PAIN001', at('2026-04-23T12:00:00Z'), at('2026-04-24T12:00:00Z')).map((w) => iso(w.cutoffAt))).toEqual([
      '2026-04-23T22:00:00.000Z', // 01:00 EEST
      '2026-04-23T22:30:00.000Z', // 00:30, moved to 01:30 EEST
    ]);
    expect(nextWindow(cairo, 'PAIN001', at('2026-04-23T12:00:00Z')).cutoffAt).toEqual(at('2026-04-23T22:00:00Z'));
  });

  it('refuses a format without cut-offs', () => {
    expect(() => nextWindow(berlin, 'NACHA', at('2026-12-02T09:00:00Z'))).toThrow('the schedule has no cut-off for NACHA');
  });

  it('refuses a schedule without a business day in the coming year', () => {
    const closed: BankSchedule = { ...berlin, holidays: Array.from({ length: 400 }, (_, i) => addDays('2026-12-01', i)) };
    expect(() => nextWindow(closed, 'PAIN001_SEPA', at('2026-12-02T09:00:00Z'))).toThrow(CalendarError);
  });
});

describe('windowsBetween', () => {
  it('lists every window a worker asleep from Friday to Tuesday missed, in order, over a Monday holiday', () => {
    // Friday 2027-01-15 09:00 EST to Tuesday 2027-01-19 14:00 EST.
    const missed = windowsBetween(newYork, 'NACHA', at('2027-01-15T14:00:00Z'), at('2027-01-19T19:00:00Z'));
    expect(missed.map((w) => [iso(w.cutoffAt), w.localDate, w.sameDay, w.effectiveDate])).toEqual([
      ['2027-01-15T15:15:00.000Z', '2027-01-15', true, '2027-01-15'],
      ['2027-01-15T19:00:00.000Z', '2027-01-15', true, '2027-01-15'],
      ['2027-01-15T21:30:00.000Z', '2027-01-15', false, '2027-01-19'],
      ['2027-01-19T15:15:00.000Z', '2027-01-19', true, '2027-01-19'],
      // (from, to]: the window closing at `to` is in, the one at `from` would not be.
      ['2027-01-19T19:00:00.000Z', '2027-01-19', true, '2027-01-19'],
    ]);
    expect(windowsBetween(newYork, 'NACHA', at('2027-01-15T15:15:00Z'), at('2027-01-15T19:00:00Z')).map((w) => iso(w.cutoffAt))).toEqual([
      '2027-01-15T19:00:00.000Z',
    ]);
  });

  it('is empty when nothing closed, or when the interval is empty', () => {
    expect(windowsBetween(newYork, 'NACHA', at('2026-12-05T12:00:00Z'), at('2026-12-06T12:00:00Z'))).toEqual([]); // a weekend
    expect(windowsBetween(newYork, 'NACHA', at('2026-12-02T20:00:00Z'), at('2026-12-02T12:00:00Z'))).toEqual([]);
  });

  it('across the change to summer time in Berlin, a week of windows in their local times', () => {
    const week = windowsBetween(berlin, 'PAIN001_SEPA', at('2026-03-26T00:00:00Z'), at('2026-04-01T00:00:00Z'));
    expect(week.map((w) => `${w.localDate} ${new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', timeStyle: 'short' }).format(w.cutoffAt)}`)).toEqual(
      [
        '2026-03-26 09:00',
        '2026-03-26 15:30',
        '2026-03-27 09:00',
        '2026-03-27 15:30',
        '2026-03-30 09:00',
        '2026-03-30 15:30',
        '2026-03-31 09:00',
        '2026-03-31 15:30',
      ],
    );
    expect(localDateAt('Europe/Berlin', week[4].cutoffAt)).toBe('2026-03-30');
  });
});
