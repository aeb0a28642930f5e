import { ratio } from 'fuzzball';
import { looksLikeBusiness, normalise, phoneticKey, type LegalForm, type NameKind, type NormalisedName } from './normalise.js';

/** Default decision threshold on the 0..1 score; chosen on the test table (see the package README). */
export const DEFAULT_NAME_MATCH_THRESHOLD = 0.85;

export type NameMatchReasonCode =
  | 'exact' | 'honorific_dropped' | 'relation_dropped' | 'abbreviation_expanded' | 'initial_matched' | 'initial_mismatch'
  | 'tokens_reordered' | 'tokens_joined' | 'transliteration_variant' | 'vowel_variant' | 'token_similar' | 'token_mismatch'
  | 'extra_tokens' | 'legal_form_normalised' | 'legal_form_conflict' | 'empty_name';

/** One step of the explanation; `detail` names the words involved (the names themselves, never logged). */
export interface NameMatchReason {
  code: NameMatchReasonCode;
  detail: string;
}

export interface NameMatchResult {
  /** 0..1, two decimals: 1 is the same name once the differences listed in `reasons` are set aside. */
  score: number;
  /** `match` when `score >= threshold`. */
  result: 'match' | 'no_match';
  kind: NameKind;
  reasons: NameMatchReason[];
}

export interface NameMatchOptions {
  /** `person` or `business`; inferred when absent (`business` when either name carries a legal form such as PVT LTD). */
  kind?: NameKind;
  /** Decision threshold on the score; default {@link DEFAULT_NAME_MATCH_THRESHOLD}. */
  threshold?: number;
}

/** Similarity given to an initial that agrees with a full word: evidence, but weaker than the word. */
const INITIAL_SIMILARITY = 0.9;
/** Pairs at or above this are the same word spelt differently; below it a difference counts cubed. */
const SAME_WORD = 0.9;
/** Differing first letters are rare between spellings of one name (the variants that do are mapped first). */
const FIRST_LETTER_FACTOR = 0.5;
/** How far the score may stand above its weakest pair: one wrong word sinks the name whatever its length. */
const WEAKEST_PAIR_MARGIN = 0.25;
/** Cost of each word only one name has: a left-out middle name is common for people, rarer for companies. */
const EXTRA_TOKEN_COST: Record<NameKind, { anchored: number; loose: number }> = {
  person: { anchored: 0.04, loose: 0.2 },
  business: { anchored: 0.1, loose: 0.2 },
};
const LEGAL_FORM_CLASS: Record<LegalForm, string> = {
  'private limited': 'company', limited: 'company', 'one person company': 'company', incorporated: 'company',
  llp: 'llp',
};
const LEGAL_FORM_CONFLICT_COST = 0.2;

interface Token {
  text: string;
  /** As written, before an abbreviation was expanded. */
  written: string;
  key: string;
  /** Position in the name after normalisation, to tell a reordering. */
  position: number;
}

interface Pair {
  a: Token;
  b: Token;
  similarity: number;
  /** Weight in the mean: the longer key's length; an initial weighs one letter. */
  weight: number;
  how: NameMatchReasonCode;
}

/**
 * Compares two Indian names and explains the outcome. Both are normalised (honorifics, relation clauses,
 * abbreviations, legal forms), reduced to phonetic keys per word, and the words paired best-first: equal keys,
 * initials against words, then fuzzball's `ratio` (normalised Levenshtein similarity) between keys. The score is
 * the length-weighted mean of the pair similarities, at most {@link WEAKEST_PAIR_MARGIN} above the weakest
 * pair, less a cost per word that only one name has and for conflicting legal forms.
 */
export function matchNames(name1: string, name2: string, options: NameMatchOptions = {}): NameMatchResult {
  const kind = options.kind ?? (looksLikeBusiness(name1) || looksLikeBusiness(name2) ? 'business' : 'person');
  const threshold = checkThreshold(options.threshold ?? DEFAULT_NAME_MATCH_THRESHOLD);
  const first = normalise(name1, kind);
  const second = normalise(name2, kind);
  const reasons: NameMatchReason[] = [...normalisationReasons(first), ...normalisationReasons(second)];
  if (first.tokens.length === 0 || second.tokens.length === 0) {
    return finish(0, threshold, kind, [...reasons, { code: 'empty_name', detail: 'a name has no words left to compare' }]);
  }
  const sideA = toTokens(first, kind);
  const sideB = toTokens(second, kind);
  joinSplitWords(sideA, sideB, reasons);
  joinSplitWords(sideB, sideA, reasons);
  const { pairs, extras } = pairTokens(sideA, sideB);
  reasons.push(...pairs.map(describePair).filter((r): r is NameMatchReason => r !== undefined));
  if (isReordered(pairs)) reasons.push({ code: 'tokens_reordered', detail: 'the same words in another order' });
  let score = weightedScore(pairs);
  if (extras.length > 0) score -= extraTokensCost(extras, pairs, kind, reasons);
  score -= legalForms(first.legalForm, second.legalForm, reasons);
  if (reasons.length === 0) reasons.push({ code: 'exact', detail: 'the same words' });
  return finish(score, threshold, kind, reasons);
}

