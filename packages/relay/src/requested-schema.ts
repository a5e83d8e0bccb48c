// An elicitation's requestedSchema read into fields, the answer checked against them, and sensitive asks found.
import { RelayError } from './errors.js';

/** One choice of an enum field: the value sent back and the words the person reads. */
export interface Choice {
  value: string;
  title: string;
}

/** A field of a form-mode ask, as the relay asks it on the phone. */
export type Field = {
  key: string;
  /** What the person reads: the schema's title, else the key. */
  title: string;
  description?: string;
  required: boolean;
} & (
  | {
      kind: 'string';
      format?: 'email' | 'uri' | 'date' | 'date-time';
      minLength?: number;
      maxLength?: number;
      default?: string;
    }
  | { kind: 'number'; integer: boolean; minimum?: number; maximum?: number; default?: number }
  | { kind: 'boolean'; default?: boolean }
  | { kind: 'enum'; choices: Choice[]; default?: string }
  | { kind: 'multi'; choices: Choice[]; minItems?: number; maxItems?: number; default?: string[] }
);

/** An answer's value for one field, as the wrapped server receives it. */
export type FieldValue = string | number | boolean | string[];

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const FORMATS = ['email', 'uri', 'date', 'date-time'] as const;

function choicesOf(s: Json): Choice[] | undefined {
  if (Array.isArray(s.enum) && s.enum.every((v) => typeof v === 'string')) {
    const names = Array.isArray(s.enumNames) ? s.enumNames : [];
    return (s.enum as string[]).map((value, i) => ({
      value,
      title: typeof names[i] === 'string' ? (names[i] as string) : value,
    }));
  }
  const list = Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : undefined;
  if (list?.every((o) => isObject(o) && typeof o.const === 'string'))
    return (list as Json[]).map((o) => ({
      value: o.const as string,
      title: str(o.title) ?? (o.const as string),
    }));
  return undefined;
}

function readField(key: string, s: Json, required: boolean): Field {
  const base = {
    key,
    title: str(s.title) ?? key,
    ...(str(s.description) ? { description: s.description as string } : {}),
    required,
  };
  const choices = choicesOf(s);
  if (s.type === 'string' && choices) return { ...base, kind: 'enum', choices, default: str(s.default) };
  if (s.type === 'array' && isObject(s.items)) {
    const items = choicesOf(s.items);
    if (items) {
      const d = Array.isArray(s.default)
        ? s.default.filter((v): v is string => typeof v === 'string')
        : undefined;
      return {
        ...base,
        kind: 'multi',
        choices: items,
        minItems: num(s.minItems),
        maxItems: num(s.maxItems),
        default: d,
      };
    }
  }
  if (s.type === 'string') {
    const format = FORMATS.find((f) => f === s.format);
    return {
      ...base,
      kind: 'string',
      format,
      minLength: num(s.minLength),
      maxLength: num(s.maxLength),
      default: str(s.default),
    };
  }
  if (s.type === 'number' || s.type === 'integer')
    return {
      ...base,
      kind: 'number',
      integer: s.type === 'integer',
      minimum: num(s.minimum),
      maximum: num(s.maximum),
      default: num(s.default),
    };
  if (s.type === 'boolean')
    return { ...base, kind: 'boolean', default: typeof s.default === 'boolean' ? s.default : undefined };
  throw new RelayError(
    'UNSUPPORTED_SCHEMA',
    `Field "${key}" has a type the elicitation schema does not allow (${JSON.stringify(s.type)}): only string, number, integer, boolean, enums and multi-select enums.`,
  );
}

/**
 * Reads a form-mode `requestedSchema` (a flat object of primitive properties, per the MCP specification).
 *
 * @throws {RelayError} `UNSUPPORTED_SCHEMA` for anything else (the relay then declines the ask).
 * @example
 * ```ts
 * readRequestedSchema({ type: 'object', properties: { name: { type: 'string' } }, required: ['name'] });
 * // [{ key: 'name', title: 'name', required: true, kind: 'string', ... }]
 * ```
 */
export function readRequestedSchema(schema: unknown): Field[] {
  if (!isObject(schema) || schema.type !== 'object' || !isObject(schema.properties))
    throw new RelayError(
      'UNSUPPORTED_SCHEMA',
      'requestedSchema must be {"type":"object","properties":{...}}.',
    );
  const required = new Set(
    Array.isArray(schema.required) ? schema.required.filter((k) => typeof k === 'string') : [],
  );
  return Object.entries(schema.properties).map(([key, s]) => {
    if (!isObject(s)) throw new RelayError('UNSUPPORTED_SCHEMA', `Field "${key}" is not a schema object.`);
    return readField(key, s, required.has(key));
  });
}

