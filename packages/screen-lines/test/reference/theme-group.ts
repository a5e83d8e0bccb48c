// Theme lines (`theme <key>=<value> ...`, doc2 "Look") and group lines (`group[@id] [row|stack|card] ["<title>"]`).
import { CHART_TYPES, GALLERY_VIEWS } from './catalog/shared.js';
import { settingOf } from './component-args.js';
import { fail } from './fault.js';
import type { GroupOp, ThemeOp } from './ops.js';
import { formatText, formatWord, type Term, textOf } from './terms.js';

/** Look keys a theme line takes at the top level (words are cleaned by the theme package). */
export const THEME_WORD_KEYS = [
  'preset',
  'radius',
  'font',
  'weight',
  'motion',
  'pace',
  'ease',
  'enter',
  'pulse',
] as const;
/** Look `style` keys and their allowed words (written flat: `gallery=grid`). */
export const THEME_STYLE_KEYS: Readonly<Record<string, readonly string[]>> = {
  screen: ['chat', 'full'],
  gallery: GALLERY_VIEWS,
  chart: CHART_TYPES,
  buttons: ['row', 'stack'],
};
const THEME_KEYS = [...THEME_WORD_KEYS, 'accent', 'bg', ...Object.keys(THEME_STYLE_KEYS), 'at', 'by'];
const HEX = /^#[0-9a-fA-F]{6}$/;
const WORD = /^[A-Za-z][A-Za-z0-9_-]{0,31}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?$/;

/** Reads a theme line into a look object. */
export function readTheme(terms: Term[], source: string, headEnd: number): ThemeOp {
  if (terms.length === 0) {
    fail(
      'INVALID_THEME',
      headEnd,
      'theme needs <key>=<value> pairs, like theme accent=#3366ff radius=round gallery=grid',
    );
  }
  const look: Record<string, unknown> = {};
  const style: Record<string, string> = {};
  for (const term of terms) {
    const setting = settingOf(term);
    const raw = source.slice(term.start, term.end);
    if (!setting || !THEME_KEYS.includes(setting.name)) {
      fail(
        'INVALID_THEME',
        term.start,
        `theme takes <key>=<value> with keys ${THEME_KEYS.join(', ')} (got '${raw}')`,
      );
    }
    const { name } = setting;
    const value = textOf(source, setting.value);
    if (name in look || name in style)
      fail('REPEATED_SETTING', term.start, `theme sets ${name} twice; keep one`);
    const allowed = THEME_STYLE_KEYS[name];
    if (allowed) {
      if (!allowed.includes(value))
        fail('INVALID_THEME', term.start, `theme ${name}= is one of ${allowed.join(', ')} (got '${value}')`);
      style[name] = value;
      continue;
    }
    if ((name === 'accent' || name === 'bg') && !HEX.test(value)) {
      fail('INVALID_THEME', term.start, `theme ${name}= takes a #RRGGBB color like #3366ff (got '${value}')`);
    }
    if (name === 'by' && value !== 'agent' && value !== 'user')
      fail('INVALID_THEME', term.start, `theme by= is agent or user (got '${value}')`);
    if (name === 'at' && !ISO.test(value)) {
      fail(
        'INVALID_THEME',
        term.start,
        `theme at= takes an ISO 8601 time like 2026-11-21T10:00:00Z (got '${value}')`,
      );
    }
    if ((THEME_WORD_KEYS as readonly string[]).includes(name) && !WORD.test(value)) {
      fail(
        'INVALID_THEME',
        term.start,
        `theme ${name}= takes one look word like soft or round (got '${value}')`,
      );
    }
    look[name] = value;
  }
  if (Object.keys(style).length > 0) look.style = style;
  return { op: 'theme', look };
}

/** Canonical line of a theme op. */
export function formatTheme(op: ThemeOp): string {
  const parts = ['theme'];
  for (const [key, value] of Object.entries(op.look)) {
    if (key === 'style' && value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value as Record<string, unknown>))
        parts.push(`${k}=${formatWord(String(v))}`);
    } else parts.push(`${key}=${formatWord(String(value))}`);
  }
  return parts.join(' ');
}

const LAYOUTS = ['stack', 'row', 'card'] as const;

/** Reads the arguments of a group line. */
export function readGroupLine(id: string, terms: Term[], source: string): GroupOp {
  const op: GroupOp = { op: 'group', id, layout: 'stack' };
  let rest = terms;
  const first = terms[0] ? source.slice(terms[0].start, terms[0].end) : '';
  if ((LAYOUTS as readonly string[]).includes(first)) {
    op.layout = first as GroupOp['layout'];
    rest = terms.slice(1);
  }
  if (rest.length > 0) op.title = rest.map((t) => textOf(source, t.tokens)).join(' ');
  return op;
}

/** Canonical line of a group op. */
export function formatGroup(op: GroupOp): string {
  const head = /^g[0-9]+$/.test(op.id) ? 'group' : `group@${op.id}`;
  const title = op.title === undefined ? '' : ` ${quoteIfLayout(op.title)}`;
  return `${head}${op.layout === 'stack' ? '' : ` ${op.layout}`}${title}`;
}

function quoteIfLayout(title: string): string {
  const printed = formatText(title);
  return (LAYOUTS as readonly string[]).includes(title.split(' ')[0]!) && printed === title
    ? `"${title}"`
    : printed;
}
