// SIGKILL during writes: clients write (say, show, tap, reply, tables put, OAuth rotation) while the service
// is killed at random moments and restarted on the same data dir (on PostgreSQL: instances killed in turn,
// and PostgreSQL itself crashed and restarted); the ledger says what each client was told.

import { request } from './http.js';
import { createLedger, type WriteLedger } from './ledger.js';
import { connectMcp, type McpSession } from './mcp.js';
import { sleep } from './pace.js';
import type { ServiceProcess } from './service.js';
import { APP, type Connection, oauthSignIn, pairNewConnection, signUpPeople, tokenRequest } from './setup.js';

/** Table puts per writer at most: the live check reads each writer's table back in one query of 500. */
const MAX_PUTS_PER_WRITER = 450;

/** The database a PostgreSQL run crashes and starts again (src/postgres.ts). */
export interface CrashableDatabase {
  crash(): Promise<void>;
  start(): Promise<void>;
}

export interface KillRestartOptions {
  /** The instances: one on SQLite; several sharing one PostgreSQL. Set-up goes through the first. */
  services: ServiceProcess[];
  /** With PostgreSQL: every third fault crashes and restarts the database instead of an instance. */
  database?: CrashableDatabase;
  /** MCP clients writing at once (each its own connection and agent). */
  clients: number;
  /** OAuth clients rotating their refresh tokens. */
  oauthClients: number;
  kills: number;
  /** Each kill comes after this many ms of uptime, uniformly in [min, max]. */
  upMs: { min: number; max: number };
  /** 0..1, injected so a run can be repeated (`--seed`). */
  random: () => number;
  log?: (line: string) => void;
}

export interface KillRestartRun {
  ledger: WriteLedger;
  /** The connections, for the verification that reads tables back through svc_tables. */
  connections: Connection[];
  kills: number;
  /** Kills that landed while at least one svc_answers call was waiting for its reply. */
  killsDuringAnswers: number;
  /** Each kill: when the killed process was gone (Date.now()) and how many svc_answers calls were waiting. */
  killAt: { goneAt: number; answersWaiting: number }[];
  /** How many of the faults crashed PostgreSQL (the rest killed an instance). */
  databaseCrashes: number;
  /**
   * The writers' waits carried svc_answers' cursor (ADR 0274), so a result cut by a kill came again: every
   * answer is owed, and none is excused as lost in the claim→reply window.
   */
  resumable?: boolean;
  /** Calls that failed while the service was down and then succeeded on a retry. */
  recoveredRetries: number;
  /** Milliseconds from each restart's start until the first write acknowledged after it. */
  recoverMs: number[];
}

/** A seeded 0..1 generator (mulberry32), so a failing run can be replayed with its seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A failure that means "no answer came" (the process was gone), or "the database did not answer" (503
 * `storage_unavailable` while PostgreSQL restarts: nothing was saved), as opposed to a refusal.
 */
function isTransportFailure(err: unknown): boolean {
  const text = `${(err as { message?: unknown })?.message ?? ''} ${(err as { cause?: { code?: unknown } })?.cause?.code ?? ''} ${(err as { code?: unknown })?.code ?? ''}`;
  return /ECONNREFUSED|ECONNRESET|EPIPE|fetch failed|socket hang up|other side closed|terminated|TIMEOUT|timed out|-32001|storage_unavailable/i.test(
    text,
  );
}

/** What the writers, rotators and the killer share while a run lasts. */
interface RunState {
  stop: boolean;
  /** svc_answers calls waiting for their reply now. */
  answersInFlight: number;
  recoveredRetries: number;
  restartedAt: number;
  awaitingFirstAck: boolean;
  recoverMs: number[];
}

/** A write was acknowledged: the first one after a restart ends that restart's recovery time. */
function acked(st: RunState): void {
  if (st.awaitingFirstAck) {
    st.awaitingFirstAck = false;
    st.recoverMs.push(Date.now() - st.restartedAt);
  }
}

/** Waiting clients retry: a call that found the service gone tries again until it is back. */
async function retrying<T>(st: RunState, fn: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      const r = await fn();
      if (attempt > 0) st.recoveredRetries++;
      return r;
    } catch (err) {
      if (!isTransportFailure(err) || st.stop) throw err;
      await sleep(50 + 50 * Math.min(attempt, 10));
    }
  }
}

