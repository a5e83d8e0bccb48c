// Names people read (agents, apps, machines): control and direction characters removed, so a name cannot
// reverse the text around it on the consent page, and a name of nothing visible is refused.

// C0/C1 controls, and the format characters that steer direction or hide text (bidi embeddings, overrides
// and isolates, marks, zero-width space and non-joiner, word joiner, BOM, interlinear annotations).
const INVISIBLE =
  /[\p{Cc}\u00ad\u061c\u180e\u200b\u200c\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/gu;
// Letters and symbols that draw as blank space (Hangul fillers, the blank Braille pattern).
const BLANK_LOOKING = /[\u115f\u1160\u3164\uffa0\u2800]/gu;

/**
 * The name cleaned for display: invisible and direction-changing characters removed, runs of white space
 * made one space, trimmed. Returns null when nothing visible is left.
 *
 * @example
 * ```ts
 * cleanDisplayName('Claude\u202egnp.exe'); // 'Claudegnp.exe'
 * cleanDisplayName('\u200b\u3164'); // null
 * ```
 */
export function cleanDisplayName(value: string): string | null {
  const cleaned = value.replace(/\s+/gu, ' ').replace(INVISIBLE, '').replace(/ {2,}/g, ' ').trim();
  return cleaned.replace(BLANK_LOOKING, '').trim() === '' ? null : cleaned;
}