// Secrets and credentials: the specification's "passwords, API keys, access tokens, or payment credentials".
const SENSITIVE =
  /pass(word|wd|phrase|code)|secret|token|api[\s_-]?key|credential|private[\s_-]?key|\bpin\b|\botp\b|one[\s-]time code|credit[\s_-]?card|card[\s_-]?number|\bcvv\b|\bcvc\b|security code/i;

const SENSITIVE_PROSE =
  /password|passphrase|api[\s_-]?key|access[\s_-]?token|secret[\s_-]?key|private[\s_-]?key|credit[\s_-]?card/i;

/**
 * The fields of a form-mode ask that ask for a secret (by key, title, description or a `password`-like
 * format); sensitive information must go through URL mode, never a form.
 */
export function sensitiveFields(schema: unknown): string[] {
  if (!isObject(schema) || !isObject(schema.properties)) return [];
  return Object.entries(schema.properties)
    .filter(([key, s]) => {
      const o = isObject(s) ? s : {};
      const format = str(o.format) ?? '';
      if (/password|secret|token|credential/i.test(format) || o.writeOnly === true) return true;
      if ([key, str(o.title)].some((t) => t !== undefined && SENSITIVE.test(t))) return true;
      // Descriptions are prose ("do not give us your pin"): only an unmistakable secret counts there.
      return SENSITIVE_PROSE.test(str(o.description) ?? '');
    })
    .map(([key]) => key);
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

function validDate(v: string): boolean {
  const m = DATE.exec(v);
  if (!m) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}

function formatProblem(format: string | undefined, v: string): string | undefined {
  if (format === 'email' && !EMAIL.test(v)) return 'must be an email address, like name@example.com';
  if (format === 'date' && !validDate(v)) return 'must be a date, YYYY-MM-DD';
  if (format === 'date-time' && (!DATE_TIME.test(v) || Number.isNaN(Date.parse(v))))
    return 'must be a date and time, like 2026-11-28T14:30:00Z';
  if (format === 'uri') {
    try {
      new URL(v);
    } catch {
      return 'must be a full address, like https://example.com/page';
    }
  }
  return undefined;
}

/** What is wrong with one field's value, in words the person can act on; undefined when it is fine. */
export function fieldProblem(field: Field, v: unknown): string | undefined {
  switch (field.kind) {
    case 'string': {
      if (typeof v !== 'string') return 'must be text';
      if (field.minLength !== undefined && v.length < field.minLength)
        return `must be at least ${field.minLength} characters`;
      if (field.maxLength !== undefined && v.length > field.maxLength)
        return `must be at most ${field.maxLength} characters`;
      return formatProblem(field.format, v);
    }
    case 'number': {
      if (typeof v !== 'number' || !Number.isFinite(v)) return 'must be a number';
      if (field.integer && !Number.isInteger(v)) return 'must be a whole number';
      if (field.minimum !== undefined && v < field.minimum) return `must be at least ${field.minimum}`;
      if (field.maximum !== undefined && v > field.maximum) return `must be at most ${field.maximum}`;
      return undefined;
    }
    case 'boolean':
      return typeof v === 'boolean' ? undefined : 'must be yes or no';
    case 'enum':
      return typeof v === 'string' && field.choices.some((c) => c.value === v)
        ? undefined
        : `must be one of ${field.choices.map((c) => c.title).join(', ')}`;
    case 'multi': {
      if (!Array.isArray(v) || !v.every((x) => field.choices.some((c) => c.value === x)))
        return `must be some of ${field.choices.map((c) => c.title).join(', ')}`;
      if (field.minItems !== undefined && v.length < field.minItems) return `pick at least ${field.minItems}`;
      if (field.maxItems !== undefined && v.length > field.maxItems) return `pick at most ${field.maxItems}`;
      return undefined;
    }
  }
}

/**
 * Checks accepted content against the fields: required ones present, each value of its type and within its
 * bounds and format, no field the schema does not name. Gives one line per problem (empty: it is fine).
 */
export function contentProblems(fields: readonly Field[], content: unknown): string[] {
  if (!isObject(content)) return ['the answer must be an object of the fields'];
  const problems: string[] = [];
  for (const f of fields) {
    const v = content[f.key];
    if (v === undefined) {
      if (f.required) problems.push(`${f.title}: is required`);
      continue;
    }
    const p = fieldProblem(f, v);
    if (p) problems.push(`${f.title}: ${p}`);
  }
  for (const key of Object.keys(content))
    if (!fields.some((f) => f.key === key)) problems.push(`${key}: is not a field of this form`);
  return problems;
}
