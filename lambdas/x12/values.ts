/**
 * Element values: X12 text to typed Guide JSON values and back.
 *
 * - `Nn` numeric with n implied decimals: "12345" (N2) <-> 123.45
 * - `R` decimal: "100.00" <-> 100
 * - `DT` CCYYMMDD <-> "YYYY-MM-DD" (YYMMDD for six-character dates)
 * - `TM` HHMM[SS[D[D]]] <-> "HH:MM[:SS[.D[D]]]"
 * - everything else stays a string.
 *
 * Generation writes numbers canonically: no superfluous leading zeros or trailing decimal
 * zeros, except leading zeros the element's minimum length needs.
 */
import type { CompiledElement } from './compiled-guide';
import { validDate } from './envelope';

export type ElementValue = string | number;

const INT = /^-?[0-9]+$/;
const DECIMAL = /^-?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:E-?[0-9]+)?$/;
const MAX_SAFE_DIGITS = 15;

/**
 * One pass over a numeric value: the number of digits that count for its length (sign, decimal
 * point and exponent excluded), or -1 when it is not a number of the kind: an integer
 * (`decimal` false) or a decimal with optional point and exponent (`decimal` true).
 */
export function scanNumber(raw: string, decimal: boolean): number {
  const n = raw.length;
  let i = 0;
  if (n > 0 && raw.charCodeAt(0) === 45) i = 1; // '-'
  let digits = 0;
  let point = false;
  for (; i < n; i++) {
    const c = raw.charCodeAt(i);
    if (c >= 48 && c <= 57) digits++;
    else if (c === 46 && decimal && !point)
      point = true; // '.'
    else if (c === 69 && decimal && digits > 0) {
      // exponent: E, optional '-', at least one digit
      let j = i + 1;
      if (j < n && raw.charCodeAt(j) === 45) j++;
      if (j >= n) return -1;
      for (; j < n; j++) {
        const d = raw.charCodeAt(j);
        if (d < 48 || d > 57) return -1;
      }
      return digits;
    } else return -1;
  }
  return digits > 0 ? digits : -1;
}

/** Number of digits counted for an element's length: sign, decimal point and exponent excluded. */
export function numericLength(raw: string): number {
  let n = 0;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 69) break; // 'E': the exponent does not count
    if (c >= 48 && c <= 57) n++;
  }
  return n;
}

export function isNumericType(e: CompiledElement): boolean {
  return e.decimals >= 0 || e.type === 'R';
}

/** Whether raw text is well formed for the element's type (length and codes not checked). */
export function wellFormed(e: CompiledElement, raw: string): boolean {
  if (e.decimals >= 0) return scanNumber(raw, false) >= 0;
  switch (e.type) {
    case 'R':
      return scanNumber(raw, true) >= 0;
    case 'DT':
      return parseDate(raw) !== undefined;
    case 'TM':
      return parseTime(raw) !== undefined;
    default:
      return true;
  }
}

export function parseDate(raw: string): string | undefined {
  if (raw.length === 8) {
    if (!INT.test(raw) || raw[0] === '-') return undefined;
    const y = Number(raw.slice(0, 4));
    const m = Number(raw.slice(4, 6));
    const d = Number(raw.slice(6, 8));
    if (!validDate(y, m, d)) return undefined;
    return `${raw.slice(0, 4)}-${raw.slice(4, 6)}-${raw.slice(6, 8)}`;
  }
  if (raw.length === 6) {
    if (!INT.test(raw) || raw[0] === '-') return undefined;
    const yy = Number(raw.slice(0, 2));
    // six-digit years: 00-49 -> 20xx, 50-99 -> 19xx
    const century = yy < 50 ? '20' : '19';
    const y = Number(century + raw.slice(0, 2));
    if (!validDate(y, Number(raw.slice(2, 4)), Number(raw.slice(4, 6)))) return undefined;
    return `${century}${raw.slice(0, 2)}-${raw.slice(2, 4)}-${raw.slice(4, 6)}`;
  }
  return undefined;
}

