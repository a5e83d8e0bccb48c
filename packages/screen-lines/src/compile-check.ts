// Compiles a catalog zod schema into a plain predicate that accepts only what zod accepts, so valid lines skip zod.
//
// The predicate may refuse more than zod (then the caller runs zod, which has the final word and the message), but
// must never accept anything zod refuses. Any schema part it does not know compiles to "ask zod" (undefined), so a
// new kind of schema in the catalog costs speed, never correctness. It reads zod 4's schema definitions (`_zod.def`).
import type { z } from 'zod';

/** A compiled check: true only for values the schema accepts. */
export type Check = (value: unknown) => boolean;

interface Def {
  type: string;
  checks?: { _zod: { def: CheckDef } }[];
  shape?: Record<string, Schema>;
  catchall?: Schema;
  element?: Schema;
  innerType?: Schema;
  options?: Schema[];
  entries?: Record<string, unknown>;
  values?: unknown[];
}
interface CheckDef {
  check: string;
  format?: string;
  pattern?: RegExp;
  value?: number;
  inclusive?: boolean;
  minimum?: number;
  maximum?: number;
  fn?: (value: unknown) => unknown;
}
interface Schema {
  _zod: { def: Def };
}

const compiled = new WeakMap<object, Check | null>();

/** The compiled check of a schema, built once per schema; undefined when some part is beyond this compiler. */
export function compiledCheck(schema: z.ZodType): Check | undefined {
  let check = compiled.get(schema);
  if (check === undefined) {
    check = compile(schema as unknown as Schema) ?? null;
    compiled.set(schema, check);
  }
  return check ?? undefined;
}

function compile(schema: Schema): Check | undefined {
  const def = schema._zod?.def;
  if (!def) return undefined;
  const own = compileChecks(def.checks ?? []);
  if (!own) return undefined;
  const base = compileType(def);
  if (!base) return undefined;
  if (own.length === 0) return base;
  return (value) => {
    if (!base(value)) return false;
    for (let i = 0; i < own.length; i++) if (!own[i]!(value)) return false;
    return true;
  };
}

function compileType(def: Def): Check | undefined {
  switch (def.type) {
    case 'string':
      return (v) => typeof v === 'string';
    case 'number':
      return (v) => typeof v === 'number' && Number.isFinite(v);
    case 'boolean':
      return (v) => typeof v === 'boolean';
    case 'enum': {
      const allowed = new Set(Object.values(def.entries ?? {}));
      return (v) => allowed.has(v);
    }
    case 'literal': {
      const allowed = new Set(def.values ?? []);
      return (v) => allowed.has(v);
    }
    case 'optional': {
      const inner = def.innerType && compile(def.innerType);
      return inner && ((v) => v === undefined || inner(v));
    }
    case 'array': {
      const element = def.element && compile(def.element);
      return (
        element &&
        ((v) => {
          if (!Array.isArray(v)) return false;
          for (let i = 0; i < v.length; i++) if (!element(v[i])) return false;
          return true;
        })
      );
    }
    case 'union': {
      const options = (def.options ?? []).map(compile);
      if (options.length === 0 || options.some((o) => o === undefined)) return undefined;
      return (v) => options.some((o) => o!(v));
    }
    case 'object': {
      // Only the default (strip unknown keys): a catchall or strict object needs zod.
      if (def.catchall !== undefined || !def.shape) return undefined;
      const fields: Field[] = [];
      for (const [key, schema] of Object.entries(def.shape)) {
        const leaf = leafOf(schema);
        const check = leaf ? null : (compile(schema) ?? null);
        if (!leaf && !check) return undefined;
        fields.push({ key, leaf, check });
      }
      return (v) => {
        if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
        const record = v as Record<string, unknown>;
        for (let i = 0; i < fields.length; i++) {
          const field = fields[i]!;
          const value = record[field.key];
          if (field.leaf !== null ? !leafHolds(field.leaf, value) : !field.check!(value)) return false;
        }
        return true;
      };
    }
    default:
      return undefined;
  }
}

// An object's fields are mostly leaves (a string, number or boolean with bounds, a word from a list, optional, or a
// list of those). They are checked from data in one loop rather than through a closure each: every field once went
// through three to five closure calls (type, then each bound, then optional, then the list), and each call site,
// shared by every catalog schema, saw every closure, so none was inlined; the props check was about 15% of a parse.
const STRING = 0;
const NUMBER = 1;
const BOOLEAN = 2;
const ONE_OF = 3;

interface Leaf {
  kind: number;
  optional: boolean;
  /** Length bounds (strings), or number bounds and whole numbers (numbers). */
  minLength: number;
  maxLength: number;
  low: number;
  lowInclusive: boolean;
  high: number;
  highInclusive: boolean;
  whole: boolean;
  pattern: RegExp | null;
  allowed: Set<unknown> | null;
  /** Set when the field is a list: its elements are this leaf's kind, and its length bounds are these. */
  list: boolean;
  listMin: number;
  listMax: number;
}

interface Field {
  key: string;
  leaf: Leaf | null;
  check: Check | null;
}

function newLeaf(kind: number): Leaf {
  return {
    kind,
    optional: false,
    minLength: 0,
    maxLength: Number.POSITIVE_INFINITY,
    low: Number.NEGATIVE_INFINITY,
    lowInclusive: true,
    high: Number.POSITIVE_INFINITY,
    highInclusive: true,
    whole: false,
    pattern: null,
    allowed: null,
    list: false,
    listMin: 0,
    listMax: Number.POSITIVE_INFINITY,
  };
}