/**
 * Words only one name has. Cheap when two whole words agree and the extra word is not the first (a left-out
 * middle name or surname); dear otherwise: `Sharma` against `Rajesh Sharma`, or `Sureshbhai Patel` (the
 * father) against `Vikas Sureshbhai Patel` (the son).
 */
function extraTokensCost(extras: Token[], pairs: Pair[], kind: NameKind, reasons: NameMatchReason[]): number {
  const anchored = pairs.filter((p) => p.how !== 'initial_matched' && p.similarity >= SAME_WORD).length >= 2;
  const leading = kind === 'person' && extras.some((t) => t.position === 0 && t.text.length > 1);
  const cost = EXTRA_TOKEN_COST[kind][anchored && !leading ? 'anchored' : 'loose'] * extras.length;
  const words = extras.map((t) => t.written).join(' ');
  reasons.push({ code: 'extra_tokens', detail: `only one name has ${words}${leading ? ' (as its first word)' : ''} (-${round(cost)})` });
  return cost;
}

/** A threshold is configuration: a wrong one is a programming error, not a request error. */
export function checkThreshold(threshold: number): number {
  if (!(threshold >= 0 && threshold <= 1)) throw new RangeError(`name-match threshold must be between 0 and 1, got ${threshold}`);
  return threshold;
}

function finish(score: number, threshold: number, kind: NameKind, reasons: NameMatchReason[]): NameMatchResult {
  const rounded = round(Math.min(1, Math.max(0, score)));
  return { score: rounded, result: rounded >= threshold ? 'match' : 'no_match', kind, reasons };
}

const round = (value: number): number => Math.round(value * 100) / 100;

function normalisationReasons(name: NormalisedName): NameMatchReason[] {
  const reasons: NameMatchReason[] = name.honorifics.map((h) => ({ code: 'honorific_dropped', detail: h }));
  if (name.relation !== undefined) reasons.push({ code: 'relation_dropped', detail: name.relation });
  reasons.push(...name.expansions.map((e): NameMatchReason => ({ code: 'abbreviation_expanded', detail: e })));
  return reasons;
}

function toTokens(name: NormalisedName, kind: NameKind): Token[] {
  const tokens = name.tokens.map((text, position) => ({ text, written: name.written[position] ?? text, key: phoneticKey(text), position }));
  return kind === 'business' ? joinLetters(tokens) : tokens;
}

/** `A B C Traders` (from `A.B.C. Traders`) is the acronym `ABC Traders` in a business name. */
function joinLetters(tokens: Token[]): Token[] {
  const joined: Token[] = [];
  let run: Token | undefined;
  for (const token of tokens) {
    if (token.text.length === 1 && run !== undefined) {
      run = { ...run, text: run.text + token.text, written: run.written + token.written, key: phoneticKey(run.text + token.text) };
      joined[joined.length - 1] = run;
      continue;
    }
    joined.push(token);
    run = token.text.length === 1 ? token : undefined;
  }
  return joined;
}

/** `Mohan Lal` and `Mohanlal`, `Venkata Ramana` and `Venkataramana`: two words of one name are one of the other. */
function joinSplitWords(side: Token[], other: Token[], reasons: NameMatchReason[]): void {
  for (let i = 0; i + 1 < side.length; i++) {
    const left = side[i] as Token;
    const right = side[i + 1] as Token;
    if (left.written.length < 2 || right.written.length < 2) continue;
    const written = left.written + right.written;
    const key = phoneticKey(written);
    if (other.some((t) => t.key === key) && !other.some((t) => t.key === left.key)) {
      side.splice(i, 2, { text: written, written, key, position: left.position });
      reasons.push({ code: 'tokens_joined', detail: `${left.written} ${right.written}` });
    }
  }
}

