// Generators of Screen Lines text (the inputs of the recorded corpus, ADR 0243, and of the fresh-input property
// test): realistic valid and broken lines of every component, table word, patch, group, end, theme and fence,
// with the characters that stress a scanner (quotes, escapes, unicode spaces, every kind of line break).
import fc from 'fast-check';
import { catalog } from '../src/index.js';

const spec = Object.values(catalog);
const components = spec.map((s) => s.name);

/** Names: mostly valid, sometimes too long, odd-cased, reserved-looking or starting with a digit. */
const name = fc.oneof(
  { weight: 6, arbitrary: fc.stringMatching(/^[A-Za-z][A-Za-z0-9_-]{0,8}$/) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('n1', 'g2', 'key', '_x', '1abc', 'a'.repeat(33), 'é', 'Day', 'Weight'),
  },
);

/** Characters that every part of the scanner reacts to. */
const messy = fc.string({
  unit: fc.constantFrom(
    ...'aB1 "|=+@-:\\~<>!`é.%/,#*()?'.split(''),
    '\t',
    '\u00a0',
    '\u2028',
    '\u3000',
    '\ufeff',
    '😀',
    '```',
    'today',
    'now',
    'on',
    'off',
  ),
  maxLength: 14,
});

/** A quoted string, sometimes with escapes, sometimes never closed. */
const quoted = fc.oneof(
  { weight: 4, arbitrary: messy.map((s) => JSON.stringify(s.replace(/[\r\n\u2028]/g, ' '))) },
  { weight: 1, arbitrary: messy.map((s) => `"${s}`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('"a \\"b\\""', '"tab\\there"', '"line\\nbreak"', '"back\\\\"', '"\\q"', '""'),
  },
);

/** Written values of every type the scanner knows. */
const value = fc.oneof(
  name,
  fc.integer({ min: -1000, max: 100_000 }).map(String),
  fc.double({ min: -1e6, max: 1e6, noNaN: true }).map((n) => n.toFixed(2)),
  fc.constantFrom(
    '.5',
    '-.5',
    '1.',
    '1.2.3',
    '-',
    '5m',
    '90s',
    '1h30m',
    '40%',
    '3/10',
    '0/0',
    '11/10',
    '-1%',
  ),
  fc.constantFrom(
    'today',
    'today-3',
    'today+1',
    'today+',
    'todays',
    'now',
    'nowhere',
    'on',
    'off',
    'one',
    'of',
  ),
  fc.constantFrom('2026-11-21', '2026-11-21T08:30', '2026-11-21T08', '2026-11-21T08:30:00Z', '2026-1-1', ''),
  fc.constantFrom('https://example.com/a.jpg', 'http://x.y/z?q=1', 'ftp://nope', '#3366ff', '#33f'),
  quoted,
  messy,
);

/** `a|b|c` lists, sometimes spaced, empty, duplicated or too long. */
const options = fc.oneof(
  fc.array(fc.oneof(name, quoted, value), { minLength: 1, maxLength: 5 }).map((xs) => xs.join('|')),
  fc.array(name, { minLength: 2, maxLength: 4 }).map((xs) => xs.join(' | ')),
  fc.constantFrom('a||b', '|a', 'a|', 'a|a', Array.from({ length: 52 }, (_, i) => `o${i}`).join('|')),
);

/** `label=number|...` chart data, sometimes broken. */
const data = fc.oneof(
  fc
    .array(fc.tuple(name, fc.integer({ min: -50, max: 500 })), { minLength: 1, maxLength: 5 })
    .map((xs) => xs.map(([l, v]) => `${l}=${v}`).join('|')),
  fc.constantFrom('Mon=x|Tue=2', '=3', 'A=1|', '"two words"=4|B=2', 'A==1'),
);

/** One argument of a component line, chosen knowing that component's settings, flags and slots. */
function argument(component: (typeof spec)[number]): fc.Arbitrary<string> {
  const settings = component.settings.map((s) => s.name);
  const flags = component.flags.map((f) => f.name);
  const words = component.slots.flatMap((s) => s.words ?? []);
  return fc.oneof(
    { weight: 3, arbitrary: value },
    { weight: 2, arbitrary: options },
    { weight: 1, arbitrary: data },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom(...settings, 'nope', 'Label', 'type'), value)
        .map(([k, v]) => `${k}=${v}`),
    },
    { weight: 1, arbitrary: fc.constantFrom(...flags, 'nope', 'multi', 'stack').map((f) => `+${f}`) },
    { weight: 1, arbitrary: fc.constantFrom(...words, 'line', 'row') },
    {
      weight: 1,
      arbitrary: fc
        .tuple(name, fc.constantFrom('text', 'number', 'date', 'bool', 'long', 'email', 'x', ''))
        .map(([k, t]) => `${k}:${t}`),
    },
  );
}