export function parseTime(raw: string): string | undefined {
  const n = raw.length;
  if (n !== 4 && n !== 6 && n !== 7 && n !== 8) return undefined;
  if (!INT.test(raw) || raw[0] === '-') return undefined;
  const h = Number(raw.slice(0, 2));
  const m = Number(raw.slice(2, 4));
  if (h > 23 || m > 59) return undefined;
  if (n === 4) return `${raw.slice(0, 2)}:${raw.slice(2, 4)}`;
  if (Number(raw.slice(4, 6)) > 59) return undefined;
  const base = `${raw.slice(0, 2)}:${raw.slice(2, 4)}:${raw.slice(4, 6)}`;
  return n === 6 ? base : `${base}.${raw.slice(6)}`;
}

/** 10^0 .. 10^22, the powers of ten a double holds exactly. */
const POW10 = Array.from({ length: 23 }, (_, k) => Number(`1e${k}`));

/**
 * The value of the common numbers without the general string conversion: an optional minus,
 * at most 15 digits and, when `point` allows, one decimal point; `scale` implied decimals more.
 * NaN for anything else (exponents, longer or malformed values: the caller takes the general
 * path). The digits make an integer m below 2^53 and 10^k is exact, so the one rounding of
 * m / 10^k gives the double nearest the decimal value, which is what Number() gives.
 */
function plainNumber(raw: string, point: boolean, scale: number): number {
  const n = raw.length;
  let i = 0;
  let neg = false;
  if (n > 0 && raw.charCodeAt(0) === 45) {
    neg = true;
    i = 1;
  }
  let m = 0;
  let digits = 0;
  let at = -1;
  for (; i < n; i++) {
    const c = raw.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      m = m * 10 + (c - 48);
      digits++;
    } else if (c === 46 && point && at < 0) at = i;
    else return Number.NaN;
  }
  if (digits === 0 || digits > MAX_SAFE_DIGITS) return Number.NaN;
  const k = (at < 0 ? 0 : n - at - 1) + scale;
  const v = k === 0 ? m : m / (POW10[k] as number);
  return neg ? -v : v;
}

/**
 * Converts raw X12 text to its Guide JSON value. Returns undefined when the text is not well
 * formed for the type (the caller reports it and keeps the raw string).
 */
export function toJsonValue(e: CompiledElement, raw: string): ElementValue | undefined {
  if (e.decimals >= 0) {
    const fast = plainNumber(raw, false, e.decimals);
    if (!Number.isNaN(fast)) return fast;
    const count = scanNumber(raw, false);
    if (count < 0) return undefined;
    if (count > MAX_SAFE_DIGITS) return raw;
    if (e.decimals === 0) return Number(raw);
    const neg = raw[0] === '-';
    const digits = (neg ? raw.slice(1) : raw).padStart(e.decimals + 1, '0');
    const text = `${digits.slice(0, digits.length - e.decimals)}.${digits.slice(digits.length - e.decimals)}`;
    return Number(neg ? `-${text}` : text);
  }
  switch (e.type) {
    case 'R': {
      const fast = plainNumber(raw, true, 0);
      if (!Number.isNaN(fast)) return fast;
      const digits = scanNumber(raw, true);
      if (digits < 0) return undefined;
      if (digits > MAX_SAFE_DIGITS) return raw;
      return Number(raw);
    }
    case 'DT':
      return parseDate(raw);
    case 'TM':
      return parseTime(raw);
    default:
      return raw;
  }
}

/** Plain decimal text of a finite number, without exponent. */
function plainDecimal(v: number): string {
  if (!Number.isInteger(v)) {
    // the common case, a few decimal places (prices, amounts), without the general conversion:
    // for |v| < 1e9 two decimals of at most 6 places are further apart than the spacing of
    // doubles, so the first m / 10^k equal to v gives the digits String(v) would give
    const a = v < 0 ? -v : v;
    if (a < 1e9) {
      let scale = 10;
      for (let k = 1; k <= 6; k++) {
        const m = Math.round(a * scale);
        if (m / scale === a) {
          const whole = Math.floor(a);
          const fraction = String(m - whole * scale);
          return `${v < 0 ? '-' : ''}${whole}.${fraction.length < k ? '0'.repeat(k - fraction.length) + fraction : fraction}`;
        }
        scale *= 10;
      }
    }
  }
  let s = String(v);
  if (!s.includes('e')) return s;
  // expand exponent forms such as 1e-7 or 1e+21
  const neg = v < 0;
  const [mant = '0', expText = '0'] = String(Math.abs(v)).split('e');
  const exp = Number(expText);
  const [ip = '0', fp = ''] = mant.split('.');
  const digits = ip + fp;
  const point = ip.length + exp;
  if (point <= 0) s = `0.${'0'.repeat(-point)}${digits}`;
  else if (point >= digits.length) s = digits + '0'.repeat(point - digits.length);
  else s = `${digits.slice(0, point)}.${digits.slice(point)}`;
  return neg ? `-${s}` : s;
}

