// A model of what screen-view sends for each answerable component (read from its drawers), as fast-check
// arbitraries: random screens, the events the renderer would produce for them, and values it never produces.
import fc from 'fast-check';
import type { AddOp } from '../src/ops.js';

/** A screen component and one event the renderer would send for it (without id, preset, screen). */
export interface Offered {
  component: AddOp;
  event: { value: unknown; [key: string]: unknown };
  quiet: boolean;
}

const add = (preset: string, props: Record<string, unknown>): AddOp => ({
  op: 'add',
  preset,
  id: 'c1',
  props,
});

/** Option-like text: letters, digits, spaces inside, punctuation and a few non-Latin letters. */
export const word = fc
  .string({ unit: fc.constantFrom(...'abcXYZ019 -_.,!?éßж中"|'.split('')), minLength: 1, maxLength: 12 })
  .map((s) => s.trim())
  .filter((s) => s !== '');
const distinct = (min: number, max: number) => fc.uniqueArray(word, { minLength: min, maxLength: max });

const pickOne = <T>(list: readonly T[]) => fc.nat({ max: list.length - 1 }).map((i) => list[i]!);
const subset = <T>(list: readonly T[], min: number) =>
  fc
    .array(fc.boolean(), { minLength: list.length, maxLength: list.length })
    .map((flags) => list.filter((_, i) => flags[i]))
    .filter((s) => s.length >= min);

const choose = distinct(2, 12).chain((options) =>
  fc.boolean().chain((multi) =>
    (multi ? subset(options, 1) : pickOne(options)).map((value) => ({
      component: add('choose', { question: 'Q?', options, multi }),
      event: { value },
      quiet: false,
    })),
  ),
);

const confirm = fc.option(distinct(2, 2), { nil: undefined }).chain((options) =>
  fc.boolean().map((value) => {
    const [yes, no] = options ?? ['Yes', 'No'];
    return {
      component: add('confirm', { question: 'Sure?', options: options ?? ['Yes', 'No'] }),
      event: { value, label: value ? yes : no },
      quiet: false,
    };
  }),
);

const buttons = distinct(1, 6).chain((options) =>
  pickOne(options).map((value) => ({
    component: add('buttons', { prompt: '', options, layout: 'row' }),
    event: { value },
    quiet: false,
  })),
);

const checkin = fc
  .record({
    kind: fc.constantFrom('scale', 'mood', 'rating'),
    min: fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }),
    max: fc.option(fc.integer({ min: 21, max: 100 }), { nil: undefined }),
  })
  .chain(({ kind, min, max }) => {
    const lo = min ?? 1;
    const hi = max ?? (kind === 'scale' ? 10 : 5);
    const props = {
      kind,
      question: 'How?',
      ...(min === undefined ? {} : { min }),
      ...(max === undefined ? {} : { max }),
    };
    return fc.integer({ min: lo, max: hi }).map((value) => ({
      component: add('checkin', props),
      event: { value, kind },
      quiet: false,
    }));
  });

const checklist = distinct(1, 30).chain((items) =>
  fc.oneof(
    fc.record({ item: pickOne(items), checked: fc.boolean() }).map((tick) => ({
      component: add('checklist', { title: '', items }),
      event: { value: tick },
      quiet: true,
    })),
    subset(items, 0).map((done) => ({
      component: add('checklist', { title: '', items }),
      event: { value: done },
      quiet: false,
    })),
  ),
);

const TYPES = ['text', 'long', 'number', 'date', 'bool', 'email'] as const;
const trimmedText = (unit: fc.Arbitrary<string>) =>
  fc
    .string({ unit, minLength: 1, maxLength: 60 })
    .map((s) => s.trim())
    .filter((s) => s !== '');
const lineChar = fc.constantFrom(...'ab Z9.,;:-!?"\'é中ж'.split(''));
/** A value the renderer reads from a filled input of `type` (trimmed text; a date input's value...). */
export const typedValue = (type: string): fc.Arbitrary<unknown> => {
  switch (type) {
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e12, max: 1e12 });
    case 'date':
      return fc
        .date({
          min: new Date('0001-01-01T00:00:00Z'),
          max: new Date('9999-12-31T00:00:00Z'),
          noInvalidDate: true,
        })
        .map((d) => d.toISOString().slice(0, 10));
    case 'email':
      return fc
        .tuple(
          fc.stringMatching(/^[a-z0-9._%+-]{1,20}$/),
          fc.stringMatching(/^[a-z0-9]{1,10}(\.[a-z]{2,6}){1,2}$/),
        )
        .map(([local, domain]) => `${local}@${domain}`);
    case 'bool':
      return fc.boolean();
    case 'long':
      return trimmedText(fc.oneof(lineChar, fc.constant('\n')));
    default:
      return trimmedText(lineChar);
  }
};

