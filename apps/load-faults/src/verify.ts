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

/** Live checks (tables through svc_tables, OAuth tokens) while the service runs; call before stopping it. */
export async function verifyLive(svc: ServiceProcess, run: KillRestartRun): Promise<Verdict> {
  const problems: string[] = [];
  const figures: Record<string, number> = {};
  const rowsSeen = new Set<string>();
  for (const c of run.connections) {
    const s = await connectMcp(`${svc.base}${MCP}`, c.token);
    // The query's most (500 rows; 50 without limit=): a run that wrote more per writer cannot be checked.
    const r = await s.call('svc_tables', { lines: 'query L limit=500' });
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

/**
 * Reads the stopped service's database file: `PRAGMA integrity_check`, each acknowledged write exactly once,
 * no unacknowledged write twice, and each acknowledged person write returned by svc_answers exactly once
 * (one never returned counts as lost unless its row was claimed while a kill cut a waiting call's reply).
 */
export function verifyDatabase(dataDir: string, run: KillRestartRun): Verdict {
  const problems: string[] = [];
  const figures: Record<string, number> = {};
  const db = new Database(path.join(dataDir, 'svc.sqlite'), { readonly: true });
  try {
    const integrity = db.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') problems.push(`PRAGMA integrity_check: ${String(integrity)}`);
    // One pass over the messages into maps: a query per acknowledged write scanned the whole table each time
    // (body has no index), minutes for a run of a few thousand writes.
    const bodies = new Map<string, number>();
    const tapsOf = new Map<string, number>();
    // The person rows by answer key (`tap:<screen_id>`, `text:<body>`), as svc_answers left them.
    const personRows = new Map<string, PersonRow>();
    const rows = db
      .prepare<
        [],
        PersonRow & { body: string | null; sender: string; kind: string; screen_id: string | null }
      >('SELECT body, sender, kind, screen_id, seq, created_at, delivered_at, handled_at FROM messages')
      .iterate();
    for (const m of rows) {
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
    const screenIds = new Set(
      db
        .prepare<[], { id: string }>('SELECT id FROM screens')
        .all()
        .map((r) => r.id),
    );
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
        if (cut) lostInReplyWindow.push(key);
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
  } finally {
    db.close();
  }
}
