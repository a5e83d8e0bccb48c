// Property tests: no string makes parse throw, format round-trips, ids stay unique; fresh inputs of every kind
// (test/generate.ts) give answers the corpus could record (ADR 0243).
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { catalog, format, parse } from '../src/index.js';
import { decodeCase, encodeCase, sameAnswer } from './corpus-codec.js';
import { input } from './generate.js';

/**
 * Fresh generated inputs per run (new ones every run, unlike the recorded corpus). SCREEN_LINES_FRESH_RUNS
 * raises the count for a longer search.
 */
const FRESH_RUNS = Number(process.env.SCREEN_LINES_FRESH_RUNS ?? 20_000);
/** Generous: about 5 s of CPU, but the machines this runs on are shared, and a slow run is not a wrong one. */
const FRESH_TIMEOUT = 10 * 60_000;

const word = fc.stringMatching(/^[A-Za-z][A-Za-z0-9_-]{0,8}$/);
const messy = fc.string({
  unit: fc.constantFrom(
    'a',
    'B',
    '1',
    ' ',
    '"',
    '|',
    '=',
    '+',
    '@',
    '-',
    ':',
    '\\',
    '~',
    '<',
    '!',
    '`',
    'é',
    '.',
    '%',
    '/',
  ),
  maxLength: 16,
});
const value = fc.oneof(
  word,
  fc.integer({ min: -1000, max: 1000 }).map(String),
  fc.double({ min: -1e6, max: 1e6, noNaN: true }).map((n) => n.toFixed(2)),
  fc.constantFrom('today', 'today-3', 'today+1', 'now', 'on', 'off', '2026-11-21', '2026-11-21T08:30', ''),
  messy.map((s) => JSON.stringify(s)),
);
const options = fc.array(
  fc.oneof(
    word,
    messy.filter((s) => s.trim() !== '').map((s) => JSON.stringify(s)),
  ),
  {
    minLength: 1,
    maxLength: 4,
  },
);

const examples = Object.values(catalog).flatMap((spec) => spec.examples);

/** Lines that are mostly valid, from every kind of line the language has. */
const line = fc.oneof(
  fc.tuple(fc.constantFrom(...examples), fc.option(word), messy).map(([example, id, extra]) => {
    const named = id ? example.replace(/^([a-z]+)(@\S+)?/, `$1@${id}`) : example;
    return extra.length % 3 === 0 ? `${named} ${extra}` : named;
  }),
  fc
    .tuple(
      fc.constantFrom(...Object.keys(catalog)),
      fc.option(word),
      fc.array(fc.oneof(word, messy, value), { maxLength: 5 }),
    )
    .map(([name, id, args]) => `${name}${id ? `@${id}` : ''} ${args.join(' ')}`),
  fc
    .tuple(fc.option(word), messy, options, fc.boolean())
    .map(
      ([id, q, opts, multi]) =>
        `choose${id ? `@${id}` : ''} ${JSON.stringify(q)} ${opts.join('|')}${multi ? ' +multi' : ''}`,
    ),
  fc.tuple(fc.constantFrom('5m', '90s', '1h30m', '2:30', '7'), messy).map(([d, l]) => `timer ${d} ${l}`),
  fc
    .tuple(
      word,
      fc.array(fc.tuple(word, fc.constantFrom('text', 'number', 'date', 'bool', 'number:kg')), {
        maxLength: 4,
      }),
    )
    .map(([t, cols]) => `table create ${t} ${cols.map(([c, ty]) => `${c}:${ty}`).join(' ')}`),
  fc
    .tuple(word, fc.option(word), fc.array(fc.tuple(word, value), { maxLength: 4 }), fc.boolean())
    .map(
      ([t, key, vals, del]) =>
        `put ${t}${key ? ` ${key}` : ''} ${vals.map(([c, v]) => `${c}=${v}`).join(' ')}${del ? ' +delete' : ''}`,
    ),
  fc
    .tuple(
      word,
      fc.array(fc.tuple(word, fc.constantFrom('=', '!=', '>', '<', '>=', '<=', '~'), value), {
        maxLength: 3,
      }),
      fc.array(
        fc.constantFrom(
          'sort=-A|B',
          'limit=9',
          'cols=A|B',
          'group=D:week',
          'sum=A',
          'avg=B',
          'min=0',
          'max=C',
          '+count',
          'as chart bar',
          'as list',
          'as stat',
          'y=A',
          'x=D',
          'unit=kg',
          '+stack',
          'label="x y"',
          'check=Done',
          'good=up',
          'Title',
        ),
        { maxLength: 4 },
      ),
    )
    .map(
      ([t, where, rest]) =>
        `query ${t}${where.length ? ` where=${where.map(([c, o, v]) => `${c}${o}${v}`).join('|')}` : ''} ${rest.join(' ')}`,
    ),
  fc
    .tuple(word, fc.array(fc.tuple(word, value), { minLength: 1, maxLength: 3 }))
    .map(([id, props]) => `@${id} ${props.map(([k, v]) => `${k.toLowerCase()}=${v}`).join(' ')}`),
  fc
    .tuple(fc.option(word), fc.constantFrom('', 'row', 'card', 'stack'), messy)
    .map(([id, layout, title]) => `group${id ? `@${id}` : ''} ${layout} ${title}`),
  fc.constantFrom(
    'end',
    'divider',
    'theme accent=#3366ff gallery=grid radius=round',
    'theme preset=ocean by=agent at=2026-11-21T10:00:00Z',
  ),
  fc.tuple(messy).map(([t]) => `text ${t}`),
);
const document = fc.array(line, { maxLength: 8 }).map((lines) => lines.join('\n'));

