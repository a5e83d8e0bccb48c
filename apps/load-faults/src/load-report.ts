// `npm run load`'s result: the drivers' figures summed, checked against the run's bounds, and printed.
import os from 'node:os';
import type { DriverMessage, DriverResult } from './load-driver.js';
import { formatTable, mib } from './report.js';
import type { ProcessSample } from './service.js';
import { type StepSummary, summarize } from './stats.js';

/** A service sample with its used heap. */
export type Sample = ProcessSample & { heap: number };

/** The flags the report reads (the run's shape and its bounds). */
export type ReportFlags = Record<
  | 'clients'
  | 'streams'
  | 'hosts'
  | 'duration'
  | 'drivers'
  | 'sockets'
  | 'warm'
  | 'rss-growth-mb'
  | 'heap-growth-mb'
  | 'fd-growth',
  number
>;

/** Everything a run measured, as the parent collected it. */
export interface LoadFigures {
  flags: ReportFlags;
  readies: Extract<DriverMessage, { type: 'ready' }>[];
  warms: Extract<DriverMessage, { type: 'warmed' }>[];
  parts: DriverResult[];
  /** Seconds from go until the last driver's result. */
  elapsed: number;
  duplicateResults: number;
  start: Sample;
  opened: Sample;
  peak: Sample;
  end: Sample;
  /** /metrics right after the run, and after the end sample. */
  mRun: Map<string, number>;
  mEnd: Map<string, number>;
  load0: string;
  load1: string;
}

/** Sums of the drivers' figures and the problems found. */
export type LoadTally = ReturnType<typeof tallyLoad>;

/** Seconds from /metrics as whole milliseconds. */
function ms(seconds: number | undefined): string {
  return seconds === undefined ? '?' : (seconds * 1000).toFixed(0);
}

function checkBounds(
  steps: StepSummary[],
  o: {
    start: Sample;
    end: Sample;
    dropped: number;
    streamErrors: Record<string, number>;
    flags: { 'rss-growth-mb': number; 'heap-growth-mb': number; 'fd-growth': number };
    mEnd: Map<string, number>;
  },
): string[] {
  const problems: string[] = [];
  for (const s of steps) {
    for (const [kind, n] of Object.entries(s.errors)) {
      // An answers call that waited its whole wait without the tap is not an error of the service, but it
      // should not happen (the tap was acknowledged before the call): report it too.
      problems.push(
        `${s.step}: ${n} × ${kind}${kind === 'http_429' ? ' (clients are paced inside their bucket)' : ''}`,
      );
    }
  }
  if (o.dropped > 0) problems.push(`${o.dropped} streams were ended by the server during the run`);
  if (Object.keys(o.streamErrors).length > 0)
    problems.push(`streams failed to open: ${JSON.stringify(o.streamErrors)}`);
  const grew = (a: number, b: number) => (b - a) / 1024 / 1024;
  if (grew(o.start.rssBytes, o.end.rssBytes) > o.flags['rss-growth-mb'])
    problems.push(
      `RSS grew ${grew(o.start.rssBytes, o.end.rssBytes).toFixed(0)} MiB (bound ${o.flags['rss-growth-mb']})`,
    );
  if (grew(o.start.heap, o.end.heap) > o.flags['heap-growth-mb'])
    problems.push(
      `heap grew ${grew(o.start.heap, o.end.heap).toFixed(0)} MiB (bound ${o.flags['heap-growth-mb']})`,
    );
  if (o.end.openFds - o.start.openFds > o.flags['fd-growth'])
    problems.push(
      `open fds grew from ${o.start.openFds} to ${o.end.openFds} (bound +${o.flags['fd-growth']})`,
    );
  if ((o.mEnd.get('svc_answers_waiters') ?? 0) !== 0) problems.push('svc_answers waiters left after the run');
  if ((o.mEnd.get('svc_open_streams') ?? 0) !== 0) problems.push('person streams left open after the run');
  return problems;
}

/** The drivers' pools summed: connections opened before and during the run, lost, failed. */
function sumPools(parts: readonly DriverResult[]) {
  const pools = parts.map((p) => p.pool);
  const sum = (f: (p: DriverResult['pool']) => number) => pools.reduce((n, p) => n + f(p), 0);
  const merge = (f: (p: DriverResult['pool']) => Record<string, number>) => {
    const out: Record<string, number> = {};
    for (const p of pools) for (const [k, n] of Object.entries(f(p))) out[k] = (out[k] ?? 0) + n;
    return out;
  };
  return {
    warmed: sum((p) => p.openedBefore),
    openedDuringRun: sum((p) => p.openedDuringRun),
    closedDuringRun: merge((p) => p.closedDuringRun),
    connectErrors: merge((p) => p.connectErrors),
  };
}

