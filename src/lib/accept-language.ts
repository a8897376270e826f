/**
 * The first of `supported` languages an Accept-Language header asks for (RFC 9110 §12.5.4;
 * weights honoured, regions ignored: `pt-BR` asks for `pt`), else the first of `supported`.
 */
export function preferredLanguage<T extends string>(header: string | undefined, supported: readonly T[]): T {
  const ranked = (header ?? '')
    .split(',')
    .map((part, i) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag: tag.trim(), q: q ? Number(q.slice(2)) || 0 : 1, i };
    })
    .filter((r) => r.tag && r.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  for (const { tag } of ranked) {
    const base = tag.toLowerCase().split('-')[0];
    if ((supported as readonly string[]).includes(base)) return base as T;
  }
  return supported[0];
}

/** The language tag an Accept-Language header ranks first (`en-US`), for guesses such as a currency; null when there is none. */
export function firstLanguageTag(header: string | undefined): string | null {
  const first = (header ?? '').split(',')[0]?.split(';')[0]?.trim();
  return first ? first : null;
}
