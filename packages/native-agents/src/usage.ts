// Per-account model limits (SVC_MODEL_TURNS_PER_MINUTE, SVC_MODEL_TOKENS_PER_DAY): turns through a token
// bucket, tokens counted per UTC day.
import { type LimitStore, memoryLimits } from '@screen-service/registry/kernel';

/** The operator's per-account limits; 0 or absent means no limit. */
export interface ModelLimits {
  turnsPerMinute?: number;
  tokensPerDay?: number;
}

/** Counts a user's tokens per day. Kept in memory (ADR 0200): a restart forgets today's count. */
export interface UsageMeter {
  used(userId: string, day: string): number;
  add(userId: string, day: string, tokens: number): void;
}

/** The UTC day of a time, `YYYY-MM-DD`. */
export const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A meter that keeps only the current day per user. */
export function createMemoryUsage(): UsageMeter {
  const byUser = new Map<string, { day: string; tokens: number }>();
  return {
    used(userId, day) {
      const u = byUser.get(userId);
      return u && u.day === day ? u.tokens : 0;
    },
    add(userId, day, tokens) {
      const u = byUser.get(userId);
      byUser.set(userId, { day, tokens: (u && u.day === day ? u.tokens : 0) + tokens });
    },
  };
}

/** The verdict of {@link createLimits}`.check`. */
export type LimitVerdict =
  | { ok: true }
  | { ok: false; kind: 'turns'; retryAfterMs: number }
  | { ok: false; kind: 'tokens'; line: string };

/** Checks a turn against both limits and records its tokens. */
export function createLimits(
  limits: ModelLimits,
  now: () => number,
  usage: UsageMeter = createMemoryUsage(),
  /** Where the turns bucket counts (shared by every instance on PostgreSQL); default in-process. */
  store: LimitStore = memoryLimits,
) {
  const perMinute = limits.turnsPerMinute ?? 0;
  const perDay = limits.tokensPerDay ?? 0;
  const turns =
    perMinute > 0 ? store.rateLimiter('native-turns', { burst: perMinute, perMinute, now }) : null;
  return {
    async check(userId: string): Promise<LimitVerdict> {
      if (perDay > 0 && usage.used(userId, utcDay(now())) >= perDay) {
        return {
          ok: false,
          kind: 'tokens',
          line: `This account used its ${perDay} model tokens for today; native agents answer again after midnight UTC.`,
        };
      }
      if (turns) {
        const d = await turns.take(userId);
        if (!d.ok) return { ok: false, kind: 'turns', retryAfterMs: d.retryAfterS * 1000 };
      }
      return { ok: true };
    },
    record(userId: string, tokens: number) {
      usage.add(userId, utcDay(now()), tokens);
    },
  };
}
