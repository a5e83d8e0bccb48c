import { describe, expect, it } from 'vitest';
import { helpText, parseFlags, UsageError } from './cli-args.js';

const SPECS = [
  { name: 'duration', value: 60, min: 1, max: 600, help: 'seconds' },
  { name: 'clients', value: 1000, min: 1, max: 5000, help: 'clients' },
] as const;

describe('parseFlags', () => {
  it('takes defaults, both spellings, --json and --help', () => {
    expect(parseFlags([], SPECS)).toEqual({ duration: 60, clients: 1000, help: false, json: null });
    expect(parseFlags(['--duration', '5', '--clients=20', '--json', 'out.json', '--help'], SPECS)).toEqual({
      duration: 5,
      clients: 20,
      help: true,
      json: 'out.json',
    });
  });

  it('names the bad flag and its range', () => {
    expect(() => parseFlags(['--duration', '0'], SPECS)).toThrow(
      '--duration must be a whole number from 1 to 600 (seconds), not "0".',
    );
    expect(() => parseFlags(['--duration', '1.5'], SPECS)).toThrow(UsageError);
    expect(() => parseFlags(['--nope', '1'], SPECS)).toThrow(
      'Unknown flag --nope; known: --help, --json, --duration, --clients.',
    );
    expect(() => parseFlags(['--clients'], SPECS)).toThrow('--clients needs a value');
    expect(() => parseFlags(['stray'], SPECS)).toThrow('Unexpected argument "stray"');
    // io-kit's parser: the closest flag of a misspelt one, and a flag given twice keeps the last value.
    expect(() => parseFlags(['--duraton', '5'], SPECS)).toThrow('Did you mean --duration?');
    expect(parseFlags(['--clients', '5', '--clients', '6'], SPECS).clients).toBe(6);
  });

  it('lists every flag with its default and range in the help', () => {
    const text = helpText('npm run load --', 'Does load.', SPECS);
    expect(text).toContain('--duration');
    expect(text).toContain('(default 1000; 1..5000)');
    expect(text).toContain('--help');
  });

  it('takes a word flag from its list, and names the list when the word is not in it', () => {
    const STORE = [
      { name: 'store', values: ['sqlite', 'postgres'], value: 'sqlite', help: 'the store' },
    ] as const;
    expect(parseFlags([], SPECS, STORE).store).toBe('sqlite');
    expect(parseFlags(['--store', 'postgres', '--duration', '3'], SPECS, STORE)).toMatchObject({
      store: 'postgres',
      duration: 3,
    });
    expect(() => parseFlags(['--store', 'mysql'], SPECS, STORE)).toThrow(
      '--store must be one of sqlite, postgres (the store), not "mysql".',
    );
    expect(helpText('npm run faults --', 'Faults.', SPECS, STORE)).toContain(
      '(default sqlite; sqlite | postgres)',
    );
  });
});
