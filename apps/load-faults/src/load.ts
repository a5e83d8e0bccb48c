// `npm run load`: the built server under 1,000 MCP clients (show → tap → answers), person and host streams.
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type FlagSpec, helpText, parseFlags, UsageError } from './cli-args.js';
import { readLoadEnv } from './env.js';
import type { DriverMessage, DriverPlan, DriverResult } from './load-driver.js';
import { formatTable, machineLoad, mib } from './report.js';
import { receiveResult } from './result-channel.js';
import { type ProcessSample, type ServiceProcess, startService } from './service.js';
import { mapLimit, pairNewConnection, signUpPeople } from './setup.js';
import { type StepSummary, summarize } from './stats.js';

const FLAGS = [
  { name: 'clients', value: 1000, min: 1, max: 5000, help: 'concurrent MCP clients, one call at a time' },
  { name: 'streams', value: 1000, min: 0, max: 5000, help: "open person's event streams" },
  { name: 'hosts', value: 500, min: 0, max: 5000, help: 'open host message streams' },
  { name: 'duration', value: 60, min: 1, max: 600, help: 'seconds of load after set-up' },
  { name: 'drivers', value: 2, min: 1, max: 16, help: 'driver processes sharing the clients' },
  { name: 'wait', value: 25, min: 0, max: 25, help: 'svc_answers wait in seconds' },
  {
    name: 'sockets',
    value: 256,
    min: 0,
    max: 10000,
    help: 'connections per driver, opened before the run (at most one per client; 0 = one per client)',
  },
  {
    name: 'warm',
    value: 1,
    min: 0,
    max: 1,
    help: '1: open every pool connection before the run; 0: open them as calls need them (to compare)',
  },
  {
    name: 'grace',
    value: 70,
    min: 0,
    max: 600,
    help: 'seconds after --duration to wait for calls in flight; later ones fail as unfinished',
  },
  {
    name: 'rss-growth-mb',
    value: 128,
    min: 1,
    max: 8192,
    help: 'fail when RSS grew more than this (start → end, each after a full GC)',
  },
  {
    name: 'heap-growth-mb',
    value: 32,
    min: 1,
    max: 8192,
    help: 'fail when the used heap grew more than this (each after a full GC: what the server still holds)',
  },
  { name: 'fd-growth', value: 64, min: 0, max: 100000, help: 'fail when open fds grew more than this' },
] as const satisfies readonly FlagSpec[];

const SUMMARY = `Starts the built server (apps/server/dist/main.js) on a temporary data dir on 127.0.0.1, makes one
account per 10 streams, pairs one agent per MCP client and per host through the app and the pairing API,
then each MCP client (official SDK, Streamable HTTP) loops svc_show → the person taps (person's API) →
svc_answers for --duration seconds, paced inside its own bucket mcp (burst 60, 30 per minute). Each driver
opens and uses its whole connection pool (--sockets) before the run starts and opens new connections
during it only to replace lost ones; the results count them (ADR 0215). Prints calls/s and p50/p99/max
per step, errors by kind, RSS/heap/fds at start, peak and end; exits 1 on any error (a 429 too: the
clients never exceed their bucket; a call still in flight --grace seconds after the end is 'unfinished'),
a dropped stream, a pool that could not be warmed, or RSS, heap or fds grown past their bounds.
Environment: LOAD_TRACE_DIR=<dir> writes each driver's 200 slowest HTTP requests, with where their time
went (queue, answer, body; new connection or not), to <dir>/driver-<n>.jsonl.`;

/** Where the driver entry is built beside this file. */
const DRIVER = fileURLToPath(new URL('./load-driver.js', import.meta.url));

async function heapUsed(svc: ServiceProcess): Promise<number> {
  const m = await svc.metrics();
  return m.get('svc_nodejs_heap_size_used_bytes') ?? Number.NaN;
}

type Sample = ProcessSample & { heap: number };

/**
 * RSS, fds and the used heap after a full garbage collection (asked through the server's inspector), so
 * the leak check compares what the server holds, not garbage an idle process has not yet collected.
 */
async function settledSample(svc: ServiceProcess): Promise<Sample> {
  await svc.collectGarbage();
  return { ...svc.sample(), heap: await heapUsed(svc) };
}

