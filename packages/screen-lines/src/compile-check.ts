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
      const keys: string[] = [];
      const checks: Check[] = [];
      for (const [key, field] of Object.entries(def.shape)) {
        const check = compile(field);
        if (!check) return undefined;
        keys.push(key);
        checks.push(check);
      }
      return (v) => {
        if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
        const record = v as Record<string, unknown>;
        for (let i = 0; i < keys.length; i++) if (!checks[i]!(record[keys[i]!])) return false;
        return true;
      };
    }
    default:
      return undefined;
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
