/**
 * A bank's calendar: which days it processes and when each window of a format closes, in its own
 * time zone. Pure functions over the BankSchedule (profile.ts); no clock is read, the caller passes
 * `now`.
 *
 * Cut-offs are wall times at the bank ("16:30 in New York"); the instant they stand for moves with
 * daylight saving time, so every conversion goes through the zone's rules as Intl knows them, never
 * through a fixed offset. Dates are the bank's local dates as YYYY-MM-DD text: the same text the
 * holidays list and the files' effective and execution dates use.
 */
import type { BankSchedule, Cutoff, PayoutFormat } from './profile.js';

export interface Window {
  /** The instant the window closes: payouts queued before it go in its file. */
  cutoffAt: Date;
  /** The bank's local date of the cut-off (YYYY-MM-DD), a business day. */
  localDate: string;
  /** NACHA same-day window. */
  sameDay: boolean;
  /**
   * NACHA: the effective entry date (the cut-off's day for a same-day window, else the next business
   * day). ISO 20022: the requested execution date, the cut-off's business day.
   */
  effectiveDate: string;
}

export class CalendarError extends Error {
  override readonly name = 'CalendarError';
}

/** A schedule whose every day is a holiday would be searched forever; no bank closes for a year. */
const MAX_DAYS_AHEAD = 366;
const DAY_MS = 86_400_000;

// Formatters are costly to build and a worker asks for the same zones all day.
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** The wall clock at the bank at an instant. */
function wallTimeAt(instant: number, timeZone: string): WallTime {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(instant))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour, minute: parts.minute, second: parts.second };
}

/** How far the zone's wall clock is ahead of UTC at an instant (ms, whole seconds). */
function offsetAt(instant: number, timeZone: string): number {
  const w = wallTimeAt(instant, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - (instant - (((instant % 1000) + 1000) % 1000));
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function parseDate(localDate: string): [number, number, number] {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(localDate);
  if (!m) throw new CalendarError(`a local date must be YYYY-MM-DD, got ${JSON.stringify(localDate)}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

/** The bank's local date (YYYY-MM-DD) at an instant. */
export function localDateAt(timeZone: string, instant: Date): string {
  const w = wallTimeAt(instant.getTime(), timeZone);
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}`;
}

/** The calendar day n days after a local date (n may be negative). */
export function addDays(localDate: string, n: number): string {
  const [y, m, d] = parseDate(localDate);
  return new Date(Date.UTC(y, m - 1, d) + n * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The instant at which the bank's wall clock shows `time` (HH:MM) on `localDate`. Across a change
 * of the clocks, as calendars do (RFC 5545, Temporal's "compatible"): a wall time that occurs twice
 * (clocks turned back) is its first occurrence; one that does not occur (clocks turned forward) is
 * moved forward by the length of the gap (02:30 on a night that skips 02:00–03:00 is 03:30).
 */
export function zonedTimeToInstant(timeZone: string, localDate: string, time: string): Date {
  const [y, mo, d] = parseDate(localDate);
  const t = /^(\d{2}):(\d{2})$/.exec(time);
  if (!t) throw new CalendarError(`a time must be HH:MM, got ${JSON.stringify(time)}`);
  const wall = Date.UTC(y, mo - 1, d, Number(t[1]), Number(t[2]));
  // Zones change their offset at most once within a few hours: the offsets a day before and a day
  // after the wall time are the only two that can apply to it.
  const before = offsetAt(wall - DAY_MS, timeZone);
  const after = offsetAt(wall + DAY_MS, timeZone);
  const candidates = [...new Set([before, after])]
    .map((offset) => wall - offset)
    .filter((instant) => instant + offsetAt(instant, timeZone) === wall)
    .sort((a, b) => a - b);
  if (candidates.length) return new Date(candidates[0]);
  // In the gap: read with the offset in force before the change, the wall time lands after it.
  return new Date(wall - before);
}

/** Saturdays, Sundays and the schedule's holidays are not business days. */
export function isBusinessDay(schedule: BankSchedule, localDate: string): boolean {
  const [y, m, d] = parseDate(localDate);
  const weekday = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
  if (weekday === 0 || weekday === 6) return false;
  return !schedule.holidays.includes(localDate);
}

/** The first business day after a local date. */
export function nextBusinessDay(schedule: BankSchedule, localDate: string): string {
  let day = localDate;
  for (let i = 0; i < MAX_DAYS_AHEAD; i++) {
    day = addDays(day, 1);
    if (isBusinessDay(schedule, day)) return day;
  }
  throw new CalendarError(`no business day in the ${MAX_DAYS_AHEAD} days after ${localDate}: check the holidays of the schedule`);
}

function cutoffsOf(schedule: BankSchedule, format: PayoutFormat): Cutoff[] {
  const list = schedule.cutoffs[format];
  if (!list || list.length === 0) throw new CalendarError(`the schedule has no cut-off for ${format}`);
  return list;
}

function windowOf(schedule: BankSchedule, format: PayoutFormat, localDate: string, cutoff: Cutoff, cutoffAt: Date): Window {
  const sameDay = format === 'NACHA' && cutoff.sameDay === true;
  // An ACH entry settles on its effective date: same-day windows that day, the others the next
  // business day. A pain.001 file asks for execution on the day it is sent.
  const effectiveDate = format === 'NACHA' && !sameDay ? nextBusinessDay(schedule, localDate) : localDate;
  return { cutoffAt, localDate, sameDay, effectiveDate };
}

/**
 * The first window of `format` closing strictly after `now`, on a business day: later the same day,
 * or on the following business days (weekends and holidays skipped). A payout queued at or after a
 * cut-off waits for the next one.
 */
export function nextWindow(schedule: BankSchedule, format: PayoutFormat, now: Date): Window {
  const cutoffs = cutoffsOf(schedule, format);
  let day = localDateAt(schedule.timeZone, now);
  for (let i = 0; i <= MAX_DAYS_AHEAD; i++, day = addDays(day, 1)) {
    if (!isBusinessDay(schedule, day)) continue;
    // In the order of their instants: on the night the clocks go forward a cut-off in the gap moves
    // past the next one (02:30 becomes 03:30, after 03:00).
    const today = cutoffs
      .map((cutoff) => ({ cutoff, at: zonedTimeToInstant(schedule.timeZone, day, cutoff.time) }))
      .sort((a, b) => a.at.getTime() - b.at.getTime());
    const next = today.find(({ at }) => at.getTime() > now.getTime());
    if (next) return windowOf(schedule, format, day, next.cutoff, next.at);
  }
  throw new CalendarError(`no ${format} window in the ${MAX_DAYS_AHEAD} days after ${now.toISOString()}: check the holidays of the schedule`);
}

/**
 * Every window of `format` closing in (from, to], in order: what a worker that was not running
 * (a restart, a long pause) missed since it last looked at `from`, each still to be built.
 */
export function windowsBetween(schedule: BankSchedule, format: PayoutFormat, from: Date, to: Date): Window[] {
  const out: Window[] = [];
  if (to.getTime() <= from.getTime()) return out;
  let after = from;
  for (;;) {
    const w = nextWindow(schedule, format, after);
    if (w.cutoffAt.getTime() > to.getTime()) return out;
    out.push(w);
    after = w.cutoffAt;
  }
}
