/**
 * Normalisation of Indian person and business names into comparable tokens, recording every step as a
 * reason so that a match can be explained. The rules are what KYC records actually differ by: honorifics
 * (Shri, Smt, Dr), relation clauses (S/O, W/O), initials, abbreviations (Kr, Mohd), transliteration spellings
 * (Lakshmi / Laxmi, Shrivastava / Srivastav) and company legal forms (PVT LTD / PRIVATE LIMITED / (P) LTD).
 */

export type NameKind = 'person' | 'business';

/** One normalised name: its tokens in order (spelling as written, lower case) and what was dropped. */
export interface NormalisedName {
  tokens: string[];
  /** The same words as written (before abbreviations were expanded), for joining split words. */
  written: string[];
  /** Honorifics and personal suffixes that were dropped (as written, lower case). */
  honorifics: string[];
  /** A relation clause (`s/o ...`) that was cut off, if any. */
  relation?: string;
  /** Abbreviations expanded, as `from -> to`. */
  expansions: string[];
  /** The legal form of a business (`private limited`, `llp`, ...), when one was found. */
  legalForm?: LegalForm;
}

export type LegalForm = 'private limited' | 'limited' | 'llp' | 'one person company' | 'incorporated';

/** Titles and suffixes that say nothing about who the person is. */
const HONORIFICS = new Set([
  'mr', 'mrs', 'ms', 'miss', 'mister', 'master', 'mast', 'shri', 'shree', 'sri', 'sh', 'shrimati', 'smt', 'srimati',
  'kumari', 'kum', 'km', 'kmr', 'sushri', 'dr', 'doctor', 'prof', 'professor', 'late', 'lt', 'capt', 'col', 'maj',
  'adv', 'advocate', 'er', 'ca', 'sir', 'madam', 'janab', 'jb', 'begum', 'selvi', 'thiru', 'thirumathi', 'tmt',
  'jr', 'junior', 'sr', 'senior', 'ji',
]);

/** Common abbreviations in bank and tax records; each stands for one word only. */
const ABBREVIATIONS: Record<string, string> = {
  kr: 'kumar', pd: 'prasad', prsd: 'prasad', md: 'mohammad', mohd: 'mohammad', mohamad: 'mohammad',
  mohammed: 'mohammad', muhammad: 'mohammad', muhammed: 'mohammad', mohamed: 'mohammad', sk: 'shaikh', shk: 'shaikh',
  sheikh: 'shaikh',
};

/** `s/o`, `d/o`, `w/o`, `c/o`, `h/o` and their spelt-out forms: what follows names someone else. */
const RELATION = /\b(?:s|d|w|c|h)\s*\/\s*o\b|\b(?:son|daughter|wife|husband)\s+of\b/;

/** Phrases first (longest first), then single words; each maps to the legal form it denotes. */
const LEGAL_FORMS: Array<[RegExp, LegalForm]> = [
  [/\(\s*opc\s*\)\s*(?:private|pvt|p)\.?\s*(?:limited|ltd)\.?/g, 'one person company'],
  [/\bopc\s+(?:private|pvt)\.?\s*(?:limited|ltd)\.?/g, 'one person company'],
  [/\(\s*p(?:vt)?\s*\)\s*(?:limited|ltd)\.?/g, 'private limited'],
  [/\b(?:private|pvt|pvte|prv)\.?\s*(?:limited|ltd|ltd)\.?/g, 'private limited'],
  [/\bp\.?\s*(?:limited|ltd)\.?(?=\s|$)/g, 'private limited'],
  [/\bl\.?\s*l\.?\s*p\.?(?=\s|$)/g, 'llp'],
  [/\blimited\s+liability\s+partnership\b/g, 'llp'],
  [/\b(?:limited|ltd)\.?(?=\s|$)/g, 'limited'],
  [/\b(?:incorporated|inc|corporation|corp)\.?(?=\s|$)/g, 'incorporated'],
];

/** Business words that vary in spelling or are often left out. */
const BUSINESS_WORDS: Record<string, string | null> = {
  '&': 'and', n: 'and', co: 'company', coy: 'company', cos: 'company', pvt: null, ltd: null,
  ent: 'enterprises', enterprise: 'enterprises', intl: 'international', ind: 'industries', inds: 'industries',
  industry: 'industries', mfg: 'manufacturing', svcs: 'services', service: 'services', tech: 'technologies',
  technology: 'technologies', sol: 'solutions', solution: 'solutions', the: null, ms: null, messrs: null,
};

/**
 * What one name may hold. Words: pairing compares every word of one name with every word of the other, so 16
 * words bound a comparison at 256 pairs (the longest name of the test table has 5 once normalised; a business
 * name with its legal form set aside rarely has 10). Length: 200 characters once normalised (NFKD, accents
 * removed), not as written: one character such as U+33AF (㎯) becomes six (`rad∕s2`), and 200 of them 400 words.
 */
export const NAME_LIMITS = { words: 16, normalisedLength: 200 } as const;

