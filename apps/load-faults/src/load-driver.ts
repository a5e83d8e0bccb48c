// One driver process of `npm run load`: its share of MCP clients and streams, started and stopped by the parent.
import fs from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { type Agent, fetch as undiciFetch } from 'undici';
import { connectMcp, errorKind, type McpSession } from './mcp.js';
import { createPace, sleep } from './pace.js';
import { createPool, type PoolCounts, type WarmReport } from './pool.js';
import { createOnceSender } from './result-channel.js';
import { awaitRunEnd, createInFlight } from './run-end.js';
import { APP, CONNECT, MCP } from './setup.js';
import { openSse, type SseStream } from './sse.js';
import { createRecorder, type Recorder, type StepSamples } from './stats.js';
import { createTracer, type Tracer } from './trace.js';

/** One MCP client's part: its connection token, its agent, and the person who taps. */
export interface DriverClient {
  mcpToken: string;
  agentId: string;
  personToken: string;
}

/** What the parent sends first. */
export interface DriverPlan {
  base: string;
  clients: DriverClient[];
  /** Person's access tokens, one stream each. */
  personStreams: string[];
  /** Host connector tokens, one `{connect_url}/messages` stream each. */
  hostStreams: string[];
  pace: { burst: number; perMinute: number };
  /** `svc_answers` wait in seconds. */
  answersWait: number;
  /**
   * Connections of this driver's pool (like a proxy's upstream pool), opened and warmed before the run and
   * capped at one per client; 0 = one per client.
   */
  sockets: number;
  /** false: skip the warm-up (the pool opens connections when calls need them: the old way, to compare). */
  warm: boolean;
  /** How long after the deadline calls still in flight are waited for; then they count as `unfinished`. */
  graceMs: number;
  /** LOAD_TRACE_DIR: write the slowest requests' timings to `<dir>/driver-<n>.jsonl`. */
  trace: { dir: string; name: string; keep: number } | null;
}

/** Messages between parent and driver over the IPC channel. */
export type DriverMessage =
  | { type: 'plan'; plan: DriverPlan }
  | { type: 'ready'; connectErrors: Record<string, number>; streamErrors: Record<string, number> }
  | { type: 'warm' }
  | { type: 'warmed'; warm: WarmReport; size: number }
  | { type: 'go'; untilEpochMs: number }
  | { type: 'result'; result: DriverResult };

export interface DriverResult {
  samples: StepSamples;
  loops: number;
  /** Streams the server ended or cut before we closed them, by kind of stream. */
  droppedStreams: { person: number; host: number };
  streamEvents: { person: number; host: number };
  /** This driver's own event-loop delay during the run (ms): a starved driver inflates every latency. */
  loopDelayMs: { p99: number; max: number };
  /** The pool: connections opened before and during the run, lost during it. */
  pool: PoolCounts;
  /** Calls still in flight when the grace period after the deadline ended, by step (also in the errors). */
  unfinished: Record<string, number>;
  /**
   * LOAD_TRACE_DIR: requests traced, the file the slowest went to, how many of those ran on a connection
   * opened during the run, and the slowest one's time (ms); null without tracing.
   */
  trace: { traced: number; file: string; kept: number; onNewConnections: number; slowestMs: number } | null;
}

const send = (m: DriverMessage) => process.send?.(m);
// The result goes exactly once (the last call's return and the grace timer both finish the run), and the
// driver exits only once it was handed to the channel: exiting earlier can lose it in the pipe.
const result = createOnceSender<DriverMessage>((m, done) => {
  if (!process.send) done(new Error('no IPC channel to the parent'));
  else process.send(m, undefined, {}, done);
});
const nextMessage = <T extends DriverMessage['type']>(type: T) =>
  new Promise<Extract<DriverMessage, { type: T }>>((resolve) => {
    const on = (m: DriverMessage) => {
      if (m.type !== type) return;
      process.off('message', on);
      resolve(m as Extract<DriverMessage, { type: T }>);
    };
    process.on('message', on);
  });