/**
 * Lines the random parts reach too rarely: props set only through a bound (min=), ids that meet again across lines
 * (patches of a known component, duplicates), a table at its column limit and sorts that are not column names.
 */
const rareLine = fc.constantFrom(
  'checkin scale "How?" min=1 max=5',
  'checkin rating "Stars?" min=0 max=10',
  'chart bar A=1|B=2 min=0 max=10 "Runs"',
  'chart line A=1 min=5',
  'timer@tea 5m Tea\n@tea colour=red',
  'timer@tea 5m Tea\n@tea label=Hot seconds=90',
  'choose@a "Q" x|y\nchoose@a "R" x|z',
  `table create wide ${Array.from({ length: 13 }, (_, i) => `C${i}:text`).join(' ')}`,
  `table create full ${Array.from({ length: 12 }, (_, i) => `C${i}:number`).join(' ')}`,
  'query t sort=1A',
  'query t sort=-"x y"|B',
);

/** `component[@id] args...`: from a catalog example (mostly valid) or built from its parts. */
const componentLine = fc.oneof(
  fc
    .tuple(fc.constantFrom(...spec.flatMap((s) => s.examples)), fc.option(name), fc.option(messy), fc.nat(6))
    .map(([example, id, extra, cut]) => {
      const named = id === null ? example : example.replace(/^([a-z]+)(@\S+)?/, `$1@${id}`);
      const parts = named.split(' ');
      const kept = cut === 0 ? parts.slice(0, Math.max(1, parts.length - 1)) : parts;
      return `${kept.join(' ')}${extra === null ? '' : ` ${extra}`}`;
    }),
  fc
    .constantFrom(...spec)
    .chain((s) =>
      fc
        .tuple(fc.option(name, { freq: 3 }), fc.array(argument(s), { maxLength: 6 }))
        .map(([id, args]) => `${s.name}${id === null ? '' : `@${id}`} ${args.join(' ')}`),
    ),
);

const column = fc
  .tuple(
    name,
    fc.constantFrom('text', 'number', 'date', 'bool', 'number:kg', 'number:"km h"', 'text:kg', 'num', ''),
  )
  .map(([c, t]) => (t === '' ? c : `${c}:${t}`));

const tableLine = fc.oneof(
  fc
    .tuple(fc.constantFrom('create', 'drop', 'make', ''), name, fc.array(column, { maxLength: 14 }))
    .map(([verb, t, cols]) => `table ${verb} ${t} ${cols.join(' ')}`),
  fc
    .tuple(
      name,
      fc.option(fc.oneof(name, quoted)),
      fc.array(fc.tuple(name, value), { maxLength: 4 }),
      fc.array(fc.constantFrom('+delete', '+Done', '+x', 'stray'), { maxLength: 2 }),
    )
    .map(
      ([t, key, vals, extra]) =>
        `put ${t}${key === null ? '' : ` ${key}`} ${vals.map(([c, v]) => `${c}=${v}`).join(' ')} ${extra.join(' ')}`,
    ),
  fc.constantFrom('put', 'table', 'put weights', 'table drop', 'table@x create t A:text'),
);

