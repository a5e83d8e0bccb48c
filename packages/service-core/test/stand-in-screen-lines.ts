// A stand-in for @screen-service/screen-lines while its first slice is not merged: one component per
// line, `<preset>[@id] <args>`, ids n1, n2... Replaced by the real package as soon as it lands.
import type { ScreenLinesPort } from '../src/screen-lines-port.js';

export const standInScreenLines: ScreenLinesPort = {
  parse(text) {
    const ops: unknown[] = [];
    const errors: { code: string; line: number; column: number; message: string }[] = [];
    const spans: { line: number; text: string }[] = [];
    let n = 0;
    text.split('\n').forEach((raw, i) => {
      const line = raw.trim();
      if (line === '') return;
      const m = /^([a-z]+)(?:@([a-z0-9_-]+))?(?:\s+(.*))?$/.exec(line);
      if (!m || !['choose', 'timer', 'text', 'check', 'ask'].includes(m[1]!)) {
        errors.push({
          code: 'UNKNOWN_COMPONENT',
          line: i + 1,
          column: 1,
          message: `line ${i + 1}: unknown component`,
        });
        return;
      }
      n += 1;
      ops.push({ op: 'add', preset: m[1], id: m[2] ?? `n${n}`, props: { args: m[3] ?? '' } });
      spans.push({ line: i + 1, text: raw });
    });
    return { ops, errors, spans };
  },
  formatTapLine(e) {
    return `[svc] ${e.id} ${e.preset} value=${String(e.value)}\n${JSON.stringify(e)}`;
  },
};