function padDigits(text: string, min: number): string {
  if (min <= 1 || text.length >= min + 2) return text; // long enough whatever the sign and point
  const neg = text[0] === '-';
  const body = neg ? text.slice(1) : text;
  const len = numericLength(body);
  const padded = len < min ? '0'.repeat(min - len) + body : body;
  return neg ? `-${padded}` : padded;
}

export type FormatResult = { ok: true; text: string } | { ok: false; reason: string };

/** Converts a Guide JSON value to X12 text for the element. */
export function formatValue(e: CompiledElement, value: unknown): FormatResult {
  if (e.decimals >= 0) {
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) return { ok: false, reason: 'must be a finite number' };
      const scaled = Math.round(value * 10 ** e.decimals);
      if (Math.abs(scaled - value * 10 ** e.decimals) > 1e-6 * Math.max(1, Math.abs(scaled))) {
        return { ok: false, reason: `has more than ${e.decimals} decimal places` };
      }
      return { ok: true, text: padDigits(plainDecimal(scaled), e.min) };
    }
    if (typeof value === 'string' && INT.test(value)) return { ok: true, text: value };
    return { ok: false, reason: 'must be a number' };
  }
  switch (e.type) {
    case 'R': {
      if (typeof value === 'number') {
        if (!Number.isFinite(value)) return { ok: false, reason: 'must be a finite number' };
        let text = plainDecimal(value);
        // no superfluous leading zero: 0.5 -> .5, -0.5 -> -.5
        if (text.charCodeAt(0) === 48 && text.charCodeAt(1) === 46) text = text.slice(1);
        else if (text.charCodeAt(0) === 45 && text.charCodeAt(1) === 48 && text.charCodeAt(2) === 46) text = `-${text.slice(2)}`;
        else if (text === '-0') text = '0';
        return { ok: true, text: padDigits(text, e.min) };
      }
      if (typeof value === 'string' && DECIMAL.test(value)) return { ok: true, text: value };
      return { ok: false, reason: 'must be a number' };
    }
    case 'DT': {
      if (typeof value !== 'string') return { ok: false, reason: 'must be a date string YYYY-MM-DD' };
      const m = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/.exec(value);
      const digits = m ? `${m[1]}${m[2]}${m[3]}` : value;
      if (!/^[0-9]{8}$/.test(digits) && !(/^[0-9]{6}$/.test(digits) && e.max === 6)) {
        return { ok: false, reason: 'must be a date YYYY-MM-DD' };
      }
      if (parseDate(digits) === undefined) return { ok: false, reason: 'is not a valid calendar date' };
      return { ok: true, text: e.max === 6 && digits.length === 8 ? digits.slice(2) : digits };
    }
    case 'TM': {
      if (typeof value !== 'string') return { ok: false, reason: 'must be a time string HH:MM or HH:MM:SS' };
      const m = /^([0-9]{2}):([0-9]{2})(?::([0-9]{2})(?:\.([0-9]{1,2}))?)?$/.exec(value);
      const digits = m ? `${m[1]}${m[2]}${m[3] ?? ''}${m[4] ?? ''}` : value;
      if (parseTime(digits) === undefined) return { ok: false, reason: 'is not a valid time HH:MM[:SS]' };
      return { ok: true, text: digits };
    }
    default: {
      if (typeof value === 'string') return { ok: true, text: value };
      if (typeof value === 'number' && Number.isFinite(value)) {
        const text = plainDecimal(value);
        // integers written into AN/ID elements (e.g. ST02 given as 1) are padded to the minimum length
        return { ok: true, text: Number.isInteger(value) && value >= 0 ? text.padStart(e.min, '0') : text };
      }
      if (typeof value === 'boolean') return { ok: false, reason: 'must be a string' };
      return { ok: false, reason: 'must be a string' };
    }
  }
}
