// Latency samples per step and failures per kind: recorded in each driver, merged in the parent. Pure.

/** What one driver measured; plain data so it crosses a process boundary as JSON. */
export interface StepSamples {
  /** Milliseconds of each successful call, per step name. */
  latencies: Record<string, number[]>;
  /** Failures per step, per kind (`http_429`, `timeout`, ...). */
  errors: Record<string, Record<string, number>>;
}

export interface StepSummary {
  step: string;
  count: number;
  perSecond: number;
  p50: number;
  p99: number;
  max: number;
  errors: Record<string, number>;
}

/**
 * Collects samples.
 *
 * @example
 * ```ts
 * const rec = createRecorder();
 * rec.ok('show', 12.5);
 * rec.fail('show', 'http_429');
 * summarize([rec.samples()], 60);
 * ```
 */
export function createRecorder() {
  const s: StepSamples = { latencies: {}, errors: {} };
  return {
    ok(step: string, ms: number) {
      const list = s.latencies[step] ?? [];
      s.latencies[step] = list;
      list.push(ms);
    },
    fail(step: string, kind: string) {
      const byKind = s.errors[step] ?? {};
      s.errors[step] = byKind;
      byKind[kind] = (byKind[kind] ?? 0) + 1;
    },
    samples: () => s,
  };
}

export type Recorder = ReturnType<typeof createRecorder>;

/** The value at quantile q (0..1) of sorted values, nearest rank; 0 for none. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] as number;
}

/** Merges drivers' samples and summarises each step over `seconds` of run time. */
export function summarize(parts: readonly StepSamples[], seconds: number): StepSummary[] {
  const steps = new Set<string>();
  for (const p of parts) {
    for (const k of Object.keys(p.latencies)) steps.add(k);
    for (const k of Object.keys(p.errors)) steps.add(k);
  }
  return [...steps].sort().map((step) => {
    const all = parts.flatMap((p) => p.latencies[step] ?? []).sort((a, b) => a - b);
    const errors: Record<string, number> = {};
    for (const p of parts) {
      for (const [kind, n] of Object.entries(p.errors[step] ?? {})) errors[kind] = (errors[kind] ?? 0) + n;
    }
    return {
      step,
      count: all.length,
      perSecond: seconds > 0 ? all.length / seconds : 0,
      p50: quantile(all, 0.5),
      p99: quantile(all, 0.99),
      max: all.length > 0 ? (all[all.length - 1] as number) : 0,
      errors,
    };
  });
}
