// One driver process of `npm run load`: its share of MCP clients and streams, started and stopped by the parent.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Agent, fetch as undiciFetch } from 'undici';
import { connectMcp, errorKind, type McpSession } from './mcp.js';
import { createPace, sleep } from './pace.js';
import { APP, CONNECT, MCP } from './setup.js';
import { openSse, type SseStream } from './sse.js';
import { createRecorder, type StepSamples } from './stats.js';

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
  /** Most connections this driver opens to the service (like a proxy's upstream pool); 0 = no cap. */
  sockets: number;
}

/** Messages between parent and driver over the IPC channel. */
export type DriverMessage =
  | { type: 'plan'; plan: DriverPlan }
  | { type: 'ready'; connectErrors: Record<string, number>; streamErrors: Record<string, number> }
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
}

const send = (m: DriverMessage) => process.send?.(m);

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

async function run(plan: DriverPlan) {
  const rec = createRecorder();
  // One pool per driver. Connects may wait (a starved server accepts late and its listen backlog of 511
  // overflows in a storm of new sockets, so SYNs are retried after 1, 3, 7 s): allow 30 s, not undici's 10.
  const dispatcher = new Agent({
    connections: plan.sockets === 0 ? null : plan.sockets,
    connect: { timeout: 30_000 },
    keepAliveTimeout: 60_000,
    headersTimeout: 60_000,
    bodyTimeout: 60_000,
  });
  const pooledFetch = ((url: string | URL, init?: RequestInit) =>
    undiciFetch(url, { ...(init as object), dispatcher })) as unknown as typeof fetch;
  const streamErrors: Record<string, number> = {};
  const person = await openStreams(`${plan.base}${APP}/stream`, plan.personStreams, streamErrors);
  const hosts = await openStreams(`${plan.base}${CONNECT}/messages`, plan.hostStreams, streamErrors);
  let stopping = false;
  const dropped = { person: 0, host: 0 };
  for (const s of person) void s.done.then((how) => void (how !== 'closed' && !stopping && dropped.person++));
  for (const s of hosts) void s.done.then((how) => void (how !== 'closed' && !stopping && dropped.host++));

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
  send({ type: 'ready', connectErrors, streamErrors });
  const go = await new Promise<number>((resolve) => {
    process.on('message', (m: DriverMessage) => {
      if (m.type === 'go') resolve(m.untilEpochMs);
    });
  });

  const delay = monitorEventLoopDelay({ resolution: 20 });
  delay.enable();
  let loops = 0;
  const loop = async (c: DriverClient, mcp: McpSession, index: number) => {
    // initialize + initialized already took 2 calls of this connection's bucket.
    const pace = createPace(plan.pace);
    pace.delayFor(2);
    // Spread the first calls over a second so 1,000 clients do not all fire in the same tick.
    await sleep((index % 100) * 10);
    let n = 0;
    while (Date.now() < go) {
      n++;
      await sleep(pace.delayFor(1));
      if (Date.now() >= go) break;
      let screenId: string;
      const t0 = performance.now();
      try {
        const shown = await mcp.call('svc_show', {
          lines: `choose@q "Round ${n}?" Yes|No`,
          text: `round ${n}`,
        });
        if (shown.isError) throw Object.assign(new Error(shown.text), { code: 'TOOL_ERROR' });
        screenId = shown.structured.screen_id;
        rec.ok('show', performance.now() - t0);
      } catch (err) {
        rec.fail(
          'show',
          err instanceof Error && (err as { code?: unknown }).code === 'TOOL_ERROR'
            ? 'tool_error'
            : errorKind(err),
        );
        continue;
      }
      const t1 = performance.now();
      try {
        // Through the same pool as the tool calls (one client stack for the whole driver).
        const tap = await undiciFetch(`${plan.base}${APP}/agents/${c.agentId}/taps`, {
          method: 'POST',
          headers: { authorization: `Bearer ${c.personToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ screen_id: screenId, event: { id: 'q', value: 'Yes' } }),
          dispatcher,
          signal: AbortSignal.timeout(60_000),
        });
        await tap.arrayBuffer();
        if (tap.status !== 201) {
          rec.fail('tap', `http_${tap.status}`);
          continue;
        }
        rec.ok('tap', performance.now() - t1);
      } catch (err) {
        rec.fail('tap', errorKind(err));
        continue;
      }
      const t2 = performance.now();
      for (let attempt = 0; attempt < 3; attempt++) {
        await sleep(pace.delayFor(1));
        try {
          const got = await mcp.call('svc_answers', { screen_id: screenId, wait: plan.answersWait });
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
          loops++;
          break;
        } catch (err) {
          rec.fail('answers', errorKind(err));
          break;
        }
      }
    }
  };
  const live = plan.clients.flatMap((c, i) => {
    const s = sessions[i];
    return s ? [loop(c, s, i)] : [];
  });
  await Promise.all(live);
  delay.disable();
  const loopDelayMs = { p99: delay.percentile(99) / 1e6, max: delay.max / 1e6 };
  stopping = true;
  const streamEvents = {
    person: person.reduce((n, s) => n + s.events(), 0),
    host: hosts.reduce((n, s) => n + s.events(), 0),
  };
  for (const s of [...person, ...hosts]) s.close();
  await Promise.all(sessions.map((s) => s?.close().catch(() => {})));
  await dispatcher.close().catch(() => {});
  send({
    type: 'result',
    result: { samples: rec.samples(), loops, droppedStreams: dropped, streamEvents, loopDelayMs },
  });
}

process.once('message', (m: DriverMessage) => {
  if (m.type !== 'plan') return;
  run(m.plan).then(
    () => setTimeout(() => process.exit(0), 100),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
});
