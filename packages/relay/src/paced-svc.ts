// The agent SDK client with its writes retried when the service says "too many calls, retry in N s".
import { setTimeout as sleep } from 'node:timers/promises';
import { RateLimitedError, type Svc } from '@screen-service/agent';

const WRITES = new Set(['choose', 'confirm', 'ask', 'show', 'say']);
const MAX_TRIES = 30;

/**
 * Wraps `svc` so a refused-for-rate write is sent again after the service's wait. Safe to repeat: a 429 means
 * the screen or line did not land (the SDK itself never repeats a write whose fate is unknown). A relayed form
 * is a burst of screens, which is what meets the per-connection limit.
 */
export function pacedSvc(svc: Svc): Svc {
  return new Proxy(svc, {
    get(target, key) {
      const value = Reflect.get(target, key);
      if (typeof value !== 'function' || typeof key !== 'string' || !WRITES.has(key)) return value;
      return async (...args: unknown[]) => {
        for (let tries = 1; ; tries++) {
          try {
            return await value.apply(target, args);
          } catch (err) {
            if (!(err instanceof RateLimitedError) || tries >= MAX_TRIES) throw err;
            const signal = (args.at(-1) as { signal?: AbortSignal } | undefined)?.signal;
            await sleep(
              Math.max(0.2, err.retryAfterSeconds ?? 1) * 1000,
              undefined,
              signal ? { signal } : {},
            );
          }
        }
      };
    },
  });
}
