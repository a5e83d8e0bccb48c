import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestCore, seedConnection, seedUser, type TestCore } from '@screen-service/test-kit';
import express from 'express';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createConnectRouter } from './connect-handler.js';

let core: TestCore;
let server: Server;
let url: string;

async function start() {
  core = createTestCore({ clockStart: Date.parse('2026-11-23T10:00:00Z') });
  const app = express();
  app.use(
    '/functions/v1/svc-connect',
    createConnectRouter({
      pairing: core.pairing,
      tables: { tables: core.tables, auth: core.anyConnectionAuth },
      onError: (err) => console.error(err),
    }),
  );
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/functions/v1/svc-connect/tables`;
}
async function stop() {
  await new Promise((r) => server.close(r));
  core.close();
}

type Body = Record<string, unknown>;
async function post(token: string | null, body: unknown) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: test reads answers loosely
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

let token: string;
let userId: string;
beforeEach(async () => {
  await start();
  userId = (await seedUser(core.store)).id;
  token = (await seedConnection(core.store, userId, ['coach', 'nurse'])).token;
});
afterEach(stop);

const lines = (...l: string[]) => l.join('\n');
const WEIGHTS = 'table create Weights Date:date Weight:number:kg Note:text Done:bool';

describe('POST {connect_url}/tables: body forms (real HTTP)', () => {
  it('lines → {ok, failed, results}', async () => {
    const r = await post(token, {
      agent: 'coach',
      lines: lines(
        WEIGHTS,
        'put Weights Date=2026-11-20 Weight=72.5',
        'put Weights Weight=heavy',
        'query Weights',
      ),
    });
    expect(r.status).toBe(200);
    expect(r.body.ok.map((o: Body) => o.op)).toEqual(['table', 'put']);
    expect(r.body.failed).toEqual([
      {
        op: 'row',
        table: 'Weights',
        key: '',
        error: expect.stringContaining('not a number'),
        line: 'put Weights Weight=heavy',
        code: 'VALUE_DOES_NOT_FIT',
      },
    ]);
    expect(r.body.results).toEqual([
      {
        id: 'n1',
        table: 'Weights',
        cols: ['Date', 'Weight', 'Note', 'Done'],
        rows: [['2026-11-20', 72.5, null, null]],
        count: 1,
      },
    ]);
  });

  it('no lines → what the agent holds', async () => {
    await post(token, { agent: 'coach', lines: lines(WEIGHTS, 'put Weights Weight=70') });
    const r = await post(token, { agent: 'coach' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      held: [{ name: 'Weights', rows: 1, cols: ['Date', 'Weight', 'Note', 'Done'] }],
      tables: '[svc] tables Weights(1 rows: Date, Weight, Note, Done)',
      pending: [],
    });
  });

  it('reply with prose, a fenced svc block and a query → text with the table lines removed and the query drawn', async () => {
    await post(token, { agent: 'coach', lines: WEIGHTS });
    const reply = lines(
      'Logged your weigh-in.',
      '```svc',
      'put Weights Date=2026-11-21 Weight=72.1 Note="after run"',
      'note "Keep going"',
      '```',
      'query Weights cols=Date|Weight',
      'See you tomorrow.',
    );
    const r = await post(token, { agent: 'coach', reply });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      text: lines(
        'Logged your weigh-in.',
        '```svc',
        'note "Keep going"',
        '```',
        '| Date | Weight (kg) |',
        '| --- | --- |',
        '| 2026-11-21 | 72.1 |',
        'See you tomorrow.',
      ),
      events: [],
      pending: [],
    });
  });

  it('a reply of writes alone becomes Saved. over the changed table; refused writes come back as events', async () => {
    await post(token, { agent: 'coach', lines: WEIGHTS });
    const r = await post(token, {
      agent: 'coach',
      reply: lines('```tables', 'put Weights d1 Date=2026-11-21 Weight=72', 'put Weights Weight=lots', '```'),
    });
    expect(r.body.text).toBe(
      lines(
        'Saved.',
        '',
        '| Date | Weight (kg) | Note | Done |',
        '| --- | --- | --- | --- |',
        '| 2026-11-21 | 72 |  |  |',
      ),
    );
    expect(r.body.events).toEqual([
      { op: 'row', table: 'Weights', key: '', error: expect.any(String), line: 'put Weights Weight=lots' },
    ]);
  });

  it('a reply that only reads is a read twice in a row; the third is drawn for the person', async () => {
    await post(token, {
      agent: 'coach',
      lines: lines(WEIGHTS, 'put Weights Weight=70', 'put Weights Weight=71'),
    });
    const read = { agent: 'coach', reply: '```svc\nquery Weights as stat\n```' };
    const first = await post(token, read);
    expect(first.body).toEqual({
      read: true,
      note: '[svc] Your tables: Weights (2 of 2 rows)\nWeight: 71 kg (+1 since the row before)',
    });
    expect((await post(token, read)).body.read).toBe(true);
    const third = await post(token, read);
    expect(third.body).toEqual({ text: 'Weight: 71 kg (+1 since the row before)', events: [], pending: [] });
    // The count starts again after a drawn reply.
    expect((await post(token, read)).body.read).toBe(true);
  });

  it('prose that starts with a table word stays prose', async () => {
    const r = await post(token, { agent: 'coach', reply: 'put the kettle on\nquery me later' });
    expect(r.body).toEqual({ text: 'put the kettle on\nquery me later', events: [], pending: [] });
  });

  it('refuses bad bodies and credentials with the one error contract', async () => {
    expect(await post(null, { lines: 'query X' })).toMatchObject({
      status: 401,
      body: { error: 'unauthorized' },
    });
    expect(await post('svc_ct_nope', { lines: 'query X' })).toMatchObject({ status: 401 });
    expect(await post(token, '[1]')).toMatchObject({
      status: 400,
      body: { error: 'invalid_input', field: 'body' },
    });
    expect(await post(token, '{bad')).toMatchObject({ status: 400, body: { error: 'invalid_json' } });
    expect(await post(token, { lines: 5 })).toMatchObject({ status: 400, body: { field: 'lines' } });
    expect(await post(token, { lines: 'query X', reply: 'x' })).toMatchObject({
      status: 400,
      body: { field: 'reply' },
    });
    expect(await post(token, { agent: 'stranger', lines: 'query X' })).toMatchObject({
      status: 404,
      body: { error: 'agent_not_found' },
    });
    expect((await fetch(url)).status).toBe(405);
  });

  it('accepts OAuth access tokens like connector tokens', async () => {
    const { connector } = await seedConnection(core.store, userId, []);
    expect(connector.id).toBeTruthy();
    // A revoked connection answers 409 connector_revoked on this surface too.
    await core.store.connectors.revoke(connector.id, core.clock());
    const { token: t2, connector: c2 } = await seedConnection(core.store, userId, ['solo']);
    await core.store.connectors.revoke(c2.id, core.clock());
    expect(await post(t2, { lines: 'query X' })).toMatchObject({
      status: 409,
      body: { error: 'connector_revoked' },
    });
  });
});

