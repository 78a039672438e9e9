import type { Response } from 'express';

/**
 * The languages the service writes its errors in: English, the default (what integrators
 * read), and Spanish, what a restaurant's staff read (the back-office page asks for it).
 */
export type Language = 'en' | 'es';

export const DEFAULT_LANGUAGE: Language = 'en';

/** One language range of an Accept-Language header, as sent. */
interface LanguageRange {
  /** Lowercased: `es`, `es-pe`, `*`. */
  tag: string;
  q: number;
  /** Its position in the header. */
  order: number;
}

function rangesOf(header: string): LanguageRange[] {
  return header.split(',').flatMap((part, order) => {
    const [tag, ...parameters] = part.split(';').map((s) => s.trim());
    if (!/^(?:\*|[a-z]{1,8}(?:-[a-z0-9]{1,8})*)$/i.test(tag)) return [];
    let q = 1;
    for (const parameter of parameters) {
      if (!/^q\s*=/i.test(parameter)) continue;
      const match = /^q\s*=\s*([01](?:\.\d{0,3})?)$/i.exec(parameter);
      // a weight that is not one leaves the range out
      if (!match) return [];
      q = Math.min(1, Number(match[1]));
    }
    return [{ tag: tag.toLowerCase(), q, order }];
  });
}

/**
 * How well a range fits a language: 2 for the language itself or one of its regions (`es`,
 * `es-PE` for Spanish), 1 for the wildcard, 0 when it does not.
 */
function fit(range: LanguageRange, language: Language): number {
  if (range.tag === language || range.tag.startsWith(`${language}-`)) return 2;
  return range.tag === '*' ? 1 : 0;
}

/** The range that speaks for a language: the one fitting it best, first in the header on a tie. */
function bestRange(ranges: LanguageRange[], language: Language) {
  let best: { q: number; fit: number; order: number } | undefined;
  for (const range of ranges) {
    const f = fit(range, language);
    if (f === 0) continue;
    if (!best || f > best.fit) best = { q: range.q, fit: f, order: range.order };
  }
  return best;
}

/**
 * The language of an error's text for a request's `Accept-Language` (RFC 9110, 12.5.4):
 * Spanish when the header prefers it (`es`, `es-PE`, `es-419` ...) to English, with q-values
 * weighed the ordinary way (`en;q=0.8, es` is Spanish, `es;q=0.5, en` English, `es;q=0` never);
 * on a tie the range more specific to the language, then the one listed first. English
 * otherwise: any other language, a wildcard alone, a malformed header, or none.
 */
export function requestedLanguage(header: string | string[] | undefined): Language {
  const text = Array.isArray(header) ? header.join(',') : header;
  if (text === undefined || text.trim() === '') return DEFAULT_LANGUAGE;
  const ranges = rangesOf(text);
  const es = bestRange(ranges, 'es');
  if (!es || es.q <= 0) return DEFAULT_LANGUAGE;
  const en = bestRange(ranges, 'en');
  if (!en || en.q <= 0) return 'es';
  if (es.q !== en.q) return es.q > en.q ? 'es' : 'en';
  if (es.fit !== en.fit) return es.fit > en.fit ? 'es' : 'en';
  return es.order < en.order ? 'es' : 'en';
}

/** Says in which language an error answer's text is. */
export function setErrorLanguage(response: Response, language: Language): void {
  response.setHeader('Content-Language', language);
}
