// Checks a kill-restart run against the database file and the live service: nothing acknowledged is lost,
// nothing is doubled, every answer came back once, the file is intact, acknowledged token rotations hold.
import path from 'node:path';
import Database from 'better-sqlite3';
import { request } from './http.js';
import type { KillRestartRun } from './kill-restart.js';
import { countKeys, expectedAnswers } from './ledger.js';
import { connectMcp } from './mcp.js';
import type { ServiceProcess } from './service.js';
import { MCP, tokenRequest } from './setup.js';

export interface Verdict {
  /** Every broken promise, one line each; empty = pass. */
  problems: string[];
  /** Counts for the report. */
  figures: Record<string, number>;
  /** Person rows some svc_answers call claimed but whose reply died with the process (the claim→reply window). */
  lostInReplyWindow: string[];
  /** Each answer owed but never returned, with its row's columns and the kill times (for a failure report). */
  details?: Record<string, unknown>[];
}

/**
 * The longest a claim can precede the kill that cut its reply: a waiting call gives up after 10 s, so a
 * claim older than that at the kill had its reply sent or abandoned by a live process (a real loss).
 */
export const CLAIM_REPLY_WINDOW_MS = 10_000;

/**
 * Whether a person row svc_answers claimed but never returned was cut in the claim→reply window: svc_answers
 * claims a row by setting its `handled_at` (`delivered_at` is the host transport's, never set by it), then
 * replies; a kill between the two loses the reply. That needs a kill that came while calls were waiting,
 * after the claim and within {@link CLAIM_REPLY_WINDOW_MS} of it.
 *
 * @example
 * ```ts
 * cutInReplyWindow(row.handled_at, run.killAt); // true: claimed 3 ms before a kill that cut 2 waiting calls
 * ```
 */
export function cutInReplyWindow(
  handledAt: number | null | undefined,
  kills: readonly { goneAt: number; answersWaiting: number }[],
): boolean {
  if (handledAt == null) return false;
  return kills.some(
    (k) => k.answersWaiting > 0 && handledAt <= k.goneAt && k.goneAt - handledAt <= CLAIM_REPLY_WINDOW_MS,
  );
}

/** A person row's columns that say whether and when svc_answers claimed it. */
interface PersonRow {
  seq: number;
  created_at: number;
  delivered_at: number | null;
  handled_at: number | null;
}

/**
 * Runs a tables call, waiting out the agent's bucket when the writes used it up (doc3: 60 tables calls a
 * minute per agent). On PostgreSQL the bucket is shared and outlives the instances' restarts, so a writer
 * that put quickly has none left for the check; the call is retried after the time the refusal names.
 */
async function queryPastTheBucket<R extends { isError?: boolean; text: string }>(
  call: () => Promise<R>,
): Promise<R> {
  for (let attempt = 0; ; attempt++) {
    const r = await call();
    const wait = /^rate_limited: .*wait (\d+) s/.exec(r.text)?.[1];
    if (!r.isError || wait === undefined || attempt >= 60) return r;
    await new Promise((done) => setTimeout(done, Number(wait) * 1000));
  }
}

