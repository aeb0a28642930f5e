// Calendar dates as integers yyyymmdd: cheap to compare and to format, no time zone once converted.
// Workbook dates are epoch milliseconds; the vendor's samples are midnights in India Standard Time
// (UTC+05:30, no daylight saving), so the calendar date is read in IST.

export type CivilDate = number;

const IST_OFFSET_MS = 5.5 * 60 * 60 * 1000;

export function civilDate(year: number, month: number, day: number): CivilDate {
  return year * 10000 + month * 100 + day;
}

const DAY_MS = 86400000;
let lastMs = Number.NaN;
let lastDate = 0;

/** Calendar date in IST of an epoch, by integer arithmetic (days -> civil date, proleptic Gregorian). */
export function fromEpochMillis(ms: number): CivilDate {
  if (ms === lastMs) return lastDate;
  const days = Math.floor((ms + IST_OFFSET_MS) / DAY_MS);
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  lastMs = ms;
  lastDate = civilDate(year, month, day);
  return lastDate;
}

export function fromDate(date: Date): CivilDate {
  return fromEpochMillis(date.getTime());
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

const formatted = new Map<CivilDate, string>();

/** ddmmyyyy, the only date format the FVU reads. (Memoised: a statement has few distinct dates.) */
export function formatDdMmYyyy(date: CivilDate): string {
  let text = formatted.get(date);
  if (text === undefined) {
    const d = dayOf(date);
    const m = monthOf(date);
    text = `${d < 10 ? '0' : ''}${d}${m < 10 ? '0' : ''}${m}${yearOf(date)}`;
    if (formatted.size > 10000) formatted.clear();
    formatted.set(date, text);
  }
  return text;
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
