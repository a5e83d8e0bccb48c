// The environment reader with zod rules (the service's style) and with a hand-written Standard Schema rule.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EnvError, readEnv, type StandardRule } from './env.js';

const RULES = {
  PORT: z
    .string()
    .regex(/^\d+$/, 'must be a whole number from 0 to 65535, for example PORT=8787')
    .transform(Number),
  SVC_BASE_URL: z.url({ message: 'must be an absolute http(s) URL, for example http://localhost:8787' }),
  LOG_LEVEL: z.enum(['info', 'debug']),
};

describe('readEnv', () => {
  it('returns the rules’ values for set variables and leaves unset and empty ones out', () => {
    const env = readEnv({ PORT: '8080', SVC_BASE_URL: '', OTHER: 'x' }, RULES);
    expect(env).toEqual({ PORT: 8080 });
    const port: number | undefined = env.PORT;
    expect(port).toBe(8080);
  });

  it('names the first variable that fails, with its rule’s message', () => {
    const error = (() => {
      try {
        readEnv({ PORT: 'eighty', LOG_LEVEL: 'loud' }, RULES);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(EnvError);
    expect(error).toMatchObject({
      code: 'INVALID_ENV',
      variable: 'PORT',
      message: 'PORT: must be a whole number from 0 to 65535, for example PORT=8787',
    });
  });

  it('throws what the caller’s `fail` makes (a program’s own configuration error)', () => {
    class ConfigError extends Error {}
    expect(() => readEnv({ LOG_LEVEL: 'loud' }, RULES, (m) => new ConfigError(m))).toThrow(ConfigError);
    expect(() => readEnv({ LOG_LEVEL: 'loud' }, RULES, (m) => new ConfigError(m))).toThrow(/^LOG_LEVEL: /);
  });

  it('takes any Standard Schema rule, and refuses an asynchronous one', () => {
    const upper: StandardRule<string> = {
      '~standard': {
        version: 1,
        vendor: 'by-hand',
        validate: (v) =>
          typeof v === 'string' && v === v.toUpperCase()
            ? { value: v }
            : { issues: [{ message: 'must be upper case' }] },
      },
    };
    expect(readEnv({ NAME: 'ADA' }, { NAME: upper })).toEqual({ NAME: 'ADA' });
    expect(() => readEnv({ NAME: 'ada' }, { NAME: upper })).toThrow('NAME: must be upper case');
    const later = z.string().refine(async () => true);
    expect(() => readEnv({ NAME: 'x' }, { NAME: later })).toThrow(/asynchronous/);
  });
});
