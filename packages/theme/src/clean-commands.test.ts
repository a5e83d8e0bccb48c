import { describe, expect, it } from 'vitest';
import { COMMAND_LIMITS, cleanCommandName, cleanCommands } from './clean-commands.js';
import { jsonByteLength } from './clean-look.js';

const ok = (input: unknown) => {
  const result = cleanCommands(input);
  if (!result.ok) throw new Error(`expected ok, got ${result.code}`);
  return result;
};

describe('cleanCommandName', () => {
  it('drops one leading slash, lowercases and trims', () => {
    expect(cleanCommandName('/Weather')).toBe('weather');
    expect(cleanCommandName('  /deploy-now ')).toBe('deploy-now');
    expect(cleanCommandName('a_b-9')).toBe('a_b-9');
  });
  it('refuses names that break the rule', () => {
    for (const bad of [
      '',
      '/',
      '//help',
      '-help',
      '_x',
      'has space',
      'émoji',
      'a'.repeat(33),
      'x.y',
      7,
      null,
    ]) {
      expect(cleanCommandName(bad)).toBeNull();
    }
    expect(cleanCommandName('a'.repeat(32))).toBe('a'.repeat(32));
  });
});

describe('cleanCommands', () => {
  it('null clears the column', () => {
    expect(cleanCommands(null)).toEqual({ ok: true, commands: null, dropped: 0 });
  });
  it('refuses a value that is not a list, saying what to send', () => {
    for (const input of [{ name: 'help' }, 'help', 3, undefined, true]) {
      const result = cleanCommands(input);
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.code).toBe('COMMANDS_NOT_A_LIST');
        expect(result.message).toMatch(/list of \{name, description, args\?\} or null/);
      }
    }
  });
  it('cleans names, keeps description and args, drops unknown keys', () => {
    expect(
      ok([{ name: '/Weather', description: 'Forecast for a city', args: '<city> [days]', icon: '☀' }]),
    ).toEqual({
      ok: true,
      commands: [{ name: 'weather', description: 'Forecast for a city', args: '<city> [days]' }],
      dropped: 0,
    });
  });
  it('drops entries that are not objects or have no valid name, silently', () => {
    const result = ok(['help', null, [], { description: 'no name' }, { name: 'bad name' }, { name: 'ok' }]);
    expect(result.commands).toEqual([{ name: 'ok', description: '' }]);
    expect(result.dropped).toBe(5);
  });
  it('keeps one entry per name, the first', () => {
    const result = ok([
      { name: 'help', description: 'first' },
      { name: '/HELP', description: 'second' },
    ]);
    expect(result.commands).toEqual([{ name: 'help', description: 'first' }]);
  });
  it('makes the description one line of at most 100 characters', () => {
    const result = ok([
      { name: 'a', description: '\n  Deploy   the\tapp  \nsecond line' },
      { name: 'b', description: 'x'.repeat(150) },
      { name: 'c', description: 'é'.repeat(100) },
      { name: 'd', description: 42 },
    ]);
    const [a, b, c, d] = result.commands!;
    expect(a!.description).toBe('Deploy the app');
    expect(Array.from(b!.description)).toHaveLength(100);
    expect(b!.description.endsWith('…')).toBe(true);
    expect(c!.description).toBe('é'.repeat(100));
    expect(d!.description).toBe('');
  });
  it('counts characters, not UTF-16 units, and never splits an emoji', () => {
    const result = ok([{ name: 'e', description: '😀'.repeat(120) }]);
    const chars = Array.from(result.commands![0]!.description);
    expect(chars).toHaveLength(100);
    expect(chars.slice(0, 99).every((c) => c === '😀')).toBe(true);
  });
  it('makes args one line of at most 60 characters and drops empty args', () => {
    const result = ok([
      { name: 'a', args: 'y'.repeat(80) },
      { name: 'b', args: '   ' },
      { name: 'c', args: ['x'] },
    ]);
    expect(Array.from(result.commands![0]!.args!)).toHaveLength(60);
    expect(result.commands![1]).toEqual({ name: 'b', description: '' });
    expect(result.commands![2]).toEqual({ name: 'c', description: '' });
  });
  it('keeps at most 200 entries', () => {
    const input = Array.from({ length: 250 }, (_, i) => ({ name: `c${i}`, description: 'd' }));
    const result = ok(input);
    expect(result.commands).toHaveLength(COMMAND_LIMITS.entries);
    expect(result.commands![199]!.name).toBe('c199');
    expect(result.dropped).toBe(50);
  });
  it('drops entries from the end until the column is at most 32 KB', () => {
    const input = Array.from({ length: 200 }, (_, i) => ({
      name: `command-${i}`,
      description: '漢'.repeat(100),
      args: '字'.repeat(60),
    }));
    expect(jsonByteLength(input)).toBeGreaterThan(COMMAND_LIMITS.columnBytes);
    const result = ok(input);
    expect(jsonByteLength(result.commands)).toBeLessThanOrEqual(COMMAND_LIMITS.columnBytes);
    expect(result.commands!.length).toBeGreaterThan(50);
    expect(result.commands!.length).toBeLessThan(200);
    // These entries need no cleaning, so the kept ones are exactly the longest prefix that fits.
    const kept = result.commands!.length;
    expect(result.commands).toEqual(input.slice(0, kept));
    expect(jsonByteLength(input.slice(0, kept + 1))).toBeGreaterThan(COMMAND_LIMITS.columnBytes);
    expect(result.dropped).toBe(200 - kept);
  });
  it('an empty list stays an empty list', () => {
    expect(ok([])).toEqual({ ok: true, commands: [], dropped: 0 });
  });
  it('strips direction overrides, ESC and other controls, and invisible text from descriptions and args (issue 46 item 6)', () => {
    const result = ok([
      { name: 'deploy', description: 'Ship it \u202egnp.exe\u001b[31m now', args: '\u2066<env>\u2069\u009b' },
      { name: 'ghost', description: '\u200d\ufe0f\u{e0041}', args: '\u034f\u17b4' },
      { name: 'later', description: '\u200b\n  Second line shows' },
    ]);
    expect(result.commands).toEqual([
      { name: 'deploy', description: 'Ship it gnp.exe[31m now', args: '<env>' },
      { name: 'ghost', description: '' },
      { name: 'later', description: 'Second line shows' },
    ]);
  });
});
