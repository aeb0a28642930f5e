// Annexure 4 deductor categories (BH field 32) and what follows from them.

export const DEDUCTOR_CATEGORIES = new Set(['A', 'S', 'D', 'E', 'G', 'H', 'L', 'N', 'K', 'M', 'P', 'T', 'J', 'B', 'Q', 'F']);

/** Central and state government bodies: they may file with PANNOTREQD and deposit by book adjustment. */
export const GOVERNMENT_CATEGORIES = new Set(['A', 'S', 'D', 'E', 'G', 'H', 'L', 'N']);
/** State-side government categories: BH field 54 (state name) is mandatory. */
export const STATE_GOVERNMENT_CATEGORIES = new Set(['S', 'E', 'H', 'N']);
/** Central-side categories: BH field 57 (ministry) is mandatory. */
export const CENTRAL_MINISTRY_CATEGORIES = new Set(['A', 'D', 'G']);

/** The vendor's deductor_type tokens (master data). */
const TOKENS: ReadonlyMap<string, string> = new Map([
  ['body_of_individuals', 'B'],
  ['firm', 'F'],
  ['artificial_judicial_person', 'J'],
  ['artificial_juridical_person', 'J'],
  ['company', 'K'],
  ['association_of_persons', 'P'],
  ['huf', 'Q'],
  ['individual', 'Q'],
  ['trust', 'T'],
]);

/** Category letter from a letter or a vendor token; null when unknown. */
export function deductorCategory(value: string): string | null {
  const trimmed = value.trim();
  if (trimmed.length === 1 && DEDUCTOR_CATEGORIES.has(trimmed.toUpperCase())) return trimmed.toUpperCase();
  return TOKENS.get(trimmed.toLowerCase()) ?? null;
}

/** Category implied by the 4th character of a valid PAN; null for government/local-authority PANs. */
export function categoryFromPan(pan: string): string | null {
  switch (pan.charAt(3)) {
    case 'C':
      return 'K';
    case 'F':
      return 'F';
    case 'P':
    case 'H':
      return 'Q';
    case 'A':
      return 'P';
    case 'T':
      return 'T';
    case 'B':
      return 'B';
    case 'J':
      return 'J';
    default:
      return null;
  }
}