/** Fetch's headers init as a plain record (the SDK passes a Headers object or a record). */
function toRecord(h: RequestInit['headers']): Record<string, string> {
  if (!h) return {};
  // A Headers object of either undici (Node's or the package's) is iterable; a record is not.
  if (Array.isArray(h) || Symbol.iterator in Object(h)) return Object.fromEntries(new Headers(h).entries());
  return { ...(h as Record<string, string>) };
}

async function openStreams(url: string, tokens: string[], errors: Record<string, number>) {
  const open: SseStream[] = [];
  for (let i = 0; i < tokens.length; i += 50) {
    const batch = tokens.slice(i, i + 50);
    const got = await Promise.allSettled(
      batch.map((t) => openSse(url, { headers: { authorization: `Bearer ${t}` } })),
    );
    for (const g of got) {
      if (g.status === 'fulfilled') open.push(g.value);
      else errors[errorKind(g.reason)] = (errors[errorKind(g.reason)] ?? 0) + 1;
    }
  }
  return open;
}

/**
 * One pool per driver, every connection opened before the run (ADR 0215: a connection opened while the
 * server is saturated waits in its accept queue for seconds). A client has one call in flight at a time,
 * so more connections than clients would never be used. Connects may still wait: allow 30 s.
 */
function openPool(plan: DriverPlan, tracer: Tracer | null) {
  const size = Math.max(
    1,
    plan.sockets === 0 ? plan.clients.length : Math.min(plan.sockets, plan.clients.length),
  );
  const pool = createPool({ size, connectTimeoutMs: 30_000 });
  const dispatcher = pool.dispatcher;
  // Every request through the pool; with a tracer, tagged with the call it belongs to.
  const pooledFetch = ((url: string | URL, init?: RequestInit) =>
    undiciFetch(url, {
      ...(init as object),
      ...(tracer ? { headers: { ...toRecord(init?.headers), ...tracer.headers() } } : {}),
      dispatcher,
    })) as unknown as typeof fetch;
  return { size, pool, dispatcher, pooledFetch };
}

/** The person and host streams; `dropped` counts those the server ended before `stopping` was set. */
async function openAllStreams(plan: DriverPlan) {
  const streamErrors: Record<string, number> = {};
  const person = await openStreams(`${plan.base}${APP}/stream`, plan.personStreams, streamErrors);
  const hosts = await openStreams(`${plan.base}${CONNECT}/messages`, plan.hostStreams, streamErrors);
  const state = { stopping: false, dropped: { person: 0, host: 0 } };
  const { dropped } = state;
  for (const s of person)
    void s.done.then((how) => void (how !== 'closed' && !state.stopping && dropped.person++));
  for (const s of hosts)
    void s.done.then((how) => void (how !== 'closed' && !state.stopping && dropped.host++));
  return { person, hosts, streamErrors, state };
}

/** Connects every client's MCP session, 25 at a time; a failed connect leaves a null in its place. */
async function connectClients(plan: DriverPlan, rec: Recorder, pooledFetch: typeof fetch) {
  const connectErrors: Record<string, number> = {};
  const sessions: (McpSession | null)[] = [];
  for (let i = 0; i < plan.clients.length; i += 25) {
    const batch = plan.clients.slice(i, i + 25);
    const got = await Promise.all(
      batch.map(async (c) => {
        const t0 = performance.now();
        try {
          const s = await connectMcp(`${plan.base}${MCP}`, c.mcpToken, { fetch: pooledFetch });
          rec.ok('connect', performance.now() - t0);
          return s;
        } catch (err) {
          const kind = errorKind(err);
          connectErrors[kind] = (connectErrors[kind] ?? 0) + 1;
          rec.fail('connect', kind);
          return null;
        }
      }),
    );
    sessions.push(...got);
  }
  return { sessions, connectErrors };
}

/** What every client's rounds share. */
interface RoundContext {
  plan: DriverPlan;
  rec: Recorder;
  dispatcher: Agent;
  tracer: Tracer | null;
  /** One call: in flight until it settles, tagged for the tracer. */
  track: <T>(step: string, client: number, fn: () => Promise<T>) => Promise<T>;
  /** Rounds completed (show, tap, answer). */
  counts: { loops: number };
}

