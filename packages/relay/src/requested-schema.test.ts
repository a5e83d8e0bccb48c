import { describe, expect, it } from 'vitest';
import { contentProblems, fieldProblem, readRequestedSchema, sensitiveFields } from './requested-schema.js';

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', minLength: 2, maxLength: 5 },
    mail: { type: 'string', format: 'email' },
    site: { type: 'string', format: 'uri' },
    day: { type: 'string', format: 'date' },
    at: { type: 'string', format: 'date-time' },
    n: { type: 'integer', minimum: 1, maximum: 9, default: 3 },
    x: { type: 'number' },
    ok: { type: 'boolean', default: false },
    color: { type: 'string', enum: ['r', 'g'], enumNames: ['Red', 'Green'] },
    hero: { type: 'string', oneOf: [{ const: 'h1', title: 'Superman' }] },
    tags: {
      type: 'array',
      minItems: 1,
      maxItems: 2,
      items: { anyOf: [{ const: 'a', title: 'A' }, { const: 'b' }] },
    },
  },
  required: ['name', 'n'],
};

describe('readRequestedSchema', () => {
  it('maps each primitive to a field kind with its bounds, choices, defaults and required flag', () => {
    const fields = readRequestedSchema(schema);
    expect(fields.map((f) => [f.key, f.kind, f.required])).toEqual([
      ['name', 'string', true],
      ['mail', 'string', false],
      ['site', 'string', false],
      ['day', 'string', false],
      ['at', 'string', false],
      ['n', 'number', true],
      ['x', 'number', false],
      ['ok', 'boolean', false],
      ['color', 'enum', false],
      ['hero', 'enum', false],
      ['tags', 'multi', false],
    ]);
    expect(fields[5]).toMatchObject({ integer: true, minimum: 1, maximum: 9, default: 3 });
    expect(fields[8]).toMatchObject({
      choices: [
        { value: 'r', title: 'Red' },
        { value: 'g', title: 'Green' },
      ],
    });
    expect(fields[10]).toMatchObject({
      minItems: 1,
      maxItems: 2,
      choices: [
        { value: 'a', title: 'A' },
        { value: 'b', title: 'b' },
      ],
    });
  });

  it('refuses nested objects and non-object schemas with UNSUPPORTED_SCHEMA', () => {
    expect(() => readRequestedSchema({ type: 'object', properties: { o: { type: 'object' } } })).toThrow(
      expect.objectContaining({ code: 'UNSUPPORTED_SCHEMA' }),
    );
    expect(() => readRequestedSchema({ type: 'string' })).toThrow(/requestedSchema must be/);
  });
});

describe('checks', () => {
  const fields = readRequestedSchema(schema);
  const f = (key: string) => fields.find((x) => x.key === key)!;

  it('names each problem in words the person can act on', () => {
    expect(fieldProblem(f('name'), 'A')).toBe('must be at least 2 characters');
    expect(fieldProblem(f('name'), 'Abcdef')).toBe('must be at most 5 characters');
    expect(fieldProblem(f('mail'), 'nope')).toContain('email address');
    expect(fieldProblem(f('site'), 'example.com')).toContain('full address');
    expect(fieldProblem(f('day'), '2026-02-30')).toContain('YYYY-MM-DD');
    expect(fieldProblem(f('day'), '2026-02-28')).toBeUndefined();
    expect(fieldProblem(f('at'), '2026-02-28 10:00')).toContain('date and time');
    expect(fieldProblem(f('at'), '2026-02-28T10:00:00Z')).toBeUndefined();
    expect(fieldProblem(f('n'), 2.5)).toBe('must be a whole number');
    expect(fieldProblem(f('n'), 10)).toBe('must be at most 9');
    expect(fieldProblem(f('n'), 0)).toBe('must be at least 1');
    expect(fieldProblem(f('ok'), 'yes')).toBe('must be yes or no');
    expect(fieldProblem(f('color'), 'Red')).toBe('must be one of Red, Green');
    expect(fieldProblem(f('tags'), [])).toBe('pick at least 1');
    expect(fieldProblem(f('tags'), ['a', 'b', 'a'])).toBe('pick at most 2');
  });

  it('checks a whole answer: required fields, each value, and no field the schema does not name', () => {
    expect(contentProblems(fields, { name: 'Ana', n: 3 })).toEqual([]);
    expect(contentProblems(fields, { n: 3, extra: 1 })).toEqual([
      'Name: is required',
      'extra: is not a field of this form',
    ]);
    expect(contentProblems(fields, 'x')).toEqual(['the answer must be an object of the fields']);
  });
});

describe('sensitiveFields', () => {
  it('finds secrets by name, title, format or an unmistakable description, and leaves prose warnings alone', () => {
    const s = {
      type: 'object',
      properties: {
        password: { type: 'string' },
        k: { type: 'string', title: 'API key' },
        t: { type: 'string', format: 'password' },
        d: { type: 'string', description: 'Your personal access token' },
        gh_token: { type: 'string' },
        fav: {
          type: 'integer',
          description: 'do not give us your phone number, pin, or other sensitive info',
        },
        email: { type: 'string', format: 'email' },
      },
    };
    expect(sensitiveFields(s)).toEqual(['password', 'k', 't', 'd', 'gh_token']);
  });
});
