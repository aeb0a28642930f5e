/**
 * `WITHSCORES` answers are flat (`[member, score, ...]`) over RESP2 and pairs (`[[member, score], ...]`) over
 * RESP3; ioredis 6 may speak either. Both become entries here.
 */
export function scoredEntries(reply: unknown): Array<{ member: string; score: number }> {
  const items = reply as unknown[];
  if (items.length > 0 && Array.isArray(items[0])) {
    return (items as Array<[string, string | number]>).map(([member, score]) => ({ member, score: Number(score) }));
  }
  const entries: Array<{ member: string; score: number }> = [];
  for (let i = 0; i < items.length; i += 2) entries.push({ member: String(items[i]), score: Number(items[i + 1]) });
  return entries;
}
