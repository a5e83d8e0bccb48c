// A small stand-in for `vitest` inside a Chromium worker, so the tables engine's conformance suite runs there unchanged.
// Only what the suite calls: describe, it, beforeEach and the matchers it uses; every failed check throws.

type Fn = () => unknown;
interface Case {
  name: string;
  fn: Fn;
  before: Fn[];
}

const cases: Case[] = [];
const path: string[] = [];
const hooks: Fn[][] = [[]];

export function describe(name: string, body: () => void): void {
  path.push(name);
  hooks.push([]);
  body();
  hooks.pop();
  path.pop();
}

export function it(name: string, fn: Fn): void {
  cases.push({ name: [...path, name].join(' > '), fn, before: hooks.flat() });
}

export function beforeEach(fn: Fn): void {
  hooks[hooks.length - 1]!.push(fn);
}

/** Runs every registered case; a case fails when it throws. */
export async function runCases(): Promise<{ name: string; error?: string }[]> {
  const out: { name: string; error?: string }[] = [];
  for (const c of cases) {
    try {
      for (const b of c.before) await b();
      await c.fn();
      out.push({ name: c.name });
    } catch (error) {
      out.push({ name: c.name, error: error instanceof Error ? error.message : String(error) });
    }
  }
  return out;
}

class Asymmetric {
  constructor(
    readonly check: (actual: unknown) => boolean,
    readonly text: string,
  ) {}
  toJSON() {
    return this.text;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** Deep equality as vitest's toEqual: undefined properties count as absent; asymmetric matchers match. */
function equals(a: unknown, b: unknown): boolean {
  if (b instanceof Asymmetric) return b.check(a);
  if (a instanceof Asymmetric) return a.check(b);
  if (Object.is(a, b)) return true;
  if (!isObject(a) || !isObject(b)) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => equals(x, b[i]));
  }
  const keys = new Set(
    [...Object.keys(a), ...Object.keys(b)].filter((k) => a[k] !== undefined || b[k] !== undefined),
  );
  return [...keys].every((k) => equals(a[k], b[k]));
}

/** toMatchObject: every property of `expected` matches, recursively; arrays match element by element. */
function matches(actual: unknown, expected: unknown): boolean {
  if (expected instanceof Asymmetric) return expected.check(actual);
  if (Array.isArray(expected)) {
    return (
      Array.isArray(actual) &&
      actual.length === expected.length &&
      expected.every((e, i) => matches(actual[i], e))
    );
  }
  if (isObject(expected)) {
    return (
      isObject(actual) && Object.keys(expected).every((k) => k in actual && matches(actual[k], expected[k]))
    );
  }
  return Object.is(actual, expected);
}

const show = (v: unknown) => {
  try {
    return JSON.stringify(v);
  } catch {
    return String(v);
  }
};

function fail(message: string | undefined, text: string): never {
  throw new Error(message ? `${message}: ${text}` : text);
}

function checkThrown(thrown: unknown, expected: unknown, message: string | undefined): void {
  if (expected === undefined) return;
  const ok =
    typeof expected === 'string'
      ? String((thrown as Error)?.message).includes(expected)
      : expected instanceof RegExp
        ? expected.test(String((thrown as Error)?.message))
        : matches(thrown, expected);
  if (!ok)
    fail(
      message,
      `expected the throw ${show({ ...(thrown as object), message: (thrown as Error)?.message })} to match ${show(expected)}`,
    );
}

function matchers(actual: unknown, message?: string) {
  return {
    toBe(expected: unknown) {
      if (!Object.is(actual, expected)) fail(message, `expected ${show(actual)} to be ${show(expected)}`);
    },
    toEqual(expected: unknown) {
      if (!equals(actual, expected)) fail(message, `expected ${show(actual)} to equal ${show(expected)}`);
    },
    toMatchObject(expected: unknown) {
      if (!matches(actual, expected)) fail(message, `expected ${show(actual)} to match ${show(expected)}`);
    },
    toBeUndefined() {
      if (actual !== undefined) fail(message, `expected ${show(actual)} to be undefined`);
    },
    toBeDefined() {
      if (actual === undefined) fail(message, 'expected a value, got undefined');
    },
    toHaveLength(length: number) {
      const got = (actual as { length?: unknown } | null)?.length;
      if (got !== length) fail(message, `expected length ${length}, got ${show(got)}`);
    },
    toThrow(expected?: unknown) {
      try {
        (actual as () => unknown)();
      } catch (error) {
        return checkThrown(error, expected, message);
      }
      fail(message, 'expected the function to throw');
    },
    /** `await expect(promise).rejects.toThrow(...)`: the promise must reject with a matching error. */
    rejects: {
      async toThrow(expected?: unknown) {
        try {
          await actual;
        } catch (error) {
          return checkThrown(error, expected, message);
        }
        fail(message, 'expected the promise to reject');
      },
    },
  };
}

export const expect = Object.assign(matchers, {
  objectContaining: (expected: Record<string, unknown>) =>
    new Asymmetric((actual) => matches(actual, expected), `ObjectContaining ${show(expected)}`),
});
