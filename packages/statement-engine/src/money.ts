// Amounts are carried as integer paise in plain numbers. The largest amount a field holds (DEC 15:
// 999999999999.99) is 1e14 paise, far inside Number.MAX_SAFE_INTEGER, so sums stay exact; totals are checked
// against the safe range before they are written.

export const MAX_AMOUNT_PAISE = 99999999999999; // 999999999999.99 rupees

const DECIMAL = /^(-?)(\d+)(?:\.(\d{1,2}))?$/;

/**
 * Integer paise for a JSON number with at most two decimals, or NaN. The decimal text of the number (the
 * shortest round-trip form) is read exactly, so 9164.6 is 916460 paise and 0.105 is rejected; float noise
 * far below a paisa is forgiven (see nearPaise).
 */
export function parsePaise(value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return Number.NaN;
  if (Number.isInteger(value)) {
    return Math.abs(value) <= MAX_AMOUNT_PAISE / 100 ? value * 100 : Number.NaN;
  }
  const m = DECIMAL.exec(String(value));
  if (!m) return nearPaise(value);
  const whole = Number(m[2]);
  const fraction = m[3] === undefined ? 0 : m[3].length === 1 ? Number(m[3]) * 10 : Number(m[3]);
  const paise = whole * 100 + fraction;
  if (paise > MAX_AMOUNT_PAISE) return Number.NaN;
  return m[1] === '-' ? -paise : paise;
}

/**
 * A number with float noise past the paise (45823 * 0.2 = 9164.600000000002) is the paise value it is within
 * a thousandth of a paisa of; anything else with more than two decimals is refused.
 */
function nearPaise(value: number): number {
  const scaled = value * 100;
  const paise = Math.round(scaled);
  if (Math.abs(scaled - paise) > 0.001 || Math.abs(paise) > MAX_AMOUNT_PAISE) return Number.NaN;
  return paise === 0 ? 0 : paise;
}

/** Why parsePaise refused a value, for the problem message (called only on failure). */
export function describeAmountError(value: unknown): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return 'is not a number';
  if (Math.abs(value) > MAX_AMOUNT_PAISE / 100) return 'is larger than 999999999999.99';
  return 'has more than two decimals';
}

/** 1234.5 rupees -> "1234.50"; negative amounts keep their sign ("-12.00"). */
export function formatPaise(paise: number): string {
  if (paise === 0) return '0.00';
  const negative = paise < 0;
  const abs = negative ? -paise : paise;
  const rupees = Math.floor(abs / 100);
  const rest = abs - rupees * 100;
  return `${negative ? '-' : ''}${rupees}.${rest < 10 ? '0' : ''}${rest}`;
}

const rates = new Map<number, string>();

/** Rates are carried in ten-thousandths of a percent: 100000 -> "10.0000". (Memoised: rates repeat.) */
export function formatRate(tenThousandths: number): string {
  let text = rates.get(tenThousandths);
  if (text === undefined) {
    const whole = Math.floor(tenThousandths / 10000);
    const rest = tenThousandths - whole * 10000;
    text = `${whole}.${String(rest).padStart(4, '0')}`;
    if (rates.size > 10000) rates.clear();
    rates.set(tenThousandths, text);
  }
  return text;
}

/** tax / amount as a percentage, rounded half-up to four decimals, in ten-thousandths. */
export function rateOf(taxPaise: number, amountPaise: number): number {
  if (amountPaise <= 0 || taxPaise <= 0) return 0;
  return Math.round((taxPaise * 1000000) / amountPaise);
}

/** A percentage given as a JSON number (e.g. 7.5) in ten-thousandths, or NaN when it has more than 4 decimals. */
export function parseRate(value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 100) return Number.NaN;
  const m = /^(\d+)(?:\.(\d{1,4}))?$/.exec(String(value));
  if (!m) return Number.NaN;
  return Number(m[1]) * 10000 + Number((m[2] ?? '').padEnd(4, '0'));
}
