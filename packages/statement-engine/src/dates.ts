// Calendar dates as integers yyyymmdd: cheap to compare and to format, no time zone once converted.
// Workbook dates are epoch milliseconds; the vendor's samples are midnights in India Standard Time
// (UTC+05:30, no daylight saving), so the calendar date is read in IST.

export type CivilDate = number;

const IST_OFFSET_MS = 5.5 * 60 * 60 * 1000;

export function civilDate(year: number, month: number, day: number): CivilDate {
  return year * 10000 + month * 100 + day;
}

export function fromEpochMillis(ms: number): CivilDate {
  const d = new Date(ms + IST_OFFSET_MS);
  return civilDate(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
}

export function fromDate(date: Date): CivilDate {
  return fromEpochMillis(date.getTime());
}

/** Epoch milliseconds of midnight IST on that date (the inverse of fromEpochMillis for midnights). */
export function toEpochMillis(date: CivilDate): number {
  return Date.UTC(yearOf(date), monthOf(date) - 1, dayOf(date)) - IST_OFFSET_MS;
}

export function yearOf(date: CivilDate): number {
  return Math.floor(date / 10000);
}

export function monthOf(date: CivilDate): number {
  return Math.floor(date / 100) % 100;
}

export function dayOf(date: CivilDate): number {
  return date % 100;
}

/** ddmmyyyy, the only date format the FVU reads. */
export function formatDdMmYyyy(date: CivilDate): string {
  const d = dayOf(date);
  const m = monthOf(date);
  return `${d < 10 ? '0' : ''}${d}${m < 10 ? '0' : ''}${m}${yearOf(date)}`;
}

/** dd/mm/yyyy for messages people read. */
export function formatForPeople(date: CivilDate): string {
  const f = formatDdMmYyyy(date);
  return `${f.slice(0, 2)}/${f.slice(2, 4)}/${f.slice(4)}`;
}

/** True when ms is an integer epoch that maps to a real calendar date in a sane range (years 1900-2199). */
export function isPlausibleEpoch(ms: unknown): ms is number {
  return typeof ms === 'number' && Number.isInteger(ms) && ms > -2208988800000 && ms < 7258118400000;
}
