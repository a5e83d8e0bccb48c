// The database check's verdict on answers owed but never returned: which count as lost, which as cut by a kill.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { KillRestartRun } from './kill-restart.js';
import { createLedger } from './ledger.js';
import { CLAIM_REPLY_WINDOW_MS, cutInReplyWindow, verifyDatabase } from './verify.js';

const KILLED_AT = 1_800_000_000_000;
let dataDir: string;

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verify-'));
});
afterEach(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A file with the columns the check reads (as the service's schema has them), and person rows as given. */
function writeFile(rows: { body?: string; screenId?: string; handledAt: number | null }[]) {
  const db = new Database(path.join(dataDir, 'svc.sqlite'));
  db.exec(`CREATE TABLE screens (id TEXT PRIMARY KEY);
    CREATE TABLE messages (seq INTEGER PRIMARY KEY, sender TEXT NOT NULL, kind TEXT NOT NULL, body TEXT,
      screen_id TEXT, created_at INTEGER NOT NULL, delivered_at INTEGER, handled_at INTEGER);`);
  const insert = db.prepare(
    `INSERT INTO messages (sender, kind, body, screen_id, created_at, handled_at)
     VALUES ('person', @kind, @body, @screenId, @createdAt, @handledAt)`,
  );
  for (const r of rows) {
    if (r.screenId) db.prepare('INSERT INTO screens (id) VALUES (?)').run(r.screenId);
    insert.run({
      kind: r.screenId ? 'tap' : 'text',
      body: r.body ?? null,
      screenId: r.screenId ?? null,
      createdAt: KILLED_AT - 20_000,
      handledAt: r.handledAt,
    });
  }
  db.close();
}

function runOf(taps: string[], replies: string[], kills: KillRestartRun['killAt']): KillRestartRun {
  const ledger = createLedger();
  ledger.screens.acked.push(...taps);
  ledger.taps.acked.push(...taps);
  ledger.replies.acked.push(...replies);
  return {
    ledger,
    connections: [],
    kills: kills.length,
    killsDuringAnswers: kills.filter((k) => k.answersWaiting > 0).length,
    killAt: kills,
    databaseCrashes: 0,
    recoveredRetries: 0,
    recoverMs: [],
  };
}

const KILL = { goneAt: KILLED_AT, answersWaiting: 2 };

it('counts a row svc_answers claimed (handled_at) just before a kill as cut in the claim→reply window, not lost', () => {
  // svc_answers claims by setting handled_at (delivered_at stays null: that column is the host transport's).
  writeFile([
    { screenId: 's1', handledAt: KILLED_AT - 3 },
    { body: 'reply a', handledAt: KILLED_AT - 3 },
  ]);
  const v = verifyDatabase(dataDir, runOf(['s1'], ['reply a'], [KILL]));
  expect(v.problems).toEqual([]);
  expect(v.lostInReplyWindow).toEqual(['tap:s1', 'text:reply a']);
});

it('counts an unclaimed row, or one claimed outside any kill window, as lost', () => {
  writeFile([
    { screenId: 's1', handledAt: null },
    // Claimed long before the kill (a waiting call gives up after 10 s), or after it (the next process).
    { body: 'reply a', handledAt: KILLED_AT - 60_000 },
    { body: 'reply b', handledAt: KILLED_AT + 5_000 },
  ]);
  const v = verifyDatabase(dataDir, runOf(['s1'], ['reply a', 'reply b'], [KILL]));
  expect(v.problems).toEqual(['3 acknowledged person writes never returned by svc_answers']);
  expect(v.lostInReplyWindow).toEqual([]);
  expect(v.details?.map((d) => d.key)).toEqual(['tap:s1', 'text:reply a', 'text:reply b']);
});

it('counts a claimed row as lost when no kill cut a waiting call', () => {
  writeFile([{ body: 'reply a', handledAt: KILLED_AT - 3 }]);
  const lost = ['1 acknowledged person writes never returned by svc_answers'];
  expect(verifyDatabase(dataDir, runOf([], ['reply a'], [])).problems).toEqual(lost);
  const idle = { goneAt: KILLED_AT, answersWaiting: 0 };
  expect(verifyDatabase(dataDir, runOf([], ['reply a'], [idle])).problems).toEqual(lost);
});

it('cutInReplyWindow: claimed at or before the kill, within the window, while calls waited', () => {
  expect(cutInReplyWindow(KILLED_AT, [KILL])).toBe(true);
  expect(cutInReplyWindow(KILLED_AT - CLAIM_REPLY_WINDOW_MS, [KILL])).toBe(true);
  expect(cutInReplyWindow(KILLED_AT - CLAIM_REPLY_WINDOW_MS - 1, [KILL])).toBe(false);
  expect(cutInReplyWindow(KILLED_AT + 1, [KILL])).toBe(false);
  expect(cutInReplyWindow(null, [KILL])).toBe(false);
});
