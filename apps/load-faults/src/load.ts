// `npm run load`: the built server under 1,000 MCP clients (show → tap → answers), person and host streams.
import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type FlagSpec, helpText, type ParsedFlags, parseFlags, UsageError } from './cli-args.js';
import { readLoadEnv } from './env.js';
import type { DriverMessage, DriverPlan, DriverResult } from './load-driver.js';
import { formatLoadReport, type LoadFigures, type Sample, tallyLoad } from './load-report.js';
import { machineLoad } from './report.js';
import { receiveResult } from './result-channel.js';
import { type ServiceProcess, startService } from './service.js';
import { mapLimit, pairNewConnection, signUpPeople } from './setup.js';

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
type LoadFlags = ParsedFlags<typeof FLAGS>;

const DRIVER = fileURLToPath(new URL('./load-driver.js', import.meta.url));

async function heapUsed(svc: ServiceProcess): Promise<number> {
  const m = await svc.metrics();
  return m.get('svc_nodejs_heap_size_used_bytes') ?? Number.NaN;
}

/**
 * RSS, fds and the used heap after a full garbage collection (asked through the server's inspector), so
 * the leak check compares what the server holds, not garbage an idle process has not yet collected.
 */
async function settledSample(svc: ServiceProcess): Promise<Sample> {
  await svc.collectGarbage();
  return { ...svc.sample(), heap: await heapUsed(svc) };
}

/** The run's clients: one account per 10 streams (or clients), an agent paired per MCP client and per host. */
async function setUpAccounts(
  svc: ServiceProcess,
  flags: LoadFlags,
  dataDir: string,
  log: (s: string) => void,
) {
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
  return { mcp, hosts, personStreams };
}

/** Resolves with a driver's first message of `type`; rejects when the driver exits before sending it. */
function nextFrom<T extends DriverMessage['type']>(child: ChildProcess, type: T, before: string) {
  return new Promise<Extract<DriverMessage, { type: T }>>((resolve, reject) => {
    child.on(
      'message',
      (m: DriverMessage) => m.type === type && resolve(m as Extract<DriverMessage, { type: T }>),
    );
    child.once('exit', (code) => reject(new Error(`a driver exited with ${code} before ${before}`)));
  });
}

/** Forks the drivers and hands each its share of the clients and streams (every `drivers`-th one). */
function startDrivers(
  svc: ServiceProcess,
  flags: LoadFlags,
  work: Awaited<ReturnType<typeof setUpAccounts>>,
  traceDir: string | null,
) {
  const drivers = Array.from({ length: flags.drivers }, () =>
    fork(DRIVER, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }),
  );
  const pick = <T>(list: T[], d: number) => list.filter((_, i) => i % flags.drivers === d);
  const ready = drivers.map((child) => nextFrom(child, 'ready', 'it was ready'));
  const duplicates = { results: 0 };
  // Listening from the fork on: a driver that dies during set-up fails the run instead of hanging it.
  const results = drivers.map((child, d) =>
    receiveResult<DriverResult>(child, {
      name: `driver ${d + 1}`,
      pick: (m) =>
        (m as DriverMessage).type === 'result' ? (m as { result: DriverResult }).result : undefined,
      onDuplicate: () => duplicates.results++,
    }),
  );
  const warmed = drivers.map((child) => nextFrom(child, 'warmed', 'its pool was warm'));
  warmed.forEach((p) => void p.catch(() => {}));
  drivers.forEach((child, d) => {
    const plan: DriverPlan = {
      base: svc.base,
      clients: pick(work.mcp, d),
      personStreams: pick(work.personStreams, d),
      hostStreams: pick(work.hosts, d),
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
  return { drivers, ready, results, warmed, duplicates };
}

/** Waits for every driver's ready, has them warm their pools, says go, and samples the RSS peak until the results. */
async function runDrivers(
  svc: ServiceProcess,
  flags: LoadFlags,
  started: ReturnType<typeof startDrivers>,
  log: (s: string) => void,
) {
  const { drivers } = started;
  const readies = await Promise.all(started.ready);
  for (const child of drivers) child.send({ type: 'warm' } satisfies DriverMessage);
  const warms = await Promise.all(started.warmed);
  const opened: Sample = { ...svc.sample(), heap: await heapUsed(svc) };
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
  const parts = await Promise.all(started.results);
  clearInterval(sampler);
  const elapsed = (Date.now() - goAt) / 1000;
  return { readies, warms, opened, peak, parts, elapsed, duplicateResults: started.duplicates.results };
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
    const work = await setUpAccounts(svc, flags, dataDir, log);
    const start = await settledSample(svc);
    const run = await runDrivers(svc, flags, startDrivers(svc, flags, work, env.LOAD_TRACE_DIR ?? null), log);
    const load1 = machineLoad();
    // The event-loop delay of the run is read now: a later scrape starts a new window.
    const mRun = await svc.metrics();
    await new Promise((r) => setTimeout(r, 3000));
    const end = await settledSample(svc);
    const mEnd = await svc.metrics();
    const figures: LoadFigures = { flags, ...run, start, end, mRun, mEnd, load0, load1 };
    const tally = tallyLoad(figures);
    process.stdout.write(`${formatLoadReport(figures, tally).join('\n')}\n`);
    if (flags.json) {
      const { steps, loops, dropped, connections, problems } = tally;
      const { opened, peak, warms } = run;
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
    return tally.problems.length === 0 ? 0 : 1;
  } finally {
    await svc.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
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
