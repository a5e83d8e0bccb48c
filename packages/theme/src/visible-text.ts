// visibleText: the one rule for names and labels the service stores from an agent or a host (agent and machine
// names, app names, card texts, command texts). What cannot be seen, or could turn the text around it, goes.

// Removed everywhere: C0/C1 controls (ESC included), lone surrogates, bidi controls (embeddings, overrides,
// isolates, marks), and format characters that hide text (soft hyphen, zero-width space and non-joiner, word
// joiner and invisible operators, BOM, interlinear annotations, shorthand and musical format controls), and the
// Khmer inherent vowels Unicode says never to use. Kept: ZWJ (U+200D), variation selectors and tags inside an
// emoji flag sequence, which join what is drawn; they never count as visible.
const REMOVED =
  /[\p{Cc}\p{Cs}\u00ad\u061c\u17b4\u17b5\u180e\u200b\u200c\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\u{1bca0}-\u{1bca3}\u{1d173}-\u{1d17a}]/gu;
// Tag characters (U+E0000-E007F) survive only as an emoji tag sequence (a black flag, tags, then CANCEL TAG);
// anywhere else they are invisible text a model still reads.
const TAGS = /(\u{1f3f4}[\u{e0020}-\u{e007e}]+\u{e007f})|[\u{e0000}-\u{e007f}]/gu;
// A character that draws: a letter, digit, punctuation or symbol...
const DRAWS = /[\p{L}\p{N}\p{P}\p{S}]/u;
// ...except the letters and symbols that draw as blank space (Hangul fillers, the blank Braille pattern, the
// musical null notehead).
const BLANK_LOOKING = /[\u115f\u1160\u3164\uffa0\u2800\u{1d159}]/gu;

/** What {@link visibleText} takes besides the text. */
export interface VisibleTextOptions {
  /** Longest result in characters (grapheme clusters); longer text is cut and ends with `…`. */
  max?: number;
}

/**
 * True when `text` has a character that draws: a letter, digit, punctuation or symbol that is not blank-looking.
 * Joiners, variation selectors, combining marks, tags and white space alone draw nothing.
 *
 * @example
 * ```ts
 * hasVisibleText('\u200d\ufe0f\u034f'); // false
 * hasVisibleText('🙂'); // true
 * ```
 */
export function hasVisibleText(text: string): boolean {
  return DRAWS.test(text.replace(BLANK_LOOKING, ''));
}

/**
 * The text as a one-line label a person reads, or `null` when nothing in it can be seen: controls (ESC, C1),
 * bidi controls (U+202E...) and hiding format characters removed, stray tag characters removed, white space
 * runs (line breaks included) made one space, trimmed; with `max`, cut to that many characters with `…`.
 * Emoji sequences (ZWJ, variation selectors, flag tags) are kept whole.
 *
 * @example
 * ```ts
 * visibleText('Coach\u202egnp.exe'); // 'Coachgnp.exe'
 * visibleText('\u200d\u{e0041}\ufe0f'); // null
 * visibleText('Forecast\nfor a city\u001b[31m', { max: 12 }); // 'Forecast fo…'
 * ```
 */
export function visibleText(value: string, options: VisibleTextOptions = {}): string | null {
  const cleaned = value
    .replace(REMOVED, (ch) => (/\s/u.test(ch) ? ' ' : ''))
    .replace(TAGS, (_, flag: string | undefined) => flag ?? '')
    .replace(/\s+/gu, ' ')
    .trim();
  if (!hasVisibleText(cleaned)) return null;
  return options.max === undefined ? cleaned : cut(cleaned, options.max);
}

/** At most `max` grapheme clusters (so an emoji sequence is never split), the last one `…` when cut. */
function cut(text: string, max: number): string {
  const parts = graphemes(text);
  if (parts.length <= max) return text;
  return `${parts
    .slice(0, Math.max(0, max - 1))
    .join('')
    .trimEnd()}…`;
}

function graphemes(text: string): string[] {
  if (typeof Intl !== 'undefined' && typeof Intl.Segmenter === 'function') {
    return Array.from(
      new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text),
      (s) => s.segment,
    );
  }
  return Array.from(text);
}