/** Lower case, diacritics removed; `&` kept as a word; other punctuation becomes a space (so `R.K.` gives `r k`). */
function clean(text: string): string {
  return text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

function words(text: string): string[] {
  return text.replace(/&/g, ' & ').replace(/[^a-z0-9&]+/g, ' ').trim().split(' ').filter((w) => w !== '');
}

/**
 * Why a name is beyond {@link NAME_LIMITS} (the reason, for a 422 naming the field), or undefined when it is
 * within them. An API that takes names from callers refuses with it; `matchNames` itself compares only the
 * first 16 words of the first 200 normalised characters of a name from elsewhere (an upstream's record).
 */
export function nameLimitExceeded(name: string): string | undefined {
  const text = clean(name);
  if (text.length > NAME_LIMITS.normalisedLength) return `must be at most ${NAME_LIMITS.normalisedLength} characters once normalised (NFKD)`;
  if (words(text).length > NAME_LIMITS.words) return `must have at most ${NAME_LIMITS.words} words`;
  return undefined;
}

/**
 * The name cleaned and cut to {@link NAME_LIMITS}: the work of one comparison is bounded whatever it is given.
 * Cut before cleaning too (a character never normalises to less than one, marks aside), so that NFKD itself
 * never runs over an upstream's megabyte.
 */
function bounded(name: string): string {
  return clean(name.slice(0, NAME_LIMITS.normalisedLength)).slice(0, NAME_LIMITS.normalisedLength);
}

/** The words of a bounded name, at most {@link NAME_LIMITS}.words of them. */
function boundedWords(text: string): string[] {
  return words(text).slice(0, NAME_LIMITS.words);
}

/** Whether a name carries a company legal form (used to infer `kind` when the caller gives none). */
export function looksLikeBusiness(name: string): boolean {
  const text = bounded(name);
  return LEGAL_FORMS.some(([pattern]) => { pattern.lastIndex = 0; return pattern.test(text); }) || /^\s*m\s*\/\s*s\b/.test(text);
}

export function normalise(name: string, kind: NameKind): NormalisedName {
  return kind === 'business' ? normaliseBusiness(name) : normalisePerson(name);
}

function normalisePerson(name: string): NormalisedName {
  let text = bounded(name);
  const result: NormalisedName = { tokens: [], written: [], honorifics: [], expansions: [] };
  const relation = RELATION.exec(text);
  if (relation) {
    result.relation = text.slice(relation.index).trim();
    text = text.slice(0, relation.index);
  }
  const all = boundedWords(text);
  for (const [index, word] of all.entries()) {
    // An honorific only where titles stand (at either end), so a name such as "Sri Devi" in the middle is kept.
    const atEdge = index === 0 || index === all.length - 1 || result.tokens.length === 0;
    if (HONORIFICS.has(word) && atEdge && all.length > 1) { result.honorifics.push(word); continue; }
    const expanded = ABBREVIATIONS[word];
    if (expanded !== undefined) {
      result.expansions.push(`${word} -> ${expanded}`);
      result.tokens.push(expanded);
      result.written.push(word);
      continue;
    }
    result.tokens.push(word);
    result.written.push(word);
  }
  return result;
}

function normaliseBusiness(name: string): NormalisedName {
  let text = bounded(name).replace(/^\s*m\s*\/\s*s\.?/, ' ');
  const result: NormalisedName = { tokens: [], written: [], honorifics: [], expansions: [] };
  for (const [pattern, form] of LEGAL_FORMS) {
    pattern.lastIndex = 0;
    if (pattern.test(text)) {
      result.legalForm ??= form;
      pattern.lastIndex = 0;
      text = text.replace(pattern, ' ');
    }
  }
  for (const word of boundedWords(text)) {
    const mapped = BUSINESS_WORDS[word];
    if (mapped === null) continue;
    if (mapped !== undefined) {
      if (mapped !== 'and') result.expansions.push(`${word} -> ${mapped}`);
      result.tokens.push(mapped);
      result.written.push(word);
      continue;
    }
    result.tokens.push(word);
    result.written.push(word);
  }
  return result;
}

/** Spelling rules of romanised Indian names, applied in order; each pair is one convention of transliteration. */
const TRANSLITERATION: Array<[RegExp, string]> = [
  [/ow(?=[^aeiou])/g, 'ou'], [/au/g, 'ou'], [/ksh/g, 'x'], [/ks/g, 'x'], [/ph/g, 'f'], [/w/g, 'v'], [/z/g, 'j'], [/q/g, 'k'],
  [/([bcdgjkpt])h/g, '$1'], [/sh/g, 's'], [/ee/g, 'i'], [/oo/g, 'u'], [/ou/g, 'u'], [/aa/g, 'a'],
  [/y(?=[^aeiou]|$)/g, 'i'], [/(.)\1+/g, '$1'], [/^(.{5,}[^aeiou])a$/g, '$1'],
];

/**
 * The phonetic key of one token: spellings of the same Indian name map to one key (Lakshmi and Laxmi give
 * `laxmi`; Shrivastava and Srivastav give `srivastav`). A trailing `a` of a long word is dropped because
 * romanisation of the inherent vowel varies (Srivastava / Srivastav, Narayana / Narayan); short words keep it,
 * where it often marks a different (female) name: Lalit / Lalita.
 */
export function phoneticKey(token: string): string {
  let key = token;
  for (const [pattern, replacement] of TRANSLITERATION) key = key.replace(pattern, replacement);
  return key;
}
