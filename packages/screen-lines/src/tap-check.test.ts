// checkTap: what the renderer offers passes, everything else is refused with what the screen accepts.
import fc from 'fast-check';
import { describe, expect, it, test } from 'vitest';
import { anyJson, OFFERED, type Offered, word } from '../test/tap-model.js';
import { catalog } from './catalog/index.js';
import type { AddOp } from './ops.js';
import { parse } from './parse.js';
import { checkTap, componentOn } from './tap-check.js';

const answerable = Object.values(catalog).filter((spec) => spec.tap !== undefined);

/** The refusal of a tap the test expects refused. */
function refused(component: AddOp, event: { value?: unknown; [key: string]: unknown }) {
  const verdict = checkTap(component, event);
  if (verdict.ok) throw new Error(`accepted ${JSON.stringify(event)}`);
  return verdict;
}
const RUNS = { numRuns: 300 };

/** The event minus what the server keeps from elsewhere (photo links come from the uploads). */
function kept(o: Offered): Record<string, unknown> {
  const { value: _v, ...fields } = o.event;
  if (o.component.preset === 'photo') delete fields.photos;
  return fields;
}

describe('checkTap over every answerable component (property)', () => {
  it('the model covers every component of the catalog that takes taps, and only those', () => {
    expect(answerable.map((s) => s.name).sort()).toEqual(Object.keys(OFFERED).sort());
    for (const spec of Object.values(catalog)) {
      expect(spec.tap === undefined, spec.name).toBe(spec.events.length === 0);
    }
  });

  test.each(Object.keys(OFFERED))(
    '%s: every event the renderer offers passes, with its quiet flag',
    (name) => {
      fc.assert(
        fc.property(OFFERED[name]!, (o) => {
          const verdict = checkTap(o.component, o.event);
          expect(verdict, JSON.stringify(o)).toMatchObject({
            ok: true,
            quiet: o.quiet,
            value: o.event.value,
          });
          if (verdict.ok) expect(verdict.fields).toEqual(kept(o));
        }),
        RUNS,
      );
    },
  );

  test.each(Object.keys(OFFERED))('%s: a field its events never carry is refused', (name) => {
    const field = fc
      .stringMatching(/^[a-z_]{1,12}$/)
      .filter(
        (k) =>
          ![
            'value',
            'id',
            'preset',
            'screen',
            'seconds',
            'label',
            'kind',
            'photos',
            'op',
            'table',
            'key',
            'values',
            'cols',
            'rows',
            'count',
          ].includes(k),
      );
    fc.assert(
      fc.property(OFFERED[name]!, field, anyJson, (o, key, value) => {
        const verdict = checkTap(o.component, { ...o.event, [key]: value });
        expect(verdict).toMatchObject({ ok: false, field: `event.${key}` });
      }),
      RUNS,
    );
  });

  test.each(Object.keys(OFFERED))(
    '%s: any other value is refused, and the message names what it accepts',
    (name) => {
      fc.assert(
        fc.property(OFFERED[name]!, anyJson, (o, value) => {
          const event = { ...o.event, value };
          const verdict = checkTap(o.component, event);
          if (verdict.ok) {
            // Accepted only when the value is one the renderer could have sent for this screen.
            expect(offers(o, value), JSON.stringify({ component: o.component, value })).toBe(true);
          } else {
            expect(verdict.message).toMatch(new RegExp(`^${name} "c1" accepts .+; got .+\\.$`));
            expect(verdict.message).toContain(verdict.accepts);
          }
        }),
        RUNS,
      );
    },
  );
});

/** Whether the renderer could send `value` for this component (the model's side, written apart from the rules). */
function offers(o: Offered, value: unknown): boolean {
  const p = o.component.props as Record<string, never>;
  const list = (k: string): unknown[] => (Array.isArray(p[k]) ? p[k] : []);
  const distinctOf = (from: unknown[], v: unknown, min: number) =>
    Array.isArray(v) && v.length >= min && new Set(v).size === v.length && v.every((x) => from.includes(x));
  switch (o.component.preset) {
    case 'choose':
      return p.multi ? distinctOf(list('options'), value, 1) : list('options').includes(value);
    case 'buttons':
      return list('options').includes(value);
    case 'confirm':
      return value === o.event.value; // the label must still name the button
    case 'checklist':
      return distinctOf(list('items'), value, 0) || (isTick(value) && list('items').includes(value.item));
    case 'deck':
      return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= list('cards').length;
    case 'timer':
      return value === 'start' || value === 'done';
    case 'checkin': {
      const lo = typeof p.min === 'number' ? p.min : 1;
      const hi = typeof p.max === 'number' ? p.max : p.kind === 'scale' ? 10 : 5;
      return Number.isInteger(value) && (value as number) >= lo && (value as number) <= hi;
    }
    case 'photo':
      return (
        Number.isInteger(value) && (value as number) >= 1 && (value as number) <= (p.max as unknown as number)
      );
    case 'ask':
      return typeof value === (p.type === 'number' ? 'number' : 'string');
    case 'form': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
      const fields = list('fields') as { key: string; type: string }[];
      return Object.entries(value).every(([k, v]) => {
        const type = fields.find((f) => f.key === k)?.type;
        if (type === undefined) return false;
        return typeof v === (type === 'number' ? 'number' : type === 'bool' ? 'boolean' : 'string');
      });
    }
    default:
      // query: the event's other fields (the row key, the count) pin the value down.
      return value === o.event.value;
  }
}

const isTick = (v: unknown): v is { item: unknown; checked: boolean } =>
  typeof v === 'object' &&
  v !== null &&
  Object.keys(v).length === 2 &&
  typeof (v as { checked?: unknown }).checked === 'boolean';