describe('ownership and isolation', () => {
  it('only the holder reads, writes and draws; two agents on one token keep their own tables', async () => {
    await post(token, { agent: 'coach', lines: lines(WEIGHTS, 'put Weights Weight=70') });
    const other = await post(token, {
      agent: 'nurse',
      lines: lines('query Weights', 'put Weights Weight=1'),
    });
    expect(other.body.results[0]).toMatchObject({ error: 'No table called Weights yet.', rows: [] });
    expect(other.body.failed[0].error).toMatch(/No table called Weights yet/);
    await post(token, { agent: 'nurse', lines: 'table create Weights Kg:number' });
    const mine = await post(token, { agent: 'coach', lines: 'query Weights' });
    expect(mine.body.results[0].cols).toEqual(['Date', 'Weight', 'Note', 'Done']);
    expect(mine.body.results[0].count).toBe(1);
  });

  it('another account never reaches the tables, even with the same agent handle', async () => {
    await post(token, { agent: 'coach', lines: lines(WEIGHTS, 'put Weights Weight=70') });
    const stranger = await seedUser(core.store);
    const t2 = (await seedConnection(core.store, stranger.id, ['coach'])).token;
    const r = await post(t2, { agent: 'coach', lines: 'query Weights' });
    expect(r.body.results[0].error).toBe('No table called Weights yet.');
    // A token cannot name an agent it does not serve.
    expect((await post(t2, { agent: 'nurse', lines: 'query Weights' })).status).toBe(404);
  });
});

