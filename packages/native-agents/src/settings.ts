// The operator's model settings from environment-style variables (the server's config passes its env in):
// SVC_MODEL_URL, SVC_MODEL_KEY, SVC_MODEL_NAME, SVC_MODEL_TURNS_PER_MINUTE, SVC_MODEL_TOKENS_PER_DAY,
// SVC_MODEL_STARTERS, or all of them as one JSON setting SVC_MODEL.
import { ModelError } from './errors.js';
import { checkModelConfig, type ModelConfig } from './model-client.js';
import { pickStarters } from './starters.js';
import type { ModelLimits } from './usage.js';

/** Everything native agents need from the operator. */
export interface NativeSettings extends ModelConfig {
  limits: Required<ModelLimits>;
  /** Enabled starter ids. */
  starters: string[];
}

/** Default per-account limits when the operator sets none (0 turns them off). */
export const DEFAULT_TURNS_PER_MINUTE = 10;
export const DEFAULT_TOKENS_PER_DAY = 200_000;

function count(name: string, value: unknown, fallback: number): number {
  if (value === undefined || value === null || value === '') return fallback;
  const n = typeof value === 'number' ? value : /^\d+$/.test(String(value)) ? Number(value) : Number.NaN;
  if (!Number.isInteger(n) || n < 0) {
    throw new ModelError('INVALID_MODEL_CONFIG', `${name} must be a whole number, 0 or more (0: no limit).`);
  }
  return n;
}

/**
 * Reads the model settings; null when no model is configured (native agents are then not offered).
 *
 * @example
 * ```ts
 * readModelSettings({ SVC_MODEL_URL: 'http://127.0.0.1:11434/v1', SVC_MODEL_NAME: 'llama3.2' });
 * readModelSettings({ SVC_MODEL: '{"url":"https://api.example/v1","key":"sk-...","name":"m"}' });
 * ```
 */
export function readModelSettings(env: Record<string, string | undefined>): NativeSettings | null {
  let src: Record<string, unknown> = {
    url: env.SVC_MODEL_URL,
    key: env.SVC_MODEL_KEY,
    name: env.SVC_MODEL_NAME,
    turns_per_minute: env.SVC_MODEL_TURNS_PER_MINUTE,
    tokens_per_day: env.SVC_MODEL_TOKENS_PER_DAY,
    starters: env.SVC_MODEL_STARTERS,
  };
  if (env.SVC_MODEL) {
    try {
      src = { ...src, ...(JSON.parse(env.SVC_MODEL) as Record<string, unknown>) };
    } catch {
      throw new ModelError(
        'INVALID_MODEL_CONFIG',
        'SVC_MODEL must be JSON, e.g. {"url":"http://127.0.0.1:11434/v1","name":"llama3.2"}.',
      );
    }
  }
  if (src.url === undefined || src.url === '') {
    if (src.name) {
      throw new ModelError('INVALID_MODEL_CONFIG', 'SVC_MODEL_NAME is set without SVC_MODEL_URL: set both.');
    }
    return null;
  }
  const config = checkModelConfig({
    url: String(src.url),
    key: typeof src.key === 'string' && src.key !== '' ? src.key : null,
    model: typeof src.name === 'string' ? src.name : '',
  });
  const listed =
    typeof src.starters === 'string'
      ? src.starters.trim() === 'all'
        ? 'all'
        : src.starters
            .split(',')
            .map((s) => s.trim())
            .filter((s) => s !== '' && s !== 'none')
      : Array.isArray(src.starters)
        ? src.starters.map(String)
        : 'all';
  return {
    ...config,
    limits: {
      turnsPerMinute: count('SVC_MODEL_TURNS_PER_MINUTE', src.turns_per_minute, DEFAULT_TURNS_PER_MINUTE),
      tokensPerDay: count('SVC_MODEL_TOKENS_PER_DAY', src.tokens_per_day, DEFAULT_TOKENS_PER_DAY),
    },
    starters: pickStarters(listed).map((s) => s.id),
  };
}
