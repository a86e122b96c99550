/**
 * X12 character sets and the repairs applied to values before they are written.
 *
 * - Basic: upper-case letters, digits, space and ! " & ' ( ) * + , - . / : ; ? =
 * - Extended: Basic plus lower-case letters, % @ [ ] _ { } \ | < > ~ # $ ^ ` and letters of other
 *   languages (any printable non-control Unicode character)
 * - ExtendedHipaa: Basic plus lower-case letters and % ~ @ [ ] _ { } \ | < > # $ (HIPAA TR3
 *   appendix A)
 */

export const CHARACTER_SETS = ['Basic', 'Extended', 'ExtendedHipaa'] as const;
export type CharacterSet = (typeof CHARACTER_SETS)[number];

export interface RepairOptions {
  trimTrailingSpaces?: boolean;
  uppercase?: boolean;
  replaceConfusable?: boolean;
  removeDiacritical?: boolean;
  replaceNonBasicCharacters?: boolean;
  replaceCanonicalDelimitersConflicts?: boolean;
  trimTrailingZeroes?: boolean;
}

export const REPAIR_OPTION_NAMES = [
  'trimTrailingSpaces',
  'uppercase',
  'replaceConfusable',
  'removeDiacritical',
  'replaceNonBasicCharacters',
  'replaceCanonicalDelimitersConflicts',
  'trimTrailingZeroes',
] as const;

const BASIC_SPECIAL = `!"&'()*+,-./:;?= `;
const EXTENDED_SPECIAL = '%@[]_{}\\|<>~#$^`';
const HIPAA_SPECIAL = '%~@[]_{}\\|<>#$';

function isUpper(c: number): boolean {
  return c >= 65 && c <= 90;
}
function isLower(c: number): boolean {
  return c >= 97 && c <= 122;
}
function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

export function inBasic(ch: string): boolean {
  const c = ch.charCodeAt(0);
  return isUpper(c) || isDigit(c) || BASIC_SPECIAL.includes(ch);
}

export function inCharacterSet(ch: string, set: CharacterSet): boolean {
  if (inBasic(ch)) return true;
  if (set === 'Basic') return false;
  const c = ch.codePointAt(0) ?? 0;
  if (isLower(c)) return true;
  if (set === 'ExtendedHipaa') return HIPAA_SPECIAL.includes(ch);
  if (EXTENDED_SPECIAL.includes(ch)) return true;
  // other languages' letters and symbols, but no control characters
  return c > 0x9f && c !== 0xfffd;
}

/** Characters that look like basic ones: typographic quotes, dashes, spaces, ellipsis. */
const CONFUSABLE: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201a': "'",
  '\u201b': "'",
  '\u2032': "'",
  '\u00b4': "'",
  '\u0060': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u201e': '"',
  '\u2033': '"',
  '\u00ab': '"',
  '\u00bb': '"',
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2013': '-',
  '\u2014': '-',
  '\u2015': '-',
  '\u2212': '-',
  '\u00a0': ' ',
  '\u2002': ' ',
  '\u2003': ' ',
  '\u2009': ' ',
  '\u202f': ' ',
  '\u2026': '...',
  '\u2044': '/',
  '\u00d7': 'X',
};

/** Result of applying repairs and the character-set check to one value. */
export interface RepairResult {
  value: string;
  /** First character still outside the set, when any. */
  badCharacter?: string;
}

const DIACRITICS = /\p{M}+/gu;
const TRAILING_ZEROES = /^(-?[0-9]*\.[0-9]*?)0+$/;

/**
 * Applies the repairs to a string value, then checks it against the character set.
 * `delimiters` are the characters that must not appear in values.
 */
export function repairValue(
  value: string,
  set: CharacterSet | undefined,
  repairs: RepairOptions,
  delimiters: readonly string[],
  numeric = false,
): RepairResult {
  let v = value;
  if (repairs.replaceConfusable) {
    let out = '';
    for (const ch of v) out += CONFUSABLE[ch] ?? ch;
    v = out;
  }
  if (repairs.removeDiacritical) v = v.normalize('NFD').replace(DIACRITICS, '').normalize('NFC');
  if (repairs.uppercase) v = v.toUpperCase();
  if (repairs.replaceNonBasicCharacters) {
    let out = '';
    for (const ch of v) out += inBasic(ch) || delimiters.includes(ch) ? ch : ' ';
    v = out;
  }
  if (repairs.replaceCanonicalDelimitersConflicts) {
    let out = '';
    for (const ch of v) out += delimiters.includes(ch) ? ' ' : ch;
    v = out;
  }
  if (repairs.trimTrailingSpaces) v = v.replace(/ +$/, '');
  if (repairs.trimTrailingZeroes && numeric && TRAILING_ZEROES.test(v)) {
    v = v.replace(TRAILING_ZEROES, '$1').replace(/\.$/, '');
  }
  if (set) {
    for (const ch of v) {
      if (!inCharacterSet(ch, set)) return { value: v, badCharacter: ch };
    }
  }
  return { value: v };
}