/** The run's clients: one person, `clients` paired connections each with a table, `oauthClients` grants. */
async function setUpClients(o: KillRestartOptions, ledger: WriteLedger) {
  const svc = o.services[0] as ServiceProcess;
  const [person] = await signUpPeople(svc.base, 1, 'faults');
  if (!person) throw new Error('no person');
  const connections: Connection[] = [];
  for (let i = 0; i < o.clients; i++)
    connections.push(await pairNewConnection(svc.base, person, `writer-${i}`));
  const sessions: McpSession[] = [];
  for (const c of connections) {
    // Writer i talks to instance i (mod n); its person's taps and replies go through the next one, so a
    // wait on one instance is woken by a write on another.
    const on = o.services[connections.indexOf(c) % o.services.length] as ServiceProcess;
    const s = await connectMcp(`${on.base}/functions/v1/svc-mcp`, c.token);
    const made = await s.call('svc_tables', { lines: 'table create L A:text' });
    if (made.isError) throw new Error(`table create: ${made.text}`);
    sessions.push(s);
  }
  for (let i = 0; i < o.oauthClients; i++) {
    const g = await oauthSignIn(svc.base, person, `rotator-${i}`);
    ledger.oauth.push({
      clientId: g.clientId,
      access: g.accessToken,
      refresh: g.refreshToken,
      rotations: 0,
      uncertain: false,
    });
  }
  return { person, connections, sessions };
}

type Answer = { kind: string; screen_id: string | null; text: string };

/** One writer's means: its connection, MCP session, the person's API and the shared run state. */
interface Writer {
  c: Connection;
  mcp: McpSession;
  personPost: (path: string, body: unknown) => ReturnType<typeof request>;
  ledger: WriteLedger;
  st: RunState;
  /** This writer's svc_answers cursor (ADR 0274): what its last result held, acknowledged by the next call. */
  answers: { cursor: string };
}

async function writeSay({ mcp, ledger, st }: Writer, marker: string) {
  const r = await mcp.call('svc_say', { text: `say ${marker}` }, 10_000).catch((err) => {
    if (isTransportFailure(err)) ledger.says.unknown.push(`say ${marker}`);
    throw err;
  });
  if (!r.isError) {
    ledger.says.acked.push(`say ${marker}`);
    acked(st);
  }
}

/** A screen, then the person's tap on it. */
async function writeShowAndTap({ c, mcp, personPost, ledger, st }: Writer, marker: string) {
  const r = await mcp.call('svc_show', { lines: `choose@q "show ${marker}" Yes|No` }, 10_000).catch((err) => {
    if (isTransportFailure(err)) ledger.screens.unknownMarkers.push(marker);
    throw err;
  });
  if (r.isError) return;
  const screenId = r.structured.screen_id as string;
  ledger.screens.acked.push(screenId);
  acked(st);
  // The tap is not retried: without an idempotency key a retry after a lost answer could double it.
  const tap = await personPost(`/agents/${c.agentId}/taps`, {
    screen_id: screenId,
    event: { id: 'q', value: 'Yes' },
  }).catch((err) => {
    ledger.taps.unknown.push(screenId);
    throw err;
  });
  if (tap.status === 201) ledger.taps.acked.push(screenId);
}

async function writeReply({ c, personPost, ledger }: Writer, marker: string) {
  const text = `reply ${marker}`;
  const r = await personPost(`/agents/${c.agentId}/messages`, { text }).catch((err) => {
    ledger.replies.unknown.push(text);
    throw err;
  });
  if (r.status === 201) ledger.replies.acked.push(text);
}

async function writePut({ mcp, ledger }: Writer, marker: string) {
  const r = await mcp.call('svc_tables', { lines: `put L ${marker} A=${marker}` }, 10_000).catch((err) => {
    if (isTransportFailure(err)) ledger.rows.unknown.push(marker);
    throw err;
  });
  if (!r.isError && (r.structured?.failed ?? []).length === 0) ledger.rows.acked.push(marker);
}

