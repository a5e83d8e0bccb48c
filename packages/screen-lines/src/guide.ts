// The channel guide, generated from the catalog so it can never disagree with the parser.
import { catalog } from './catalog/index.js';
import type { ComponentSpec } from './catalog/types.js';
import { formatTapLine } from './tap-line.js';
import { THEME_STYLE_KEYS, THEME_WORD_KEYS } from './theme-group.js';

/** Version of the language; the guide's version adds a hash of the generated text. */
export const LANGUAGE_VERSION = '1';

const RULES = [
  'One component per line: <component>[@<id>] <arguments>. Blank lines are ignored.',
  'Options are joined by | with no spaces: Soup|Salad|Pizza. Quote an option with spaces: "Hot soup"|Salad.',
  'Quote any text with | = + or " in it: "a \\"quoted\\" word". Settings are name=value, flags are +name.',
  'Tap ids: write @<id> after the component (choose@lunch) with a letter then letters, digits, _ or - (at most 32); otherwise the nth component gets n<n> (n1, n2, ...). Ids on a screen are all different; n1, g1 style ids are given, never written.',
  'A tap comes back as: [svc] <tap_id> <preset> <key>=<value> followed by the event JSON. Quiet events stay on the phone.',
  'Staged components (timer, deck) start as a pill so a question on the same screen stays visible.',
];

const TABLE_RULES = [
  'table create <name> <col>:<type>[:<unit>] ... makes a table (types text, number, date, bool; unit only for numbers; at most 12 columns; key is the row key, not a column).',
  'table drop <name> removes it (the person confirms).',
  'put <table> [<key>] <col>=<value> ... [+delete] writes a row: with a key it updates or adds that row, without one it appends; +delete with a key removes the row (the person confirms).',
  'Values: 72.5, word, "quoted words", 2026-11-21, 2026-11-21T08:30, today, today-1, today+2, now, on, off, +Col (on), Col= (empty).',
  'Table lines take no @id, do not count as components, draw nothing and do not end a group.',
];

const MORE_RULES = [
  'group[@<id>] [stack|row|card] ["<title>"] starts a group; the following components join it until end or the next group.',
  'end closes the open group.',
  '@<id> <prop>=<value> ... patches a component written earlier (on this screen or an earlier one); <prop>= resets it.',
  `theme <key>=<value> ... restyles you: ${[...THEME_WORD_KEYS].join(', ')} take one look word; accent and bg take #RRGGBB; ${Object.entries(
    THEME_STYLE_KEYS,
  )
    .map(([k, words]) => `${k}=${words.join('|')}`)
    .join(', ')}.`,
  'In a reply, put the lines in a fenced ```svc block.',
];

function componentSection(spec: ComponentSpec): string {
  const lines = [
    `### ${spec.name}${spec.staged ? ' (staged)' : ''}`,
    '',
    spec.summary,
    '',
    `    ${spec.usage}`,
    '',
  ];
  for (const setting of spec.settings) lines.push(`- ${setting.name}=: ${setting.hint}`);
  for (const flag of spec.flags) lines.push(`- +${flag.name}: ${flag.hint}`);
  const limits = Object.entries(spec.limits);
  if (limits.length > 0) lines.push(`- limits: ${limits.map(([k, v]) => `${k} ${v}`).join(', ')}`);
  lines.push('', 'Examples:', '');
  for (const example of spec.examples) lines.push(`    ${example}`);
  if (spec.events.length > 0) {
    lines.push('', 'Taps:', '');
    for (const event of spec.events) {
      lines.push(`- ${event.when}${event.quiet ? ' (quiet: stays on the phone)' : ''}:`, '');
      if (!event.quiet)
        lines.push(
          ...formatTapLine(event.example)
            .split('\n')
            .map((l) => `      ${l}`),
          '',
        );
      else lines.push(`      ${JSON.stringify(event.example)}`, '');
    }
  } else lines.push('');
  return lines.join('\n').trimEnd();
}

function buildText(): string {
  return [
    '# Screen Lines',
    '',
    "Screen Lines put a screen on the person's phone: one component per line.",
    '',
    '## Rules',
    '',
    ...RULES.map((r) => `- ${r}`),
    ...MORE_RULES.map((r) => `- ${r}`),
    '',
    '## Components',
    '',
    ...Object.values(catalog).map((spec) => `${componentSection(spec)}\n`),
    '## Tables',
    '',
    ...TABLE_RULES.map((r) => `- ${r}`),
    '',
    'Example:',
    '',
    '    table create weights Day:date Weight:number:kg',
    '    put weights Day=today Weight=72.5',
    '    query weights sort=-Day limit=7 as chart line x=Day y=Weight',
    '',
  ].join('\n');
}

function buildShort(): string {
  return [
    'Screen Lines: one component per line, <component>[@<id>] <arguments>.',
    ...Object.values(catalog).map((spec) => `${spec.usage}${spec.staged ? '  (staged)' : ''}`),
    'Rules: options joined by | (quote ones with spaces); tap ids from @<id>, else n1, n2, ... in order; a tap returns [svc] <tap_id> <preset> <key>=<value> + JSON; table create / put / table drop lines manage tables; @<id> prop=value patches; group ... end groups; theme key=value restyles.',
  ].join('\n');
}

/** FNV-1a over the text, as 8 hex digits: the guide version changes whenever the generated text does. */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

let cached: { text: string; short: string; version: string } | undefined;

/**
 * The channel guide generated from the catalog: `text` is the full reference (svc_guide, svc://guide, the A2A
 * channel guide), `short` is one line per component for tool descriptions, `version` names this exact text.
 *
 * @example
 * ```ts
 * const { text, short, version } = guide();
 * version; // '1+3f9a0c12' (language version + hash of the guide)
 * ```
 */
export function guide(): { text: string; short: string; version: string } {
  if (!cached) {
    const text = buildText();
    const short = buildShort();
    cached = { text, short, version: `${LANGUAGE_VERSION}+${hash(text + short)}` };
  }
  return { ...cached };
}