describe("a shared thread never touches the owner's tables (doc3)", () => {
  it('lines from a shared session are refused; a reply keeps its prose and hears its table lines refused', async () => {
    await post(token, { agent: 'coach', lines: lines(WEIGHTS, 'put Weights Weight=70') });
    const coach = (await core.store.agents.listByUser(userId)).find((a) => a.handle === 'coach')!;
    const holder = await seedUser(core.store);
    const session = `${coach.id}~${holder.id}`;

    const refused = await post(token, { agent: 'coach', session, lines: 'put Weights Weight=1' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('not_in_a_shared_thread');

    const reply = await post(token, {
      agent: 'coach',
      session,
      reply: lines('Noted, thanks.', 'put Weights Weight=99', 'query Weights'),
    });
    expect(reply.status).toBe(200);
    // Nothing of the owner's rows reaches the holder's thread: no drawn table, only the prose.
    expect(reply.body.text).toBe('Noted, thanks.');
    expect(reply.body.events.map((e: { line: string }) => e.line)).toEqual([
      'put Weights Weight=99',
      'query Weights',
    ]);
    expect(reply.body.events[0]).toMatchObject({
      op: 'row',
      table: 'Weights',
      error: expect.stringMatching(/owner's own thread/),
    });

    // The owner's table is as it was; the owner's own session works as before.
    const mine = await post(token, { agent: 'coach', session: coach.id, lines: 'query Weights' });
    expect(mine.body.results[0].count).toBe(1);
    expect(mine.body.results[0].rows[0]).toContain(70);
    // A session of another agent is a mistake named as such.
    const nurse = (await core.store.agents.listByUser(userId)).find((a) => a.handle === 'nurse')!;
    const wrong = await post(token, { agent: 'coach', session: nurse.id, lines: 'query Weights' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.field).toBe('session');
  });
});

describe("doc3's limits through the call", () => {
  it('20 tables per agent', async () => {
    const many = Array.from({ length: 20 }, (_, i) => `table create T${i} A:text`);
    expect((await post(token, { agent: 'coach', lines: lines(...many) })).body.failed).toEqual([]);
    const r = await post(token, { agent: 'coach', lines: 'table create T20 A:text' });
    expect(r.body.failed[0].code).toBe('LIMIT_TABLES');
    expect((await post(token, { agent: 'coach' })).body.held).toHaveLength(20);
  });

  it('100 relay tables per person across agents', async () => {
    const handles = Array.from({ length: 5 }, (_, i) => `a${i}`);
    const t = (await seedConnection(core.store, userId, [...handles, 'last'])).token;
    for (const h of handles) {
      const many = Array.from({ length: 20 }, (_, i) => `table create T${i} A:text`);
      expect((await post(t, { agent: h, lines: lines(...many) })).body.failed).toEqual([]);
    }
    const r = await post(t, { agent: 'last', lines: 'table create One A:text' });
    expect(r.body.failed[0]).toMatchObject({ code: 'LIMIT_TABLES', error: expect.stringContaining('100') });
  });

  it('12 columns per table', async () => {
    const cols = Array.from({ length: 13 }, (_, i) => `C${i}:text`).join(' ');
    const r = await post(token, { agent: 'coach', lines: `table create Wide ${cols}` });
    // The parser refuses the line before the store sees it, with the table rule's own code (the engine's too).
    expect(r.body.failed[0]).toMatchObject({
      code: 'TOO_MANY_COLUMNS',
      error: expect.stringContaining('at most 12 columns'),
    });
    expect((await post(token, { agent: 'coach' })).body.held).toEqual([]);
  });

  it('5,000 rows per table (200 rows per send in calls of 50 lines)', async () => {
    await post(token, { agent: 'coach', lines: 'table create R N:number' });
    for (let call = 0; call < 100; call++) {
      const puts = Array.from({ length: 50 }, (_, i) => `put R N=${call * 50 + i}`);
      const r = await post(token, { agent: 'coach', lines: lines(...puts) });
      expect(r.body.failed).toEqual([]);
      if (call % 50 === 49) core.advance(60_000); // stay under 60 calls a minute
    }
    const over = await post(token, { agent: 'coach', lines: 'put R N=1' });
    expect(over.body.failed[0].code).toBe('LIMIT_ROWS');
    const q = await post(token, { agent: 'coach', lines: 'query R +count as table' });
    expect(q.body.results[0].rows).toEqual([[5000]]);
    const send = await post(token, { agent: 'coach', lines: 'query R limit=201 as send' });
    expect(send.body.results[0].error).toMatch(/200/);
  }, 60_000);

  it('1,000-character text, 64-character keys, 32-character names', async () => {
    await post(token, { agent: 'coach', lines: 'table create Notes Note:text' });
    const r = await post(token, {
      agent: 'coach',
      lines: lines(
        `put Notes Note="${'x'.repeat(1000)}"`,
        `put Notes Note="${'x'.repeat(1001)}"`,
        `put Notes ${'k'.repeat(64)} Note=a`,
        `put Notes ${'k'.repeat(65)} Note=a`,
        `table create ${'N'.repeat(32)} A:text`,
        `table create ${'N'.repeat(33)} A:text`,
      ),
    });
    expect(r.body.ok).toHaveLength(3);
    expect(r.body.failed.map((f: Body) => [f.code, f.error])).toEqual([
      ['LIMIT_TEXT', expect.stringContaining('1000')],
      ['INVALID_KEY', expect.stringContaining('1 to 64 characters')],
      ['INVALID_TABLE_NAME', expect.stringContaining('at most 32')],
    ]);
  });

  it('50 rows shown by default, 500 at most, 500 rows per answer', async () => {
    await post(token, { agent: 'coach', lines: 'table create R N:number' });
    for (let call = 0; call < 14; call++) {
      const puts = Array.from({ length: 50 }, (_, i) => `put R N=${call * 50 + i}`);
      await post(token, { agent: 'coach', lines: lines(...puts) });
    }
    const r = await post(token, {
      agent: 'coach',
      lines: lines('query R', 'query R limit=500', 'query R limit=501', 'query R limit=10'),
    });
    const [byDefault, most, past] = r.body.results;
    expect(byDefault.rows).toHaveLength(50);
    expect(byDefault.count).toBe(700);
    expect(most.error).toMatch(/hand back only 450/);
    expect(r.body.failed[0]).toMatchObject({
      line: 'query R limit=501',
      error: expect.stringContaining('1 to 500'),
    });
    expect(past.rows).toHaveLength(10);
    const alone = await post(token, { agent: 'coach', lines: 'query R limit=500' });
    expect(alone.body.results[0].rows).toHaveLength(500);
  });

  it('50 lines per call: the whole call is refused and nothing is written', async () => {
    const puts = Array.from({ length: 51 }, (_, i) => `table create T${i} A:text`);
    const r = await post(token, { agent: 'coach', lines: lines(...puts) });
    expect(r).toMatchObject({ status: 422, body: { error: 'limit_exceeded', field: 'lines' } });
    expect(r.body.message).toMatch(/at most 50/);
    expect((await post(token, { agent: 'coach' })).body.held).toEqual([]);
    const reply = await post(token, {
      agent: 'coach',
      reply: lines(...puts.map((p) => `\`\`\`svc\n${p}\n\`\`\``)),
    });
    expect(reply.status).toBe(422);
  });

  it('60 tables calls per agent per minute: the 61st is 429 with Retry-After; other agents are not slowed', async () => {
    for (let i = 0; i < 60; i++) expect((await post(token, { agent: 'coach' })).status).toBe(200);
    const refused = await post(token, { agent: 'coach' });
    expect(refused).toMatchObject({ status: 429, body: { error: 'rate_limited' } });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await post(token, { agent: 'nurse' })).status).toBe(200);
    core.advance(60_000);
    for (let i = 0; i < 60; i++) expect((await post(token, { agent: 'coach' })).status).toBe(200);
  }, 30_000);
});

describe('deletes wait for the person', () => {
  it('put +delete puts a Delete / Keep card in the thread; the tap deletes; the agent hears it', async () => {
    await post(token, {
      agent: 'coach',
      lines: lines(WEIGHTS, 'put Weights a Weight=70', 'put Weights b Weight=71'),
    });
    const r = await post(token, { agent: 'coach', lines: 'put Weights a +delete' });
    expect(r.body.pending).toEqual([{ id: expect.any(String), prompt: 'Delete row a from Weights?' }]);
    expect(r.body.ok).toEqual([]);
    const coach = (await core.store.agents.findByHandle(userId, 'coach'))!;
    const page = await core.threads.page(userId, coach.id);
    const card = page.messages.at(-1)!;
    expect(card.screen!.lines).toBe(
      `confirm@tdel-${r.body.pending[0].id} "Delete row a from Weights?" Delete|Keep`,
    );
    // Still there until the tap.
    expect(
      (await post(token, { agent: 'coach', lines: 'query Weights +count' })).body.results[0].rows,
    ).toEqual([[2]]);
    const tap = await core.threads.tap(userId, coach.id, {
      screen_id: card.screen!.id,
      event: { id: card.screen!.tap_ids[0], value: true },
    });
    expect(tap.message.meta.event).toMatchObject({ op: 'delete', table: 'Weights', key: 'a', deleted: true });
    expect((await post(token, { agent: 'coach', lines: 'query Weights' })).body.results[0].rows).toEqual([
      [null, 71, null, null],
    ]);
    // A second tap on the settled card is refused.
    await expect(
      core.threads.tap(userId, coach.id, {
        screen_id: card.screen!.id,
        event: { id: card.screen!.tap_ids[0], value: true },
      }),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('table drop waits; Keep keeps the table', async () => {
    await post(token, { agent: 'coach', lines: WEIGHTS });
    const r = await post(token, { agent: 'coach', reply: 'Dropping it.\n```svc\ntable drop Weights\n```' });
    expect(r.body.pending[0].prompt).toBe('Delete table Weights and all its rows?');
    const coach = (await core.store.agents.findByHandle(userId, 'coach'))!;
    const card = (await core.threads.page(userId, coach.id)).messages.at(-1)!;
    const tap = await core.threads.tap(userId, coach.id, {
      screen_id: card.screen!.id,
      event: { id: card.screen!.tap_ids[0], value: false },
    });
    expect(tap.message.meta.event).toMatchObject({ op: 'drop', table: 'Weights', deleted: false });
    expect((await post(token, { agent: 'coach' })).body.held).toHaveLength(1);
  });
});

describe('account deletion', () => {
  it('leaves zero table rows', async () => {
    await post(token, {
      agent: 'coach',
      lines: lines(WEIGHTS, 'put Weights Weight=1', 'put Weights x +delete'),
    });
    const other = await seedUser(core.store);
    const t2 = (await seedConnection(core.store, other.id, ['coach'])).token;
    await post(t2, { agent: 'coach', lines: lines(WEIGHTS, 'put Weights Weight=1') });
    await core.store.users.delete(userId);
    const count = (sql: string, ...args: unknown[]) => (core.db.prepare(sql).get(...args) as { n: number }).n;
    expect(count('SELECT COUNT(*) AS n FROM te_tables WHERE owner = ?', userId)).toBe(0);
    expect(count('SELECT COUNT(*) AS n FROM te_pending WHERE owner = ?', userId)).toBe(0);
    expect(count('SELECT COUNT(*) AS n FROM relay_tables WHERE user_id = ?', userId)).toBe(0);
    expect(count('SELECT COUNT(*) AS n FROM te_rows')).toBe(1);
    expect(count('SELECT COUNT(*) AS n FROM te_tables')).toBe(1);
  });
});
