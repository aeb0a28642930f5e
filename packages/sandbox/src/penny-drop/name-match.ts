/**
 * A simple name-match score for the simulator's answers (the provider returns one; Satyapan does not use it
 * for decisions). Honorifics and punctuation are dropped, tokens sorted, then the Dice coefficient of letter
 * bigrams is scaled to 0-100 and put in the provider's bands.
 */
const HONORIFICS = new Set(['MR', 'MRS', 'MS', 'DR', 'SHRI', 'SMT', 'KUMARI']);

function normalise(name: string): string {
  return name.toUpperCase().replace(/[^A-Z ]/g, ' ').split(/\s+/).filter((t) => t && !HONORIFICS.has(t)).sort().join(' ');
}

function bigrams(text: string): string[] {
  const compact = text.replace(/ /g, '');
  return Array.from({ length: Math.max(compact.length - 1, 0) }, (_, i) => compact.slice(i, i + 2));
}

export function nameMatch(given: string, atBank: string): { score: string; result: string } {
  const a = normalise(given);
  const b = normalise(atBank);
  let score: number;
  if (a === b) score = 100;
  else {
    const left = bigrams(a);
    const right = bigrams(b);
    const pool = [...right];
    let shared = 0;
    for (const gram of left) {
      const at = pool.indexOf(gram);
      if (at !== -1) {
        shared++;
        pool.splice(at, 1);
      }
    }
    score = left.length + right.length === 0 ? 0 : Math.round((200 * shared) / (left.length + right.length));
  }
  const result = score === 100 ? 'DIRECT_MATCH'
    : score >= 80 ? 'GOOD_PARTIAL_MATCH'
      : score >= 60 ? 'MODERATE_PARTIAL_MATCH'
        : score >= 34 ? 'POOR_PARTIAL_MATCH' : 'NO_MATCH';
  return { score: score.toFixed(2), result };
}
