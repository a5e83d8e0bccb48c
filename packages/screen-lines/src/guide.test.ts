// Tests of guide: behaviour through the public functions, with real inputs.
import { describe, expect, test } from 'vitest';
import { catalog } from './catalog/index.js';
import { guide } from './guide.js';
import { parse } from './parse.js';

describe('guide', () => {
  const { text, short, version } = guide();

  test('version names the language and the exact text, and is stable', () => {
    expect(version).toMatch(/^1\+[0-9a-f]{8}$/);
    expect(guide().version).toBe(version);
  });

  test('the full guide documents every component with its usage', () => {
    for (const spec of Object.values(catalog)) {
      expect(text).toContain(`### ${spec.name}`);
      expect(text).toContain(spec.usage);
    }
    expect(text).toContain('Soup|Salad|Pizza');
    expect(text).toContain('[svc] <tap_id> <preset> <key>=<value>');
  });

  test('the short guide has one line per component plus the rules', () => {
    const lines = short.split('\n');
    expect(lines).toHaveLength(Object.keys(catalog).length + 2);
    expect(short).toContain('options joined by |');
    expect(short).toContain('n1, n2');
  });

  test('every indented line of the guide that starts with a known word parses without error', () => {
    const starters = [...Object.keys(catalog), 'table', 'put', 'query', 'theme', 'group', 'end'];
    const lines = text
      .split('\n')
      .filter((l) => l.startsWith('    ') && !l.startsWith('      '))
      .map((l) => l.trim())
      .filter((l) => starters.includes(l.split(/[\s@]/)[0]!) && !l.includes('<'));
    expect(lines.length).toBeGreaterThan(Object.keys(catalog).length);
    for (const line of lines) expect(parse(line).errors, line).toEqual([]);
  });

  test('staged components are marked', () => {
    expect(text).toContain('### timer (staged)');
    expect(text).toContain('### deck (staged)');
    expect(text).toContain('quiet: stays on the phone');
  });
});