/** A waiting client: its call may be cut by the kill; it retries until the service is back. */
async function waitForAnswers({ mcp, ledger, st, answers }: Writer) {
  st.answersInFlight++;
  try {
    // The resumable wait: a result cut by the kill is returned again to the retry, which still holds the
    // older cursor; a result received is acknowledged by the next call.
    const r = await retrying(st, () => mcp.call('svc_answers', { wait: 1, cursor: answers.cursor }, 10_000));
    took(r, answers, ledger);
  } finally {
    st.answersInFlight--;
  }
}

/** Records a svc_answers result's answers and keeps its cursor (a refusal carries neither). */
function took(
  r: { isError?: boolean; structured?: Record<string, unknown> | undefined },
  answers: { cursor: string },
  ledger: WriteLedger,
): number {
  if (r.isError) return 0;
  const got = (r.structured?.answers ?? []) as Answer[];
  for (const a of got) ledger.returned.push(a.kind === 'tap' ? `tap:${a.screen_id}` : `text:${a.text}`);
  if (typeof r.structured?.cursor === 'string') answers.cursor = r.structured.cursor;
  return got.length;
}

/** Writes until the run stops, cycling say, show and tap, reply, table put, wait for answers. */
async function writeLoop(wr: Writer, w: number, random: () => number) {
  let n = 0;
  let puts = 0;
  while (!wr.st.stop) {
    n++;
    const marker = `w${w}-${n}-${Math.floor(random() * 1e9).toString(36)}`;
    // Table puts stop at MAX_PUTS_PER_WRITER so the check can read every row back (a query returns at
    // most 500); the writer says instead.
    const op = n % 5 === 3 && puts >= MAX_PUTS_PER_WRITER ? 0 : n % 5;
    if (op === 3) puts++;
    try {
      if (op === 0) await writeSay(wr, marker);
      else if (op === 1) await writeShowAndTap(wr, marker);
      else if (op === 2) await writeReply(wr, marker);
      else if (op === 3) await writePut(wr, marker);
      else await waitForAnswers(wr);
    } catch (err) {
      if (!isTransportFailure(err)) throw err;
      await sleep(100);
    }
  }
}

/**
 * Rotates grant `i`'s refresh token until the run stops. Each rotator is its own client machine (its own
 * loopback address, so its own `token` bucket of 60 at once then 60 a minute) and rotates a little slower
 * than once a second to stay inside it.
 */
async function rotateLoop(base: string, ledger: WriteLedger, st: RunState, i: number) {
  const g = ledger.oauth[i];
  if (!g) return;
  const localAddress = `127.0.9.${10 + i}`;
  let lostAnswer = false;
  while (!st.stop) {
    const form = { grant_type: 'refresh_token', refresh_token: g.refresh, client_id: g.clientId };
    const r = await tokenRequest(base, form, { timeoutMs: 10_000, localAddress }).catch((err) => {
      if (!isTransportFailure(err)) throw err;
      // Sent, no answer: the service may have committed the rotation before it died. Retry the same
      // token once the service is back: a 200 means it had not; a refusal means it had (used once).
      lostAnswer = true;
      return null;
    });
    if (r?.status === 503) {
      // The database did not answer (restarting). Its COMMIT may have gone through before the connection
      // dropped, so this is a lost answer too: retry the same token.
      lostAnswer = true;
    } else if (r?.status === 200) {
      g.access = r.json.access_token;
      g.refresh = r.json.refresh_token;
      g.rotations++;
      lostAnswer = false;
      acked(st);
    } else if (r && lostAnswer && r.status === 400) {
      g.uncertain = true;
      return;
    } else if (r) throw new Error(`refresh answered ${r.status}: ${r.text.slice(0, 200)}`);
    await sleep(lostAnswer ? 200 : 1100);
  }
}