/** Best pairs first; what is left on the longer side are the extra words. */
function pairTokens(sideA: Token[], sideB: Token[]): { pairs: Pair[]; extras: Token[] } {
  const candidates: Pair[] = [];
  for (const a of sideA) for (const b of sideB) candidates.push(candidate(a, b));
  candidates.sort((x, y) => y.similarity - x.similarity || rank(x) - rank(y));
  const usedA = new Set<Token>();
  const usedB = new Set<Token>();
  const pairs: Pair[] = [];
  for (const pair of candidates) {
    if (usedA.has(pair.a) || usedB.has(pair.b)) continue;
    usedA.add(pair.a);
    usedB.add(pair.b);
    pairs.push(pair);
  }
  const extras = [...sideA.filter((t) => !usedA.has(t)), ...sideB.filter((t) => !usedB.has(t))];
  return { pairs, extras };
}

/** At equal similarity a whole word is paired before an initial, so `R Ravi` pairs `Ravi` with `Ravi`. */
const rank = (pair: Pair): number => (pair.how === 'initial_matched' ? 1 : 0);

function candidate(a: Token, b: Token): Pair {
  const weight = Math.max(a.key.length, b.key.length);
  if (a.text.length === 1 || b.text.length === 1) {
    const agrees = a.text[0] === b.text[0];
    return { a, b, similarity: agrees ? INITIAL_SIMILARITY : 0, weight: 1, how: agrees ? 'initial_matched' : 'initial_mismatch' };
  }
  if (a.key === b.key) return { a, b, similarity: 1, weight, how: a.text === b.text ? 'exact' : 'transliteration_variant' };
  if (isVowelVariant(a.key, b.key)) return { a, b, similarity: 0.95, weight, how: 'vowel_variant' };
  let similarity = ratio(a.key, b.key, { full_process: false }) / 100;
  if (a.key[0] !== b.key[0]) similarity *= FIRST_LETTER_FACTOR;
  return { a, b, similarity, weight, how: similarity >= SAME_WORD ? 'token_similar' : 'token_mismatch' };
}

const consonants = (key: string): string => key.replace(/[aeiou]/g, '');

/**
 * Priyanka / Priyenka, Verma / Varma: the same consonants, first and last letters. The last letter has to
 * agree because a changed or added final vowel often makes another name (Lalit / Lalita, Shweta / Swati).
 */
function isVowelVariant(a: string, b: string): boolean {
  return Math.min(a.length, b.length) >= 4 && a[0] === b[0] && a.at(-1) === b.at(-1) && consonants(a) === consonants(b);
}

function describePair(pair: Pair): NameMatchReason | undefined {
  const words = `${pair.a.text} ~ ${pair.b.text}`;
  switch (pair.how) {
    case 'exact': return undefined;
    case 'initial_matched': case 'initial_mismatch': case 'transliteration_variant': case 'vowel_variant':
      return { code: pair.how, detail: words };
    default:
      return { code: pair.how, detail: `${words} (${round(pair.similarity)})` };
  }
}

function isReordered(pairs: Pair[]): boolean {
  const byA = [...pairs].sort((x, y) => x.a.position - y.a.position);
  return byA.some((pair, i) => i > 0 && pair.b.position < (byA[i - 1] as Pair).b.position);
}

/** A difference below {@link SAME_WORD} counts cubed, so a different word is not averaged away by equal ones. */
function weightedScore(pairs: Pair[]): number {
  const effective = pairs.map((p) => (p.similarity >= SAME_WORD ? p.similarity : p.similarity ** 3));
  const total = pairs.reduce((sum, p) => sum + p.weight, 0);
  const mean = pairs.reduce((sum, p, i) => sum + p.weight * (effective[i] ?? 0), 0) / total;
  return Math.min(mean, Math.min(...effective) + WEAKEST_PAIR_MARGIN);
}

function legalForms(first: LegalForm | undefined, second: LegalForm | undefined, reasons: NameMatchReason[]): number {
  if (first === undefined && second === undefined) return 0;
  const forms = [first, second].filter((f): f is LegalForm => f !== undefined);
  reasons.push({ code: 'legal_form_normalised', detail: [...new Set(forms)].join(' / ') });
  if (first !== undefined && second !== undefined && LEGAL_FORM_CLASS[first] !== LEGAL_FORM_CLASS[second]) {
    reasons.push({ code: 'legal_form_conflict', detail: `${first} vs ${second} (-${LEGAL_FORM_CONFLICT_COST})` });
    return LEGAL_FORM_CONFLICT_COST;
  }
  return 0;
}