/** The leaf a field's schema is, or null when it is more (then its compiled closure checks it). */
function leafOf(schema: Schema): Leaf | null {
  const def = schema._zod?.def;
  if (!def) return null;
  if (def.type === 'optional') {
    if ((def.checks ?? []).length > 0 || !def.innerType) return null;
    const inner = leafOf(def.innerType);
    if (inner === null) return null;
    inner.optional = true;
    return inner;
  }
  if (def.type === 'array') {
    const element = def.element && leafOf(def.element);
    if (!element || element.optional || element.list) return null;
    for (const check of def.checks ?? []) {
      const c = check._zod?.def;
      if (c?.check === 'max_length') element.listMax = Math.min(element.listMax, c.maximum!);
      else if (c?.check === 'min_length') element.listMin = Math.max(element.listMin, c.minimum!);
      else return null;
    }
    element.list = true;
    return element;
  }
  let leaf: Leaf;
  if (def.type === 'string') leaf = newLeaf(STRING);
  else if (def.type === 'number') leaf = newLeaf(NUMBER);
  else if (def.type === 'boolean') leaf = newLeaf(BOOLEAN);
  else if (def.type === 'enum') {
    leaf = newLeaf(ONE_OF);
    leaf.allowed = new Set(Object.values(def.entries ?? {}));
  } else if (def.type === 'literal') {
    leaf = newLeaf(ONE_OF);
    leaf.allowed = new Set(def.values ?? []);
  } else return null;
  for (const check of def.checks ?? []) {
    const c = check._zod?.def;
    if (!c) return null;
    if (leaf.kind === STRING && c.check === 'max_length')
      leaf.maxLength = Math.min(leaf.maxLength, c.maximum!);
    else if (leaf.kind === STRING && c.check === 'min_length')
      leaf.minLength = Math.max(leaf.minLength, c.minimum!);
    else if (
      leaf.kind === STRING &&
      c.check === 'string_format' &&
      c.format === 'regex' &&
      c.pattern instanceof RegExp &&
      leaf.pattern === null
    )
      leaf.pattern = c.pattern;
    else if (leaf.kind === NUMBER && c.check === 'number_format' && c.format === 'safeint') leaf.whole = true;
    else if (leaf.kind === NUMBER && c.check === 'greater_than' && c.value! >= leaf.low) {
      leaf.lowInclusive =
        c.value === leaf.low ? leaf.lowInclusive && c.inclusive === true : c.inclusive === true;
      leaf.low = c.value!;
    } else if (leaf.kind === NUMBER && c.check === 'less_than' && c.value! <= leaf.high) {
      leaf.highInclusive =
        c.value === leaf.high ? leaf.highInclusive && c.inclusive === true : c.inclusive === true;
      leaf.high = c.value!;
    } else return null;
  }
  return leaf;
}

function leafHolds(leaf: Leaf, value: unknown): boolean {
  if (value === undefined && leaf.optional) return true;
  if (!leaf.list) return scalarHolds(leaf, value);
  if (!Array.isArray(value) || value.length < leaf.listMin || value.length > leaf.listMax) return false;
  for (let i = 0; i < value.length; i++) if (!scalarHolds(leaf, value[i])) return false;
  return true;
}

function scalarHolds(leaf: Leaf, value: unknown): boolean {
  switch (leaf.kind) {
    case STRING: {
      if (typeof value !== 'string' || value.length < leaf.minLength || value.length > leaf.maxLength)
        return false;
      const pattern = leaf.pattern;
      if (pattern === null) return true;
      pattern.lastIndex = 0;
      return pattern.test(value);
    }
    case NUMBER:
      return (
        typeof value === 'number' &&
        Number.isFinite(value) &&
        (!leaf.whole || Number.isSafeInteger(value)) &&
        (leaf.lowInclusive ? value >= leaf.low : value > leaf.low) &&
        (leaf.highInclusive ? value <= leaf.high : value < leaf.high)
      );
    case BOOLEAN:
      return typeof value === 'boolean';
    default:
      return leaf.allowed!.has(value);
  }
}

/** The refinements of a schema (lengths, patterns, bounds, whole numbers, custom predicates), or undefined. */
function compileChecks(checks: { _zod: { def: CheckDef } }[]): Check[] | undefined {
  const out: Check[] = [];
  for (const check of checks) {
    // A check's `when` guard can only skip the check (zod then accepts more), so running every check is safe.
    const c = check._zod?.def;
    if (!c) return undefined;
    switch (c.check) {
      case 'max_length': {
        const max = c.maximum!;
        out.push((v) => (v as string).length <= max);
        break;
      }
      case 'min_length': {
        const min = c.minimum!;
        out.push((v) => (v as string).length >= min);
        break;
      }
      case 'string_format': {
        if (c.format !== 'regex' || !(c.pattern instanceof RegExp)) return undefined;
        const pattern = c.pattern;
        out.push((v) => {
          pattern.lastIndex = 0;
          return pattern.test(v as string);
        });
        break;
      }
      case 'number_format':
        if (c.format !== 'safeint') return undefined;
        out.push((v) => Number.isSafeInteger(v));
        break;
      case 'greater_than': {
        const bound = c.value!;
        out.push(c.inclusive ? (v) => (v as number) >= bound : (v) => (v as number) > bound);
        break;
      }
      case 'less_than': {
        const bound = c.value!;
        out.push(c.inclusive ? (v) => (v as number) <= bound : (v) => (v as number) < bound);
        break;
      }
      case 'custom': {
        // A refine() predicate: zod runs it on the parsed value, which for these schemas is the value itself.
        const fn = c.fn;
        if (typeof fn !== 'function') return undefined;
        out.push((v) => fn(v) === true);
        break;
      }
      default:
        return undefined;
    }
  }
  return out;
}