/** Sums the drivers' figures and lists every bound the run broke (none: the run passes). */
export function tallyLoad(f: LoadFigures) {
  const { flags, parts, warms } = f;
  // Rates over the whole window: calls started before the deadline may finish after it.
  const steps = summarize(
    parts.map((p) => p.samples),
    f.elapsed,
  );
  const connectErrors: Record<string, number> = {};
  const streamErrors: Record<string, number> = {};
  for (const r of f.readies) {
    for (const [k, n] of Object.entries(r.connectErrors)) connectErrors[k] = (connectErrors[k] ?? 0) + n;
    for (const [k, n] of Object.entries(r.streamErrors)) streamErrors[k] = (streamErrors[k] ?? 0) + n;
  }
  const dropped = parts.reduce((n, p) => n + p.droppedStreams.person + p.droppedStreams.host, 0);
  const loops = parts.reduce((n, p) => n + p.loops, 0);
  const calls = steps
    .filter((s) => ['show', 'tap', 'answers'].includes(s.step))
    .reduce((n, s) => n + s.count, 0);
  const problems = checkBounds(steps, {
    start: f.start,
    end: f.end,
    dropped,
    streamErrors,
    flags,
    mEnd: f.mEnd,
  });
  warms.forEach((w, d) => {
    if (flags.warm === 1 && w.warm.open < w.size)
      problems.push(
        `driver ${d + 1} warmed only ${w.warm.open} of ${w.size} connections (errors ${JSON.stringify(w.warm.errors)})`,
      );
  });
  if (f.duplicateResults > 0) problems.push(`drivers sent ${f.duplicateResults} result(s) more than once`);
  const connections = sumPools(parts);
  const traces = parts.flatMap((p) => (p.trace ? [p.trace] : []));
  return { steps, connectErrors, streamErrors, dropped, loops, calls, problems, connections, traces };
}

/** The steps' rates and latencies, and the service's memory and fds at each point of the run. */
function formatTables(f: LoadFigures, steps: StepSummary[]): string[] {
  const { start, opened, peak, end } = f;
  return [
    formatTable(
      ['step', 'ok', 'per s', 'p50 ms', 'p99 ms', 'max ms', 'errors'],
      steps.map((s) => [
        s.step,
        String(s.count),
        s.perSecond.toFixed(1),
        s.p50.toFixed(1),
        s.p99.toFixed(1),
        s.max.toFixed(1),
        Object.entries(s.errors)
          .map(([k, n]) => `${k} ${n}`)
          .join(', ') || '-',
      ]),
    ),
    '',
    formatTable(
      ['service', 'RSS MiB', 'heap used MiB', 'open fds'],
      [
        [
          'start (idle, after set-up, a full GC)',
          mib(start.rssBytes),
          mib(start.heap),
          String(start.openFds),
        ],
        ['all clients and streams open', mib(opened.rssBytes), mib(opened.heap), String(opened.openFds)],
        ['peak RSS during the run', mib(peak.rssBytes), '', String(peak.openFds)],
        ['end (all closed +3 s, a full GC)', mib(end.rssBytes), mib(end.heap), String(end.openFds)],
      ],
    ),
  ];
}

/** The report's lines, ending with `RESULT: PASS` or `RESULT: FAIL` and the problems. */
export function formatLoadReport(f: LoadFigures, t: LoadTally): string[] {
  const { flags, parts, warms, elapsed, mRun, mEnd } = f;
  const { loops, calls, dropped, streamErrors, connectErrors, connections, traces, problems } = t;
  return [
    `load: ${flags.clients} MCP clients, ${flags.streams} person streams, ${flags.hosts} host streams, ${flags.duration} s, ${flags.drivers} driver processes, ${flags.sockets === 0 ? 'no cap on connections' : `at most ${flags.sockets} connections each`}`,
    `machine: ${os.cpus().length} cores; load average before ${f.load0}, after ${f.load1}`,
    `loops (show → tap → answers): ${loops} in ${elapsed.toFixed(1)} s = ${(loops / elapsed).toFixed(1)}/s; calls ${calls} = ${(calls / elapsed).toFixed(1)}/s`,
    '',
    ...formatTables(f, t.steps),
    '',
    `streams: ${dropped} dropped by the server during the run; open errors ${JSON.stringify(streamErrors)}; events received person ${parts.reduce((n, p) => n + p.streamEvents.person, 0)}, host ${parts.reduce((n, p) => n + p.streamEvents.host, 0)}`,
    `event-loop delay p99/max: server ${ms(mRun.get('svc_nodejs_eventloop_lag_p99_seconds'))}/${ms(mRun.get('svc_nodejs_eventloop_lag_max_seconds'))} ms (during the run); drivers ${parts.map((p) => `${p.loopDelayMs.p99.toFixed(0)}/${p.loopDelayMs.max.toFixed(0)}`).join(', ')} ms`,
    `connect errors: ${JSON.stringify(connectErrors)}; after the run: svc_answers_waiters ${mEnd.get('svc_answers_waiters')}, svc_open_streams ${mEnd.get('svc_open_streams')}`,
    `connections (MCP calls and taps): ${connections.warmed} opened before the run (pools of ${warms.map((w) => w.size).join(', ')}${flags.warm ? `, ${warms.reduce((n, w) => n + w.warm.opened, 0)} of them by the warm-up` : ', no warm-up'}); opened during the run ${connections.openedDuringRun}; lost during the run ${JSON.stringify(connections.closedDuringRun)}; connect errors ${JSON.stringify(connections.connectErrors)}`,
    ...(traces.length > 0
      ? [
          `trace: ${traces.map((t) => `${t.file} (the ${t.kept} slowest of ${t.traced} requests, ${t.onNewConnections} of them on connections opened during the run; slowest ${t.slowestMs.toFixed(0)} ms)`).join(', ')}`,
        ]
      : []),
    `bounds: RSS growth ≤ ${flags['rss-growth-mb']} MiB, heap growth ≤ ${flags['heap-growth-mb']} MiB, fd growth ≤ ${flags['fd-growth']}`,
    problems.length === 0 ? 'RESULT: PASS' : `RESULT: FAIL\n${problems.map((p) => `  - ${p}`).join('\n')}`,
  ];
}