describe('checkTap: the messages a person or an agent reads', () => {
  const on = (lines: string, id = 'c') => componentOn(parse(lines).ops, id)!;

  it('names the options of a choose and the buttons of a confirm', () => {
    const ok = on('choose@ok "Deploy to production?" Yes|No', 'ok');
    expect(checkTap(ok, { value: 'Pizza' })).toEqual({
      ok: false,
      field: 'event.value',
      accepts: 'one of: Yes, No',
      message: 'choose "ok" accepts one of: Yes, No; got "Pizza".',
    });
    expect(checkTap(ok, { value: ['Yes'] }).ok).toBe(false);
    const multi = on('choose@c "Toppings?" Cheese|"Hot peppers"|Olives +multi');
    expect(checkTap(multi, { value: ['Olives', 'Cheese'] })).toMatchObject({
      ok: true,
      value: ['Cheese', 'Olives'],
    });
    expect(checkTap(multi, { value: ['Olives', 'Olives'] }).ok).toBe(false);
    expect(checkTap(multi, { value: [] }).ok).toBe(false);
    expect(refused(multi, { value: 'Olives' }).message).toContain(
      'a list of one or more of: Cheese, Hot peppers, Olives',
    );
  });

  it('checks each typed answer: formats, bounds and lengths', () => {
    const cases: [string, unknown, boolean][] = [
      ['text', 'Sam', true],
      ['text', '   ', false],
      ['text', 'two\nlines', false],
      ['text', 'x'.repeat(2000), true],
      ['text', 'x'.repeat(2001), false],
      ['long', 'two\nlines', true],
      ['long', 'bell\u0007', false],
      ['number', 72.5, true],
      ['number', '72.5', false],
      ['date', '2024-02-29', true],
      ['date', '2023-02-29', false],
      ['date', '2026-13-01', false],
      ['date', '26-01-01', false],
      ['email', 'ana@example.com', true],
      ['email', 'ana@', false],
      ['email', 'ana@localhost', false],
      ['email', 'a b@example.com', false],
      ['email', `${'a'.repeat(250)}@x.io`, false],
    ];
    for (const [type, value, ok] of cases) {
      expect(checkTap(on(`ask@c "Q?" type=${type}`), { value }).ok, `${type} ${JSON.stringify(value)}`).toBe(
        ok,
      );
    }
    expect(refused(on('ask@c "Q?" type=email'), { value: 'x' }).message).toBe(
      'ask "c" accepts an email address like name@example.com (at most 254 characters); got "x".',
    );
  });

  it('checks a checkin against its scale, a photo against its max, a query against its view', () => {
    expect(refused(on('checkin@c rating "Stars?"'), { value: 6 }).message).toBe(
      'checkin "c" accepts a number from 1 to 5 in steps of 1; got 6.',
    );
    expect(refused(on('checkin@c mood "Mood?"'), { value: 3, kind: 'scale' }).field).toBe('event.kind');
    expect(refused(on('photo@c "Show me" max=2'), { value: 3 }).message).toContain('1 to 2');
    expect(refused(on('photo@c "Show me"'), { value: 1, photos: ['a', 'b'] }).field).toBe('event.photos');
    expect(refused(on('query@c shopping as table'), { value: 'milk', op: 'row' }).message).toContain(
      'no taps (it is drawn as table)',
    );
    const list = on('query@c shopping where=Done=off as list check=Done');
    const row = { value: 'milk', op: 'row', table: 'shopping', key: 'milk', values: { Done: true } };
    expect(checkTap(list, row).ok).toBe(true);
    expect(refused(list, { ...row, values: { Price: 0 } }).field).toBe('event.values');
    expect(refused(list, { ...row, table: 'secrets' }).field).toBe('event.table');
  });

  it('refuses a component that takes no taps', () => {
    expect(checkTap(on('text@c hello'), { value: 'x' })).toMatchObject({ ok: false, field: 'event.id' });
  });

  it('every event example of the catalog passes on a screen of its component', () => {
    for (const spec of answerable) {
      const lines = [...spec.examples, ...(spec.name === 'query' ? ['query weights as send'] : [])];
      const components = lines.map((l) => parse(l).ops[0] as AddOp);
      for (const { example } of spec.events) {
        const { id: _i, preset: _p, ...event } = example;
        const accepted = components.some((c) => checkTap(c, event).ok);
        expect(accepted, `${spec.name} ${JSON.stringify(example)}`).toBe(true);
      }
    }
  });
});

describe('componentOn: the component as the renderer draws it', () => {
  it('applies the patch lines after it in order; a prop= puts back its default; earlier patches do not count', () => {
    const { ops } = parse('@q options=X|Y\nchoose@q "Pick" A|B +multi\n@q options=A|B|C\n@q multi=');
    expect(componentOn(ops, 'q')?.props).toMatchObject({ options: ['A', 'B', 'C'], multi: false });
    expect(componentOn(ops, 'zz')).toBeUndefined();
  });

  it('never lets a stored patch reach the prototype', () => {
    fc.assert(
      fc.property(word, (w) => {
        const ops = [
          {
            op: 'add',
            preset: 'choose',
            id: 'q',
            props: { question: 'Q', options: ['A', 'B'], multi: false },
          },
          JSON.parse(`{"op":"patch","id":"q","props":{"__proto__":{"options":[${JSON.stringify(w)}]}}}`),
        ];
        const c = componentOn(ops, 'q')!;
        expect(Object.getPrototypeOf(c.props)).toBe(Object.prototype);
        expect(checkTap(c, { value: w }).ok).toBe(w === 'A' || w === 'B');
      }),
    );
  });
});