/** The show step (timed from `t0`, the round's start): the screen's id, or null when it failed (recorded). */
async function show(
  ctx: RoundContext,
  mcp: McpSession,
  index: number,
  n: number,
  t0: number,
): Promise<string | null> {
  const { rec } = ctx;
  try {
    const shown = await ctx.track('show', index, () =>
      mcp.call('svc_show', { lines: `choose@q "Round ${n}?" Yes|No`, text: `round ${n}` }),
    );
    if (shown.isError) throw Object.assign(new Error(shown.text), { code: 'TOOL_ERROR' });
    rec.ok('show', performance.now() - t0);
    return shown.structured.screen_id;
  } catch (err) {
    rec.fail(
      'show',
      err instanceof Error && (err as { code?: unknown }).code === 'TOOL_ERROR'
        ? 'tool_error'
        : errorKind(err),
    );
    return null;
  }
}

/** The tap step: whether the person's tap was written (failures recorded). */
async function tap(ctx: RoundContext, c: DriverClient, index: number, screenId: string): Promise<boolean> {
  const { plan, rec, tracer } = ctx;
  const t1 = performance.now();
  try {
    // Through the same pool as the tool calls (one client stack for the whole driver).
    const tapped = await ctx.track('tap', index, async () => {
      const r = await undiciFetch(`${plan.base}${APP}/agents/${c.agentId}/taps`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${c.personToken}`,
          'content-type': 'application/json',
          ...tracer?.headers(),
        },
        body: JSON.stringify({ screen_id: screenId, event: { id: 'q', value: 'Yes' } }),
        dispatcher: ctx.dispatcher,
        signal: AbortSignal.timeout(60_000),
      });
      await r.arrayBuffer();
      return r;
    });
    if (tapped.status !== 201) {
      rec.fail('tap', `http_${tapped.status}`);
      return false;
    }
    rec.ok('tap', performance.now() - t1);
    return true;
  } catch (err) {
    rec.fail('tap', errorKind(err));
    return false;
  }
}

type Pace = ReturnType<typeof createPace>;

/** The answers step: up to three waits for the tap; a round counts when it comes back. */
async function awaitAnswer(
  ctx: RoundContext,
  mcp: McpSession,
  index: number,
  screenId: string,
  pace: Pace,
  t0: number,
) {
  const { rec } = ctx;
  const t2 = performance.now();
  for (let attempt = 0; attempt < 3; attempt++) {
    await sleep(pace.delayFor(1));
    try {
      const got = await ctx.track('answers', index, () =>
        mcp.call('svc_answers', { screen_id: screenId, wait: ctx.plan.answersWait }),
      );
      if (got.isError) {
        rec.fail('answers', 'tool_error');
        break;
      }
      const answers = (got.structured?.answers ?? []) as {
        screen_id?: string;
        event?: { value?: unknown };
      }[];
      if (answers.length === 0) {
        rec.fail('answers', 'empty_wait');
        continue;
      }
      rec.ok('answers', performance.now() - t2);
      rec.ok('loop', performance.now() - t0);
      ctx.counts.loops++;
      break;
    } catch (err) {
      rec.fail('answers', errorKind(err));
      break;
    }
  }
}

/** One client's rounds (show, tap, answer) until the deadline `go`, at its paced rate. */
async function clientLoop(ctx: RoundContext, go: number, c: DriverClient, mcp: McpSession, index: number) {
  // initialize + initialized already took 2 calls of this connection's bucket.
  const pace = createPace(ctx.plan.pace);
  pace.delayFor(2);
  // Spread the first calls over a second so 1,000 clients do not all fire in the same tick.
  await sleep((index % 100) * 10);
  let n = 0;
  while (Date.now() < go) {
    n++;
    await sleep(pace.delayFor(1));
    if (Date.now() >= go) break;
    const t0 = performance.now();
    const screenId = await show(ctx, mcp, index, n, t0);
    if (screenId === null) continue;
    if (!(await tap(ctx, c, index, screenId))) continue;
    await awaitAnswer(ctx, mcp, index, screenId, pace, t0);
  }
}

/** LOAD_TRACE_DIR: writes the slowest requests to the driver's file and says what went there. */
function writeTrace(plan: DriverPlan, tracer: Tracer | null): DriverResult['trace'] {
  if (!tracer || !plan.trace) return null;
  tracer.stop();
  fs.mkdirSync(plan.trace.dir, { recursive: true });
  const file = path.join(plan.trace.dir, `${plan.trace.name}.jsonl`);
  const lines = tracer.slowest();
  fs.writeFileSync(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
  return {
    traced: tracer.traced(),
    file,
    kept: lines.length,
    onNewConnections: lines.filter((l) => l.newConnection).length,
    slowestMs: lines[0]?.totalMs ?? 0,
  };
}

async function run(plan: DriverPlan): Promise<DriverResult> {
  const rec = createRecorder();
  const tracer: Tracer | null = plan.trace ? createTracer({ keep: plan.trace.keep }) : null;
  const { size, pool, dispatcher, pooledFetch } = openPool(plan, tracer);
  const { person, hosts, streamErrors, state: streams } = await openAllStreams(plan);
  const { sessions, connectErrors } = await connectClients(plan, rec, pooledFetch);
  const warmAsked = nextMessage('warm');
  send({ type: 'ready', connectErrors, streamErrors });
  // The parent asks once every driver is ready, so no pool sits idle past the server's keep-alive meanwhile.
  await warmAsked;
  const goGiven = nextMessage('go');
  const warm = plan.warm
    ? await pool.warm(`${plan.base}/healthz`)
    : { open: pool.counts().open, opened: 0, errors: {}, ms: 0 };
  send({ type: 'warmed', warm, size });
  const go = (await goGiven).untilEpochMs;
  pool.startRun();
  tracer?.startRun();

  const delay = monitorEventLoopDelay({ resolution: 20 });
  delay.enable();
  const inflight = createInFlight();
  const ctx: RoundContext = {
    plan,
    rec,
    dispatcher,
    tracer,
    track: (step, client, fn) => {
      const settled = inflight.start(step);
      return (tracer ? tracer.within({ step, client }, fn) : fn()).finally(settled);
    },
    counts: { loops: 0 },
  };
  const live = plan.clients.flatMap((c, i) => {
    const s = sessions[i];
    return s ? [clientLoop(ctx, go, c, s, i)] : [];
  });
  // Calls started before the deadline may end after it; a call still in flight when the grace period is
  // over is counted, not waited for (it would hold the whole run's result).
  const { cut, unfinished } = await awaitRunEnd(live, go - Date.now() + plan.graceMs, inflight);
  delay.disable();
  for (const [step, n] of Object.entries(unfinished))
    for (let i = 0; i < n; i++) rec.fail(step, 'unfinished');
  const loopDelayMs = { p99: delay.percentile(99) / 1e6, max: delay.max / 1e6 };
  streams.stopping = true;
  const streamEvents = {
    person: person.reduce((n, s) => n + s.events(), 0),
    host: hosts.reduce((n, s) => n + s.events(), 0),
  };
  const poolCounts = pool.counts();
  // Snapshot now: calls cut by the grace timer may still settle while the driver closes its connections.
  const samples = structuredClone(rec.samples());
  const loopsDone = ctx.counts.loops;
  const trace = writeTrace(plan, tracer);
  for (const s of [...person, ...hosts]) s.close();
  await Promise.all(sessions.map((s) => s?.close().catch(() => {})));
  // close() would wait for the calls the grace timer cut; destroy() ends them.
  await (cut ? dispatcher.destroy() : pool.close()).catch(() => {});
  return {
    samples,
    loops: loopsDone,
    droppedStreams: streams.dropped,
    streamEvents,
    loopDelayMs,
    pool: poolCounts,
    unfinished,
    trace,
  };
}

process.once('message', (m: DriverMessage) => {
  if (m.type !== 'plan') return;
  run(m.plan)
    .then((r) => result.send({ type: 'result', result: r }))
    .then(
      () => process.exit(0),
      (err) => {
        console.error(err);
        process.exit(1);
      },
    );
});