/** One fault: an instance SIGKILLed and restarted, or (every third with a database) PostgreSQL crashed. */
async function oneFault(o: KillRestartOptions, k: number, st: RunState, log: (line: string) => void) {
  const answersWaiting = st.answersInFlight;
  if (o.database && k % 3 === 2) {
    await o.database.crash();
    const goneAt = Date.now();
    log(
      `fault ${k + 1}/${o.kills}: PostgreSQL crashed (immediate shutdown); ${answersWaiting} svc_answers calls were waiting`,
    );
    await sleep(200 + o.random() * 300);
    st.restartedAt = Date.now();
    st.awaitingFirstAck = true;
    await o.database.start();
    log(`PostgreSQL back (crash recovery) in ${Date.now() - st.restartedAt} ms`);
    return { goneAt, answersWaiting, database: true };
  }
  const svc = o.services[k % o.services.length] as ServiceProcess;
  await svc.kill();
  const goneAt = Date.now();
  log(
    `fault ${k + 1}/${o.kills}: instance ${svc.port} killed; ${answersWaiting} svc_answers calls were waiting`,
  );
  await sleep(200 + o.random() * 300);
  st.restartedAt = Date.now();
  st.awaitingFirstAck = true;
  await svc.restart();
  log(`restarted as pid ${svc.pid()} in ${Date.now() - st.restartedAt} ms`);
  return { goneAt, answersWaiting, database: false };
}

/** Runs `o.kills` faults at random moments, then stops the run. */
async function killLoop(o: KillRestartOptions, st: RunState, log: (line: string) => void) {
  let killsDuringAnswers = 0;
  let databaseCrashes = 0;
  const killAt: KillRestartRun['killAt'] = [];
  for (let k = 0; k < o.kills; k++) {
    await sleep(o.upMs.min + o.random() * (o.upMs.max - o.upMs.min));
    const f = await oneFault(o, k, st, log);
    if (f.answersWaiting > 0) killsDuringAnswers++;
    if (f.database) databaseCrashes++;
    killAt.push({ goneAt: f.goneAt, answersWaiting: f.answersWaiting });
  }
  await sleep(o.upMs.min);
  st.stop = true;
  return { killsDuringAnswers, killAt, databaseCrashes };
}

/** Drain: every answer still waiting is returned now. */
async function drainAnswers(sessions: McpSession[], cursors: { cursor: string }[], ledger: WriteLedger) {
  for (const [i, s] of sessions.entries()) {
    const answers = cursors[i] as { cursor: string };
    // Until a call returns nothing: that call has also acknowledged the last batch.
    while (took(await s.call('svc_answers', { wait: 0, cursor: answers.cursor }), answers, ledger) > 0);
  }
}

/**
 * Runs the write load with `kills` SIGKILLs and restarts; returns the ledger for {@link verifyKillRestart}.
 * The service is left running (restarted) at the end.
 */
export async function runKillRestart(o: KillRestartOptions): Promise<KillRestartRun> {
  const log = o.log ?? (() => {});
  const n = o.services.length;
  const base = (i: number) => (o.services[i % n] as ServiceProcess).base;
  const ledger = createLedger();
  const { person, connections, sessions } = await setUpClients(o, ledger);
  const st: RunState = {
    stop: false,
    answersInFlight: 0,
    recoveredRetries: 0,
    restartedAt: 0,
    awaitingFirstAck: false,
    recoverMs: [],
  };
  const personPostVia = (i: number) => (path: string, body: unknown) =>
    request(`${base(i + 1)}${APP}${path}`, {
      headers: { authorization: `Bearer ${person.token}` },
      body,
      timeoutMs: 10_000,
    });
  const cursors = connections.map(() => ({ cursor: '' }));
  const work = [
    ...connections.map((c, i) =>
      writeLoop(
        {
          c,
          mcp: sessions[i] as McpSession,
          personPost: personPostVia(i),
          ledger,
          st,
          answers: cursors[i] as { cursor: string },
        },
        i,
        o.random,
      ),
    ),
    ...ledger.oauth.map((_, i) => rotateLoop(base(i), ledger, st, i)),
  ];
  const { killsDuringAnswers, killAt, databaseCrashes } = await killLoop(o, st, log);
  await Promise.all(work);
  await drainAnswers(sessions, cursors, ledger);
  await Promise.all(sessions.map((s) => s.close().catch(() => {})));
  const { recoveredRetries, recoverMs } = st;
  return {
    ledger,
    connections,
    kills: o.kills,
    killsDuringAnswers,
    killAt,
    databaseCrashes,
    resumable: true,
    recoveredRetries,
    recoverMs,
  };
}
