// Canonical JSON: the fast path (JSON.stringify of a value whose keys are in order) writes exactly what sorting
// every object's keys writes, for any value.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson, inKeyOrder, sha256 } from './receipt-crypto.js';
import { answerOf } from './receipt-formats.js';

/** The definition, written plainly: every object's keys sorted, undefined members left out. */
function reference(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const members = Object.keys(obj)
    .sort()
    .filter((k) => obj[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}:${reference(obj[k])}`);
  return `{${members.join(',')}}`;
}

/** A small deterministic generator (the same values every run). */
function generator(seed: number) {
  let s = seed;
  const next = () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
  const keys = ['a', 'b', 'id', 'sha256', 'Z', '0', '10', '9', '1a', '', 'é', 'a b', 'seq', 'v'];
  const value = (depth: number): unknown => {
    const r = next();
    if (depth > 3 || r < 0.3) {
      const leaves = [null, true, 0, -1.5, 1e21, 'text', 'quote"d', 'ü\n', undefined, Number.NaN];
      return leaves[Math.floor(next() * leaves.length)];
    }
    if (r < 0.45) return Array.from({ length: Math.floor(next() * 4) }, () => value(depth + 1));
    const obj: Record<string, unknown> = {};
    const n = Math.floor(next() * 5);
    // Half of the objects get their keys in sorted order (the fast path), half in any order.
    const picked = Array.from({ length: n }, () => keys[Math.floor(next() * keys.length)]!);
    for (const k of next() < 0.5 ? [...picked].sort() : picked) obj[k] = value(depth + 1);
    return obj;
  };
  return value;
}

describe('canonicalJson', () => {
  it('writes what sorting every key writes, for 5,000 generated values', () => {
    const value = generator(42);
    for (let i = 0; i < 5000; i++) {
      const v = value(0);
      expect(canonicalJson(v)).toBe(reference(v));
    }
  });

  it('is not fooled by values JSON.stringify writes differently', () => {
    const cases: unknown[] = [
      // A key JavaScript orders as an array index comes first whatever the insertion order.
      { b: 1, 10: 2, 9: 3 },
      // toJSON: JSON.stringify would write the date's text; canonical JSON writes its own keys (none).
      { at: new Date(0) },
      // An undefined array item: JSON.stringify writes null, canonical JSON too (the reference agrees).
      [1, undefined, 2],
      // A member that is a function: left out by JSON.stringify; the sorted path is the definition.
      { a: () => 1, b: 2 },
      // An object with a prototype of its own (a class instance with sorted keys).
      new (class Point {
        x = 1;
        y = 2;
      })(),
      Object.assign(Object.create(null), { a: 1, b: { c: 2 } }),
      { '': 1, a: 2 },
    ];
    for (const v of cases) expect(canonicalJson(v)).toBe(reference(v));
  });

  it('writes the same text for a copy with its keys put in order (inKeyOrder), for 5,000 generated values', () => {
    const value = generator(7);
    for (let i = 0; i < 5000; i++) {
      const v = value(0);
      expect(canonicalJson(inKeyOrder(v))).toBe(reference(v));
    }
  });

  it('digests a tap the same whatever order its event came in, with the event in key order', () => {
    const row = (event: Record<string, unknown>) => ({
      id: 'msg_1',
      agentId: 'agt_1',
      userId: 'usr_1',
      body: '[svc] pick choose choice=Yes',
      createdAt: 0,
      screenId: 'scr_1',
      meta: { event, via: 'app' },
    });
    const event = { id: 'pick', preset: 'choose', value: 'Yes', screen: 'scr_1' };
    const answer = answerOf(row(event));
    expect(Object.keys(answer.event as object)).toEqual(['id', 'preset', 'screen', 'value']);
    // The digest's text is the definition's, for the event as it came and in any other order.
    expect(canonicalJson(answer)).toBe(reference({ ...answer, event }));
    const reversed = answerOf(row({ screen: 'scr_1', value: 'Yes', preset: 'choose', id: 'pick' }));
    expect(canonicalJson(reversed)).toBe(canonicalJson(answer));
    // The row's own event is not touched.
    expect(Object.keys(event)).toEqual(['id', 'preset', 'value', 'screen']);
  });

  it('sha256 is base64url SHA-256 of the UTF-8 text', () => {
    const text = canonicalJson({ a: 'ü', b: [1, 2] });
    expect(sha256(text)).toBe(createHash('sha256').update(text, 'utf8').digest('base64url'));
  });
});