const whereOp = fc.constantFrom('=', '!=', '>', '<', '>=', '<=', '~', '==', '=>');
const queryClause = fc.oneof(
  fc
    .array(fc.tuple(name, whereOp, value), { minLength: 1, maxLength: 3 })
    .map((xs) => `where=${xs.map(([c, o, v]) => `${c}${o}${v}`).join('|')}`),
  fc.tuple(name, whereOp, messy).map(([c, o, v]) => `where="${c}${o}${v.replace(/["\\\r\n]/g, '')}"`),
  fc.constantFrom(
    'sort=-A|B',
    'sort=A b',
    'limit=9',
    'limit=0',
    'limit=501',
    'limit=x',
    'cols=A|B',
    'group=D:week',
    'group=D:year',
    'group=D:day:x',
    'sum=A',
    'avg=B',
    'min=0',
    'min=A',
    'max=C',
    'max=10',
    '+count',
    'as chart bar',
    'as chart',
    'as list',
    'as stat',
    'as send',
    'as pie',
    'as=table',
    'as=graph',
    'type=line',
    'type=x',
    'y=A',
    'x=D',
    'x=1bad',
    'unit=kg',
    'unit="km h"',
    '+stack',
    '+nope',
    'label="x y"',
    'check=Done',
    'good=up',
    'good=left',
    'nope=1',
    'Title',
    '"A title"',
  ),
);
const queryLine = fc
  .tuple(fc.option(name), fc.oneof(name, fc.constant('')), fc.array(queryClause, { maxLength: 5 }))
  .map(([id, t, clauses]) => `query${id === null ? '' : `@${id}`} ${t} ${clauses.join(' ')}`);

const otherLine = fc.oneof(
  fc
    .tuple(
      name,
      fc.array(fc.tuple(fc.oneof(name, fc.constantFrom('label', 'question', 'options', 'seconds')), value), {
        maxLength: 3,
      }),
    )
    .map(([id, props]) => `@${id} ${props.map(([k, v]) => `${k}=${v}`).join(' ')}`),
  fc
    .tuple(fc.option(name), fc.constantFrom('', 'row', 'card', 'stack', 'grid'), messy)
    .map(([id, layout, title]) => `group${id === null ? '' : `@${id}`} ${layout} ${title}`),
  fc.constantFrom('end', 'end now', 'end@x'),
  fc
    .array(
      fc.oneof(
        fc.constantFrom(
          'accent=#3366ff',
          'bg=#fff',
          'gallery=grid',
          'gallery=wall',
          'radius=round',
          'preset=ocean',
          'by=agent',
          'by=bot',
          'at=2026-11-21T10:00:00Z',
          'at=yesterday',
          'font="two words"',
          'screen=full',
          'nope=1',
          'stray',
        ),
        fc.tuple(name, value).map(([k, v]) => `${k}=${v}`),
      ),
      { maxLength: 4 },
    )
    .map((xs) => `theme ${xs.join(' ')}`),
  fc.constantFrom('```svc', '```tables', '```', '```js', '  ```svc  ', '``` svc', '`x`', '``'),
  fc
    .tuple(
      fc.constantFrom('text', 'math', 'txet', 'chose', 'Timer', 'constructor', '@', '+x', '|', '"q"'),
      messy,
    )
    .map(([h, m]) => `${h} ${m}`),
  messy,
);

/** One line of any kind, with the whitespace a person or a model might put around and inside it. */
export const line = fc
  .tuple(
    fc.oneof(
      { weight: 5, arbitrary: componentLine },
      { weight: 1, arbitrary: rareLine },
      { weight: 2, arbitrary: tableLine },
      { weight: 2, arbitrary: queryLine },
      { weight: 2, arbitrary: otherLine },
    ),
    fc.constantFrom('', '', '', ' ', '\t', '\u00a0', '  '),
  )
  .map(([text, pad]) => `${pad}${text}${pad}`);

/** A text of a few lines joined by any kind of line break, with options for the parse. */
export const input = fc.record({
  text: fc
    .tuple(fc.array(line, { minLength: 1, maxLength: 6 }), fc.constantFrom('\n', '\n', '\r\n', '\r', '\n\n'))
    .map(([lines, br]) => lines.join(br)),
  options: fc.record({
    screen: fc.option(fc.constantFrom('s1', 'home')),
    idStart: fc.integer({ min: 1, max: 50 }),
  }),
});

/** Names of every component, for checking that the generated inputs reach all of them. */
export const COMPONENTS = components;