describe('properties', () => {
  test('no string makes parse throw, and every error is well formed', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ maxLength: 200 }), fc.string({ unit: 'binary', maxLength: 100 }), document),
        (text) => {
          const { ops, errors, spans } = parse(text);
          expect(spans).toHaveLength(ops.length);
          for (const error of errors) {
            expect(error.code).not.toBe('INTERNAL_ERROR');
            expect(error.message.startsWith(`line ${error.line}: `)).toBe(true);
            expect(error.column).toBeGreaterThanOrEqual(1);
          }
        },
      ),
      { numRuns: 3000 },
    );
  });

  test('parse(format(parse(x).ops)).ops deep-equals parse(x).ops', () => {
    fc.assert(
      fc.property(document, (text) => {
        const first = parse(text, { screen: 's1' });
        const printed = format(first.ops);
        const second = parse(printed, { screen: 's1' });
        expect(second.errors).toEqual([]);
        expect(second.ops).toStrictEqual(first.ops);
      }),
      { numRuns: 3000 },
    );
  });

  test('the generated documents exercise every kind of op (so the round trip means something)', () => {
    const seen = new Map<string, number>();
    for (const text of fc.sample(document, { numRuns: 1500, seed: 7 })) {
      for (const op of parse(text).ops) {
        const kind = op.op === 'add' ? op.preset : op.op;
        seen.set(kind, (seen.get(kind) ?? 0) + 1);
      }
    }
    for (const kind of [...Object.keys(catalog), 'table', 'put', 'patch', 'group', 'end', 'theme']) {
      expect(seen.get(kind) ?? 0, kind).toBeGreaterThan(0);
    }
  });

  test(
    `${FRESH_RUNS.toLocaleString('en-US')} fresh inputs of every kind: no throw, no INTERNAL_ERROR, answers the corpus can hold`,
    () => {
      fc.assert(
        fc.property(input, ({ text, options }) => {
          const opts = { idStart: options.idStart, ...(options.screen ? { screen: options.screen } : {}) };
          const result = parse(text, opts);
          expect(result.spans).toHaveLength(result.ops.length);
          for (const error of result.errors) expect(error.code).not.toBe('INTERNAL_ERROR');
          // What SCREEN_LINES_WRITE_CORPUS would record must read back as the same answer.
          const back = decodeCase(encodeCase({ text, options: opts, result }));
          expect(sameAnswer(back.result, result), 'the answer survives the corpus format').toBe(true);
        }),
        { numRuns: FRESH_RUNS },
      );
    },
    FRESH_TIMEOUT,
  );

  test('ids on a screen are unique', () => {
    fc.assert(
      fc.property(document, (text) => {
        const ids = parse(text)
          .ops.filter((op) => op.op === 'add' || op.op === 'group')
          .map((op) => (op as { id: string }).id);
        expect(new Set(ids).size).toBe(ids.length);
      }),
      { numRuns: 2000 },
    );
  });
});
