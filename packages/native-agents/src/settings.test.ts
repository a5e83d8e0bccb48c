import { describe, expect, it } from 'vitest';
import { DEFAULT_TOKENS_PER_DAY, DEFAULT_TURNS_PER_MINUTE, readModelSettings } from './settings.js';

describe('readModelSettings', () => {
  it('is null without a model: native agents are not offered', () => {
    expect(readModelSettings({})).toBeNull();
  });

  it('reads the SVC_MODEL_* variables with default limits and every starter', () => {
    expect(
      readModelSettings({ SVC_MODEL_URL: 'http://127.0.0.1:11434/v1', SVC_MODEL_NAME: 'llama3.2' }),
    ).toEqual({
      url: 'http://127.0.0.1:11434/v1',
      key: null,
      model: 'llama3.2',
      limits: { turnsPerMinute: DEFAULT_TURNS_PER_MINUTE, tokensPerDay: DEFAULT_TOKENS_PER_DAY },
      starters: ['habit-coach', 'todo-keeper', 'study-helper'],
    });
  });

  it('takes limits, a key and the enabled starters', () => {
    const s = readModelSettings({
      SVC_MODEL_URL: 'https://api.example/v1',
      SVC_MODEL_KEY: 'sk-1',
      SVC_MODEL_NAME: 'm',
      SVC_MODEL_TURNS_PER_MINUTE: '3',
      SVC_MODEL_TOKENS_PER_DAY: '0',
      SVC_MODEL_STARTERS: 'todo-keeper, study-helper',
    });
    expect(s).toMatchObject({ key: 'sk-1', limits: { turnsPerMinute: 3, tokensPerDay: 0 } });
    expect(s!.starters).toEqual(['todo-keeper', 'study-helper']);
    expect(
      readModelSettings({ SVC_MODEL_URL: 'http://h', SVC_MODEL_NAME: 'm', SVC_MODEL_STARTERS: 'none' })!
        .starters,
    ).toEqual([]);
  });

  it('takes one JSON setting', () => {
    expect(
      readModelSettings({ SVC_MODEL: '{"url":"http://h/v1","name":"m","tokens_per_day":5}' }),
    ).toMatchObject({
      url: 'http://h/v1',
      model: 'm',
      limits: { tokensPerDay: 5 },
    });
  });

  it('names the bad setting and the fix', () => {
    expect(() => readModelSettings({ SVC_MODEL_URL: 'http://h' })).toThrow(/SVC_MODEL_NAME is required/);
    expect(() => readModelSettings({ SVC_MODEL_NAME: 'm' })).toThrow(/without SVC_MODEL_URL/);
    expect(() =>
      readModelSettings({ SVC_MODEL_URL: 'http://h', SVC_MODEL_NAME: 'm', SVC_MODEL_TOKENS_PER_DAY: 'lots' }),
    ).toThrow(/SVC_MODEL_TOKENS_PER_DAY must be a whole number/);
    expect(() => readModelSettings({ SVC_MODEL: '{url' })).toThrow(/SVC_MODEL must be JSON/);
    expect(() =>
      readModelSettings({ SVC_MODEL_URL: 'http://h', SVC_MODEL_NAME: 'm', SVC_MODEL_STARTERS: 'chess' }),
    ).toThrow(/unknown starter/);
  });
});
