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
    const rows = (r.structured?.results?.[0]?.rows ?? []) as unknown[][];
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
    const deliveredTap = new Map<string, number | null>();
    const deliveredText = new Map<string, number | null>();
    const rows = db
      .prepare<
        [],
        { body: string | null; sender: string; kind: string; screen_id: string | null; d: number | null }
      >('SELECT body, sender, kind, screen_id, delivered_at AS d FROM messages')
      .iterate();
    for (const m of rows) {
      if (m.body !== null) {
        const key = `${m.sender}\u0000${m.body}`;
        bodies.set(key, (bodies.get(key) ?? 0) + 1);
        if (m.sender === 'person') deliveredText.set(m.body, m.d);
      }
      if (m.kind === 'tap' && m.sender === 'person' && m.screen_id !== null) {
        tapsOf.set(m.screen_id, (tapsOf.get(m.screen_id) ?? 0) + 1);
        deliveredTap.set(m.screen_id, m.d);
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
    let twice = 0;
    let lost = 0;
    for (const key of expectedAnswers(ledger)) {
      const n = returned.get(key) ?? 0;
      if (n === 0) {
        const claimed = key.startsWith('tap:')
          ? deliveredTap.get(key.slice(4))
          : deliveredText.get(key.slice(5));
        // Claimed (delivered_at set) but never seen: the reply of a waiting call died with the process.
        if (claimed != null && run.killsDuringAnswers > 0) lostInReplyWindow.push(key);
        else lost++;
      }
    }
    for (const n of returned.values()) if (n > 1) twice++;
    if (twice > 0) problems.push(`${twice} answers returned more than once`);
    if (lost > 0) problems.push(`${lost} acknowledged person writes never returned by svc_answers`);
    figures.answersExpected = expectedAnswers(ledger).length;
    figures.answersReturned = ledger.returned.length;
    figures.answersLostInReplyWindow = lostInReplyWindow.length;
    return { problems, figures, lostInReplyWindow };
  } finally {
    db.close();
  }
}
