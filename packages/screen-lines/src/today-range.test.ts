import { describe, expect, it } from 'vitest';
import { parse } from './parse.js';
import { MAX_TODAY_OFFSET } from './terms.js';

describe('today±N range', () => {
  it('refuses a put whose today offset leaves the calendar, naming the line and the value', () => {
    const { ops, errors } = parse('text hi\nput T k When=today+99999999');
    expect(ops).toHaveLength(1);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: 'INVALID_VALUE', line: 2 });
    expect(errors[0]!.message).toMatch(/^line 2: today\+99999999 is out of range/);
  });

  it('refuses the same in a query filter, and keeps offsets up to the limit', () => {
    expect(parse('query T where=When>today-99999999').errors[0]).toMatchObject({ code: 'INVALID_VALUE' });
    expect(parse(`put T k When=today+${MAX_TODAY_OFFSET}`).errors).toEqual([]);
    expect(parse(`put T k When=today-${MAX_TODAY_OFFSET}`).errors).toEqual([]);
    expect(parse(`put T k When=today+${MAX_TODAY_OFFSET + 1}`).errors[0]?.code).toBe('INVALID_VALUE');
  });
});
