// Tests of compile-check: every catalog schema compiles, and the compiled check never accepts what zod refuses.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { catalog } from './catalog/index.js';
import { z } from './catalog/zod.js';
import { compiledCheck } from './compile-check.js';
import { parse } from './parse.js';

describe('compiledCheck', () => {
  test('compiles the props schema of every catalog component (none falls back to zod for valid lines)', () => {
    for (const spec of Object.values(catalog)) expect(compiledCheck(spec.props), spec.name).toBeDefined();
  });

  test('accepts the props of every catalog example', () => {
    for (const spec of Object.values(catalog)) {
      if (spec.name === 'query') continue; // query props are built by readQuery, not checked by zod
      for (const example of spec.examples) {
        const [op] = parse(example).ops;
        expect(op?.op === 'add' && compiledCheck(spec.props)!(op.props), example).toBe(true);
      }
    }
  });

  test('agrees with zod on values near every limit', () => {
    const value = fc.oneof(
      fc.string({ maxLength: 3 }),
      fc.string({ minLength: 79, maxLength: 82 }),
      fc.constantFrom('https://example.com/a.jpg', 'http://x', 'ftp://x', 'up', 'row', 'grid', 'text', ''),
      fc.constantFrom(0, 1, -1, 0.5, 10, 11, 100, 101, 86_400, 86_401, Number.NaN, Number.POSITIVE_INFINITY),
      fc.boolean(),
      fc.constant(undefined),
      fc.array(fc.oneof(fc.string({ maxLength: 3 }), fc.record({ label: fc.string(), value: fc.integer() }))),
    );
    for (const spec of Object.values(catalog)) {
      const check = compiledCheck(spec.props)!;
      const keys = [...Object.keys(spec.defaults), ...spec.slots.map((s) => s.prop), 'min', 'max', 'unit'];
      fc.assert(
        fc.property(fc.dictionary(fc.constantFrom(...keys), value), (props) => {
          const merged = { ...spec.defaults, ...props };
          // The compiled check may refuse more than zod (zod then decides), never accept more.
          if (check(merged)) expect(spec.props.safeParse(merged).success).toBe(true);
        }),
        { numRuns: 500 },
      );
    }
  });

  test('fields checked as leaves (bounds, words, optional, lists) agree with zod exactly', () => {
    const schema = z.object({
      s: z.string().min(1).max(5),
      u: z.string().regex(/^a+$/).optional(),
      n: z.number().int().min(0).max(10).gt(-1).lt(11),
      f: z.number().gt(0).optional(),
      b: z.boolean(),
      e: z.enum(['row', 'stack']),
      l: z.literal('x').optional(),
      list: z.array(z.string().max(2)).min(1).max(3),
    });
    const check = compiledCheck(schema as never)!;
    const value = fc.oneof(
      fc.string({ maxLength: 7 }),
      fc.constantFrom('a', 'aa', 'ab', 'row', 'stack', 'x', ''),
      fc.constantFrom(-1, 0, 0.5, 1, 10, 11, Number.NaN, Number.POSITIVE_INFINITY),
      fc.boolean(),
      fc.constant(undefined),
      fc.array(fc.oneof(fc.string({ maxLength: 3 }), fc.integer()), { maxLength: 4 }),
    );
    // Each key is valid half the time, so whole objects are often valid and the agreement is not only on refusals.
    const valid: Record<string, unknown[]> = {
      s: ['a', 'abcde'],
      u: [undefined, 'aaa'],
      n: [0, 5, 10],
      f: [undefined, 0.1],
      b: [true, false],
      e: ['row', 'stack'],
      l: [undefined, 'x'],
      list: [['a'], ['ab', 'b', '']],
    };
    const props = fc.record(
      Object.fromEntries(
        Object.entries(valid).map(([k, ok]) => [k, fc.oneof(fc.constantFrom(...ok), value)]),
      ),
    );
    let accepted = 0;
    fc.assert(
      fc.property(props, (props) => {
        if (check(props)) accepted++;
        expect(check(props)).toBe(schema.safeParse(props).success);
      }),
      { numRuns: 3_000 },
    );
    expect(accepted).toBeGreaterThan(10);
  });

  test('a schema part it does not know compiles to undefined, so zod decides', () => {
    expect(compiledCheck(z.object({ a: z.string() }).strict() as never)).toBeUndefined();
  });
});