/** Live checks (tables through svc_tables, OAuth tokens) while the service runs; call before stopping it. */
export async function verifyLive(svc: ServiceProcess, run: KillRestartRun): Promise<Verdict> {
  const problems: string[] = [];
  const figures: Record<string, number> = {};
  const rowsSeen = new Set<string>();
  for (const c of run.connections) {
    const s = await connectMcp(`${svc.base}${MCP}`, c.token);
    // The query's most (500 rows; 50 without limit=): a run that wrote more per writer cannot be checked.
    const r = await queryPastTheBucket(() => s.call('svc_tables', { lines: 'query L limit=500' }));
    const result = r.structured?.results?.[0];
    // A refused query is its own problem: its writer's rows would all look missing otherwise.
    if (r.isError || !Array.isArray(result?.rows))
      problems.push(`writer of agent ${c.agentId}: query L answered no rows: ${r.text.slice(0, 200)}`);
    const rows = (result?.rows ?? []) as unknown[][];
    if (rows.length >= 500) problems.push('a writer put 500 rows or more: shorten the run to check them all');
    for (const row of rows) {
      for (const v of row) if (typeof v === 'string') rowsSeen.add(v);
    }
    await s.close();
  }
  const lostRows = run.ledger.rows.acked.filter((m) => !rowsSeen.has(m));
  if (lostRows.length > 0)
    problems.push(`${lostRows.length} acknowledged table rows missing, e.g. ${lostRows[0]}`);
  figures.rowsAcked = run.ledger.rows.acked.length;

  let rotationsHeld = 0;
  let rotationsLostInWindow = 0;
  for (const g of run.ledger.oauth) {
    if (g.uncertain) {
      // Its rotation was committed but the answer died with the process; the client's retry replayed the
      // used token, which by doc1 ends the connection. Counted, not a durability failure.
      rotationsLostInWindow++;
      continue;
    }
    const tools = await request(`${svc.base}${MCP}`, {
      headers: { authorization: `Bearer ${g.access}`, accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    if (tools.status !== 200)
      problems.push(`the last acknowledged access token of ${g.clientId} answered ${tools.status}`);
    const r = await tokenRequest(svc.base, {
      grant_type: 'refresh_token',
      refresh_token: g.refresh,
      client_id: g.clientId,
    });
    if (r.status === 200) rotationsHeld++;
    else if (g.uncertain) rotationsLostInWindow++;
    else
      problems.push(
        `the last acknowledged refresh token of ${g.clientId} was refused (${r.status} ${r.text.slice(0, 120)})`,
      );
  }
  figures.oauthRotationsAcked = run.ledger.oauth.reduce((n, g) => n + g.rotations, 0);
  figures.oauthLastTokensHeld = rotationsHeld;
  figures.oauthRotationsUsedButUnanswered = rotationsLostInWindow;
  return { problems, figures, lostInReplyWindow: [] };
}

/** A message row as both stores keep it (the columns the checks read). */
export interface StoredMessage extends PersonRow {
  body: string | null;
  sender: string;
  kind: string;
  screen_id: string | null;
}

/** What the checks read from the store after a run, whichever store it was. */
export interface StoredRows {
  /** `ok`, or what the store's own check said. */
  integrity: string;
  messages: StoredMessage[];
  screenIds: Set<string>;
}

/** The stopped service's SQLite file: `PRAGMA integrity_check`, the messages and the screen ids. */
export function sqliteRows(dataDir: string): StoredRows {
  const db = new Database(path.join(dataDir, 'svc.sqlite'), { readonly: true });
  try {
    const integrity = String(db.pragma('integrity_check', { simple: true }));
    const messages = db
      .prepare<[], StoredMessage>(
        'SELECT body, sender, kind, screen_id, seq, created_at, delivered_at, handled_at FROM messages',
      )
      .all();
    const screenIds = new Set(
      db
        .prepare<[], { id: string }>('SELECT id FROM screens')
        .all()
        .map((r) => r.id),
    );
    return { integrity, messages, screenIds };
  } finally {
    db.close();
  }
}

/** A query on the run's PostgreSQL database (src/postgres.ts). */
export type PostgresQuery = <R extends Record<string, unknown>>(text: string) => Promise<R[]>;

/**
 * The same rows from PostgreSQL after the run. Integrity is amcheck's `bt_index_check` of every B-tree index
 * of the service's tables (a crash recovery that left an index out of step with its table fails it).
 */
export async function postgresRows(query: PostgresQuery): Promise<StoredRows> {
  let integrity = 'ok';
  await query('CREATE EXTENSION IF NOT EXISTS amcheck');
  const indexes = await query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
       JOIN pg_am a ON a.oid = c.relam JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE a.amname = 'btree' AND n.nspname = 'public'`,
  );
  for (const { name } of indexes) {
    try {
      await query(`SELECT bt_index_check('public.${name.replace(/"/g, '')}'::regclass, true)`);
    } catch (err) {
      integrity = `index ${name}: ${(err as Error).message}`;
      break;
    }
  }
  const raw = await query<Record<string, unknown>>(
    'SELECT body, sender, kind, screen_id, seq, created_at, delivered_at, handled_at FROM messages',
  );
  // BIGINT columns come back as strings from node-postgres.
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  const messages = raw.map((m) => ({
    body: m.body as string | null,
    sender: m.sender as string,
    kind: m.kind as string,
    screen_id: m.screen_id as string | null,
    seq: Number(m.seq),
    created_at: Number(m.created_at),
    delivered_at: num(m.delivered_at),
    handled_at: num(m.handled_at),
  }));
  const screenIds = new Set((await query<{ id: string }>('SELECT id FROM screens')).map((r) => r.id));
  return { integrity, messages, screenIds };
}

/** Checks a kill-restart run against the stopped service's SQLite file. */
export function verifyDatabase(dataDir: string, run: KillRestartRun): Verdict {
  return verifyRows(sqliteRows(dataDir), run);
}

/**
 * Checks the stored rows: the store's integrity, each acknowledged write exactly once, no unacknowledged
 * write twice, and each acknowledged person write returned by svc_answers exactly once (one never returned
 * counts as lost unless its row was claimed while a kill cut a waiting call's reply).
 */
export function verifyRows(stored: StoredRows, run: KillRestartRun): Verdict {
  const problems: string[] = [];
  const figures: Record<string, number> = {};
  if (stored.integrity !== 'ok') problems.push(`integrity check: ${stored.integrity}`);
  const bodies = new Map<string, number>();
  const tapsOf = new Map<string, number>();
  // The person rows by answer key (`tap:<screen_id>`, `text:<body>`), as svc_answers left them.
  const personRows = new Map<string, PersonRow>();
  for (const m of stored.messages) {
    const row = {
      seq: m.seq,
      created_at: m.created_at,
      delivered_at: m.delivered_at,
      handled_at: m.handled_at,
    };
    if (m.body !== null) {
      const key = `${m.sender}\u0000${m.body}`;
      bodies.set(key, (bodies.get(key) ?? 0) + 1);
      if (m.sender === 'person') personRows.set(`text:${m.body}`, row);
    }
    if (m.kind === 'tap' && m.sender === 'person' && m.screen_id !== null) {
      tapsOf.set(m.screen_id, (tapsOf.get(m.screen_id) ?? 0) + 1);
      personRows.set(`tap:${m.screen_id}`, row);
    }
  }
  const { screenIds } = stored;
  const byBody = (body: string, sender: string) => bodies.get(`${sender}\u0000${body}`) ?? 0;
  const { ledger } = run;
  const exactlyOnce = (
    what: string,
    acked: readonly string[],
    unknown: readonly string[],
    count: (k: string) => number,
  ) => {
    let missing = 0;
    let doubled = 0;
    for (const k of acked) {
      const n = count(k);
      if (n === 0) missing++;
      if (n > 1) doubled++;
    }
    for (const k of unknown) if (count(k) > 1) doubled++;
    if (missing > 0) problems.push(`${missing} acknowledged ${what} missing after the restarts`);
    if (doubled > 0) problems.push(`${doubled} ${what} written twice`);
    figures[`${what}Acked`] = acked.length;
    figures[`${what}Unanswered`] = unknown.length;
  };
  exactlyOnce('says', ledger.says.acked, ledger.says.unknown, (k) => byBody(k, 'agent'));
  exactlyOnce('replies', ledger.replies.acked, ledger.replies.unknown, (k) => byBody(k, 'person'));
  exactlyOnce('screens', ledger.screens.acked, [], (k) => (screenIds.has(k) ? 1 : 0));
  exactlyOnce('taps', ledger.taps.acked, ledger.taps.unknown, (k) => tapsOf.get(k) ?? 0);
  figures.screensUnansweredShows = ledger.screens.unknownMarkers.length;

  const returned = countKeys(ledger.returned);
  const lostInReplyWindow: string[] = [];
  const details: Record<string, unknown>[] = [];
  let twice = 0;
  let lost = 0;
  for (const key of expectedAnswers(ledger)) {
    const n = returned.get(key) ?? 0;
    if (n === 0) {
      const row = personRows.get(key);
      const cut = cutInReplyWindow(row?.handled_at, run.killAt);
      details.push({
        key,
        ...row,
        cutInReplyWindow: cut,
        claimedMsBeforeKills: run.killAt.map((k) =>
          row?.handled_at == null ? null : k.goneAt - row.handled_at,
        ),
      });
      // Claimed but never seen, just before a kill that cut waiting calls: the reply died with the process.
      // A run whose waits carried a cursor (ADR 0274) is owed every answer: no window is excused.
      if (cut && run.resumable !== true) lostInReplyWindow.push(key);
      else lost++;
    }
  }
  for (const n of returned.values()) if (n > 1) twice++;
  if (twice > 0) problems.push(`${twice} answers returned more than once`);
  if (lost > 0) problems.push(`${lost} acknowledged person writes never returned by svc_answers`);
  figures.answersExpected = expectedAnswers(ledger).length;
  figures.answersReturned = ledger.returned.length;
  figures.answersLostInReplyWindow = lostInReplyWindow.length;
  return { problems, figures, lostInReplyWindow, details };
}
