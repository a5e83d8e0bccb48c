// Names people read (agents, apps, machines): control and direction characters removed, so a name cannot
// reverse the text around it on the consent page, and a name with no visible character is refused. The rule
// itself is the theme's `visibleText`, the one rule for every name and label from an agent or a host.
import { visibleText } from '@screen-service/theme';

/**
 * The name cleaned for display: controls (ESC, C1), bidi controls, invisible format characters and stray tag
 * characters removed, runs of white space made one space, trimmed. Returns null when nothing visible is left
 * (a name made only of U+200D, U+FE0F, U+034F, U+17B4, tag characters, blank-looking letters or spaces).
 *
 * @example
 * ```ts
 * cleanDisplayName('Claude\u202egnp.exe'); // 'Claudegnp.exe'
 * cleanDisplayName('\u200b\u3164'); // null
 * cleanDisplayName('\u200d\ufe0f\u{e0041}'); // null
 * ```
 */
export function cleanDisplayName(value: string): string | null {
  return visibleText(value);
}