// Built once: an arbitrary made from a regex is slow to build, and `chain` would build one per run.
const TYPED: Readonly<Record<string, fc.Arbitrary<unknown>>> = Object.fromEntries(
  TYPES.map((t) => [t, typedValue(t)]),
);
const OPTIONAL_TYPED: Readonly<Record<string, fc.Arbitrary<unknown>>> = Object.fromEntries(
  TYPES.map((t) => [t, t === 'bool' ? TYPED[t]! : fc.option(TYPED[t]!, { nil: undefined })]),
);

const ask = fc.constantFrom('text', 'long', 'number', 'date', 'email').chain((type) =>
  TYPED[type]!.map((value) => ({
    component: add('ask', { question: 'Q?', type }),
    event: { value },
    quiet: false,
  })),
);

const fieldKey = fc.stringMatching(/^[a-z][a-z0-9_]{0,11}$/);
const form = fc
  .uniqueArray(fc.record({ key: fieldKey, type: fc.constantFrom(...TYPES) }), {
    selector: (f) => f.key,
    minLength: 1,
    maxLength: 12,
  })
  .chain((fields) =>
    fc.tuple(...fields.map((f) => OPTIONAL_TYPED[f.type]!)).map((values) => {
      const value: Record<string, unknown> = {};
      fields.forEach((f, i) => {
        if (values[i] !== undefined) value[f.key] = values[i];
      });
      return { component: add('form', { title: '', fields }), event: { value }, quiet: false };
    }),
  );

const photo = fc.integer({ min: 1, max: 10 }).chain((max) =>
  fc.record({ count: fc.integer({ min: 1, max }), uploaded: fc.boolean() }).map(({ count, uploaded }) => ({
    component: add('photo', { prompt: 'Show me', max }),
    event: {
      value: count,
      photos: uploaded ? Array.from({ length: count }, (_, i) => `https://svc.test/p/${i}.jpg`) : [],
    },
    quiet: false,
  })),
);

const timer = fc.integer({ min: 1, max: 86_400 }).chain((seconds) =>
  fc.constantFrom('start', 'done').map((value) => ({
    component: add('timer', { seconds, label: 'Tea' }),
    event: { value, seconds },
    quiet: value === 'start',
  })),
);

const deck = fc.uniqueArray(word, { minLength: 1, maxLength: 20 }).chain((cards) =>
  fc.integer({ min: 1, max: cards.length }).map((value) => ({
    component: add('deck', { cards }),
    event: { value },
    quiet: value < cards.length,
  })),
);

const colName = fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,11}$/);
const cell = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  word,
);
const queryRow = fc.record({ table: colName, check: colName, key: word, checked: fc.boolean() }).map((q) => ({
  component: add('query', {
    table: q.table,
    where: [],
    sort: [],
    cols: [],
    y: [],
    sum: [],
    avg: [],
    min: [],
    max: [],
    count: false,
    as: 'list',
    check: q.check,
  }),
  event: { value: q.key, op: 'row', table: q.table, key: q.key, values: { [q.check]: q.checked } },
  quiet: false,
}));
const querySend = fc
  .record({
    table: colName,
    cols: fc.uniqueArray(colName, { minLength: 1, maxLength: 6 }),
    extra: fc.nat(1000),
  })
  .chain(({ table, cols, extra }) =>
    fc
      .array(fc.array(cell, { minLength: cols.length, maxLength: cols.length }), {
        minLength: 1,
        maxLength: 200,
      })
      .map((rows) => ({
        component: add('query', {
          table,
          where: [],
          sort: [],
          cols: [],
          y: [],
          sum: [],
          avg: [],
          min: [],
          max: [],
          count: false,
          as: 'send',
        }),
        event: { value: rows.length + extra, op: 'query', table, cols, rows, count: rows.length + extra },
        quiet: false,
      })),
  );

/** Every answerable component of the catalog with its model of the renderer's events. */
export const OFFERED: Readonly<Record<string, fc.Arbitrary<Offered>>> = {
  timer,
  choose,
  confirm,
  buttons,
  checkin,
  checklist,
  ask,
  form,
  photo,
  deck,
  query: fc.oneof(queryRow, querySend),
};

/** JSON values of every shape, for values and fields a renderer never sends. */
export const anyJson: fc.Arbitrary<unknown> = fc.jsonValue({ maxDepth: 2 });