async function main(argv: string[]): Promise<number> {
  const flags = parseFlags(argv, FLAGS);
  if (flags.help) {
    process.stdout.write(helpText('npm run load --', SUMMARY, FLAGS));
    return 0;
  }
  const env = readLoadEnv();
  const load0 = machineLoad();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-load-'));
  const svc = await startService({ dataDir, inspector: true });
  const log = (s: string) => process.stderr.write(`[load] ${s}\n`);
  try {
    const accounts = Math.max(1, Math.ceil(flags.streams / 10), Math.ceil(flags.clients / 10));
    log(`server pid ${svc.pid()} at ${svc.base}; data ${dataDir}; setting up ${accounts} accounts`);
    const t0 = Date.now();
    const people = await signUpPeople(svc.base, accounts);
    const mcp = await mapLimit(
      Array.from({ length: flags.clients }, (_, i) => i),
      16,
      async (i) => {
        const person = people[i % accounts]!;
        const c = await pairNewConnection(svc.base, person, `mcp-${i}`);
        return { mcpToken: c.token, agentId: c.agentId, personToken: person.token };
      },
    );
    const hosts = await mapLimit(
      Array.from({ length: flags.hosts }, (_, i) => i),
      16,
      async (i) => (await pairNewConnection(svc.base, people[i % accounts]!, `host-${i}`, 'hostfw')).token,
    );
    const personStreams = Array.from({ length: flags.streams }, (_, i) => people[i % accounts]!.token);
    log(`set-up took ${((Date.now() - t0) / 1000).toFixed(1)} s`);

    const start = await settledSample(svc);
    const drivers = Array.from({ length: flags.drivers }, () =>
      fork(DRIVER, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }),
    );
    const pick = <T>(list: T[], d: number) => list.filter((_, i) => i % flags.drivers === d);
    const ready = drivers.map(
      (child) =>
        new Promise<Extract<DriverMessage, { type: 'ready' }>>((resolve, reject) => {
          child.on('message', (m: DriverMessage) => m.type === 'ready' && resolve(m));
          child.once('exit', (code) => reject(new Error(`a driver exited with ${code} before it was ready`)));
        }),
    );
    let duplicateResults = 0;
    // Listening from the fork on: a driver that dies during set-up fails the run instead of hanging it.
    const results = drivers.map((child, d) =>
      receiveResult<DriverResult>(child, {
        name: `driver ${d + 1}`,
        pick: (m) =>
          (m as DriverMessage).type === 'result' ? (m as { result: DriverResult }).result : undefined,
        onDuplicate: () => duplicateResults++,
      }),
    );
    const warmed = drivers.map(
      (child) =>
        new Promise<Extract<DriverMessage, { type: 'warmed' }>>((resolve, reject) => {
          child.on('message', (m: DriverMessage) => m.type === 'warmed' && resolve(m));
          child.once('exit', (code) =>
            reject(new Error(`a driver exited with ${code} before its pool was warm`)),
          );
        }),
    );
    warmed.forEach((p) => void p.catch(() => {}));
    const traceDir = env.LOAD_TRACE_DIR ?? null;
    drivers.forEach((child, d) => {
      const plan: DriverPlan = {
        base: svc.base,
        clients: pick(mcp, d),
        personStreams: pick(personStreams, d),
        hostStreams: pick(hosts, d),
        // Inside the service's bucket (burst 60, 30/min) with a margin for the two clocks.
        pace: { burst: 56, perMinute: 29 },
        answersWait: flags.wait,
        sockets: flags.sockets,
        graceMs: flags.grace * 1000,
        warm: flags.warm === 1,
        trace: traceDir ? { dir: path.resolve(traceDir), name: `driver-${d + 1}`, keep: 200 } : null,
      };
      child.send({ type: 'plan', plan } satisfies DriverMessage);
    });
    const readies = await Promise.all(ready);
    for (const child of drivers) child.send({ type: 'warm' } satisfies DriverMessage);
    const warms = await Promise.all(warmed);
    const opened: ProcessSample & { heap: number } = { ...svc.sample(), heap: await heapUsed(svc) };
    const m0 = await svc.metrics();
    log(
      `clients connected, streams open, pools ${flags.warm ? 'warm' : 'NOT warmed (--warm 0)'} (${warms.map((w) => `${w.warm.open}/${w.size} open, ${w.warm.opened} by the warm-up in ${(w.warm.ms / 1000).toFixed(1)} s`).join('; ')}; server sees ${m0.get('svc_open_streams')} person streams, ${opened.openFds} fds); go for ${flags.duration} s`,
    );
    const goAt = Date.now();
    for (const child of drivers) {
      child.send({ type: 'go', untilEpochMs: goAt + flags.duration * 1000 } satisfies DriverMessage);
    }
    let peak = opened;
    const sampler = setInterval(() => {
      const s = svc.sample();
      if (s.rssBytes > peak.rssBytes) peak = { ...s, heap: peak.heap };
    }, 1000);
    const parts = await Promise.all(results);
    clearInterval(sampler);
    const elapsed = (Date.now() - goAt) / 1000;
    const load1 = machineLoad();
    // The event-loop delay of the run is read now: a later scrape starts a new window.
    const mRun = await svc.metrics();
    await new Promise((r) => setTimeout(r, 3000));
    const end = await settledSample(svc);
    const mEnd = await svc.metrics();

    // Rates over the whole window: calls started before the deadline may finish after it.
    const steps = summarize(
      parts.map((p) => p.samples),
      elapsed,
    );
    const connectErrors: Record<string, number> = {};
    const streamErrors: Record<string, number> = {};
    for (const r of readies) {
      for (const [k, n] of Object.entries(r.connectErrors)) connectErrors[k] = (connectErrors[k] ?? 0) + n;
      for (const [k, n] of Object.entries(r.streamErrors)) streamErrors[k] = (streamErrors[k] ?? 0) + n;
    }
    const dropped = parts.reduce((n, p) => n + p.droppedStreams.person + p.droppedStreams.host, 0);
    const loops = parts.reduce((n, p) => n + p.loops, 0);
    const calls = steps
      .filter((s) => ['show', 'tap', 'answers'].includes(s.step))
      .reduce((n, s) => n + s.count, 0);
    const problems = checkBounds(steps, { start, end, dropped, streamErrors, flags, mEnd });
    warms.forEach((w, d) => {
      if (flags.warm === 1 && w.warm.open < w.size)
        problems.push(
          `driver ${d + 1} warmed only ${w.warm.open} of ${w.size} connections (errors ${JSON.stringify(w.warm.errors)})`,
        );
    });
    if (duplicateResults > 0) problems.push(`drivers sent ${duplicateResults} result(s) more than once`);
    const pools = parts.map((p) => p.pool);
    const sum = (f: (p: DriverResult['pool']) => number) => pools.reduce((n, p) => n + f(p), 0);
    const merge = (f: (p: DriverResult['pool']) => Record<string, number>) => {
      const out: Record<string, number> = {};
      for (const p of pools) for (const [k, n] of Object.entries(f(p))) out[k] = (out[k] ?? 0) + n;
      return out;
    };
    const connections = {
      warmed: sum((p) => p.openedBefore),
      openedDuringRun: sum((p) => p.openedDuringRun),
      closedDuringRun: merge((p) => p.closedDuringRun),
      connectErrors: merge((p) => p.connectErrors),
    };
    const traces = parts.flatMap((p) => (p.trace ? [p.trace] : []));

    const lines = [
      `load: ${flags.clients} MCP clients, ${flags.streams} person streams, ${flags.hosts} host streams, ${flags.duration} s, ${flags.drivers} driver processes, ${flags.sockets === 0 ? 'no cap on connections' : `at most ${flags.sockets} connections each`}`,
      `machine: ${os.cpus().length} cores; load average before ${load0}, after ${load1}`,
      `loops (show → tap → answers): ${loops} in ${elapsed.toFixed(1)} s = ${(loops / elapsed).toFixed(1)}/s; calls ${calls} = ${(calls / elapsed).toFixed(1)}/s`,
      '',
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
    process.stdout.write(`${lines.join('\n')}\n`);
    if (flags.json) {
      fs.writeFileSync(
        flags.json,
        JSON.stringify(
          {
            flags,
            steps,
            start,
            opened,
            peak,
            end,
            loops,
            dropped,
            connections,
            warm: warms.map((w) => ({ ...w.warm, size: w.size })),
            load0,
            load1,
            problems,
          },
          null,
          2,
        ),
      );
    }
    return problems.length === 0 ? 0 : 1;
  } finally {
    await svc.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Seconds from /metrics as whole milliseconds. */
function ms(seconds: number | undefined): string {
  return seconds === undefined ? '?' : (seconds * 1000).toFixed(0);
}

function checkBounds(
  steps: StepSummary[],
  o: {
    start: ProcessSample & { heap: number };
    end: ProcessSample & { heap: number };
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

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    if (err instanceof UsageError) {
      process.stderr.write(`${err.message}\n\n${helpText('npm run load --', SUMMARY, FLAGS)}`);
      process.exit(2);
    }
    process.stderr.write(`load failed: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
