// Property: random table lines through the HTTP tables call and straight through runLines on a memory store
// give the same answers (the service adds no rule of its own to a call's lines).
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMemoryStore, type LinesAnswer, runLines } from '@screen-service/tables-engine';
import { createTestCore, seedConnection, seedUser, type TestCore } from '@screen-service/test-kit';
import express from 'express';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTablesRouter } from './tables-router.js';

let core: TestCore;
let server: Server;
let url: string;
beforeAll(async () => {
  core = createTestCore({ clockStart: Date.parse('2026-11-23T10:00:00Z') });
  const app = express();
  app.use('/tables', createTablesRouter({ tables: core.tables, auth: core.anyConnectionAuth }));
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/tables`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  core.close();
});

const name = fc.constantFrom('W', 'L');
const key = fc.constantFrom('a', 'b', 'c', 'r1', 'r2');
const col = fc.constantFrom('Day', 'Kg', 'Done', 'Note', 'Nope');
const value = fc.oneof(
  fc.integer({ min: -50, max: 200 }).map(String),
  fc.double({ min: 0, max: 100, noNaN: true }).map((n) => n.toFixed(1)),
  fc.constantFrom(
    '2026-11-20',
    '2026-11-21T08:30',
    'today',
    'today-3',
    'on',
    'off',
    'heavy',
    '"two words"',
    '',
  ),
);
// Mostly values that fit their column, sometimes anything in any column (refusals).
const fitting = fc.oneof(
  fc.tuple(fc.constant('Kg'), fc.integer({ min: 0, max: 120 }).map(String)),
  fc.tuple(
    fc.constant('Day'),
    fc.constantFrom('2026-11-20', '2026-11-02', 'today', 'today-9', '2026-11-21T08:30'),
  ),
  fc.tuple(fc.constant('Note'), fc.constantFrom('apple', '"two words"', 'Pie', '')),
  fc.tuple(fc.constant('Done'), fc.constantFrom('on', 'off')),
);
const cell = fc.oneof({ weight: 6, arbitrary: fitting }, { weight: 1, arbitrary: fc.tuple(col, value) });
const put = fc
  .tuple(name, fc.option(key, { nil: undefined }), fc.array(cell, { minLength: 1, maxLength: 3 }))
  .map(([t, k, cells]) => `put ${t}${k ? ` ${k}` : ''} ${cells.map(([c, v]) => `${c}=${v}`).join(' ')}`);
const del = fc.tuple(name, key).map(([t, k]) => `put ${t} ${k} +delete`);
const create = fc.constantFrom(
  'table create W Day:date Kg:number:kg Done:bool Note:text',
  'table create L Note:text Done:bool',
  'table create W Day:date Kg:text',
);
const query = fc
  .tuple(
    fc.constantFrom('W', 'W', 'W', 'L'),
    fc.constantFrom('', ' where=Kg>10', ' where=Note~two', ' sort=-Kg', ' sort=Day|-Note', ' where=Done=on'),
    fc.constantFrom(
      '',
      ' limit=3',
      ' group=Day:week sum=Kg +count',
      ' avg=Kg max=Kg',
      ' cols=Note|Kg',
      ' +count',
    ),
    fc.constantFrom('', '', '', ' as list', ' as stat', ' as chart'),
  )
  .map(([t, w, x, as]) => `query ${t}${w}${x}${as}`);
const line = fc.oneof(
  { weight: 6, arbitrary: put },
  { weight: 1, arbitrary: del },
  { weight: 1, arbitrary: create },
  { weight: 3, arbitrary: query },
);
const calls = fc.array(fc.array(line, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 4 });

/** The part of an answer both paths give: the HTTP answer leaves out views and row keys. */
function shape(a: Pick<LinesAnswer, 'ok' | 'failed' | 'results'> & { pending: { prompt: string }[] }) {
  return {
    ok: a.ok.map((o) => ({ ...o })),
    failed: a.failed.map(({ lineNumber: _n, ...f }: { lineNumber?: number }) => f),
    results: a.results.map((r) => ({
      table: r.table,
      cols: r.cols,
      rows: r.rows,
      count: r.count,
      ...(r.error === undefined ? {} : { error: r.error }),
    })),
    pending: a.pending.map((p) => p.prompt),
  };
}

describe('the tables call agrees with runLines on a memory store (property)', () => {
  it('for random calls of random lines', async () => {
    let run = 0;
    const seen = { ok: 0, failed: 0, rows: 0, pending: 0 };
    await fc.assert(
      fc.asyncProperty(calls, async (batch) => {
        run += 1;
        const user = await seedUser(core.store);
        const { token, agents } = await seedConnection(core.store, user.id, [`agent${run}`]);
        const memory = createMemoryStore();
        // Most runs start with both tables, so writes and queries usually have something to work on.
        const setup =
          run % 4 === 0
            ? []
            : [
                'table create W Day:date Kg:number:kg Done:bool Note:text',
                'table create L Note:text Done:bool',
              ];
        for (const lines of batch.map((b, i) => (i === 0 ? [...setup, ...b] : b))) {
          core.advance(1500); // stays under 60 calls a minute; both sides see the same moment
          const res = await fetch(url, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ lines: lines.join('\n') }),
          });
          expect(res.status).toBe(200);
          const viaHttp = (await res.json()) as Parameters<typeof shape>[0];
          const direct = await runLines(memory, {
            owner: user.id,
            agent: agents[0]!.id,
            now: core.clock(),
            timeZone: 'UTC',
            lines: lines.join('\n'),
          });
          expect(shape(viaHttp)).toEqual(shape(direct));
          seen.ok += direct.ok.length;
          seen.failed += direct.failed.length;
          seen.rows += direct.results.reduce((n, r) => n + r.rows.length, 0);
          seen.pending += direct.pending.length;
        }
      }),
      { numRuns: 60, seed: 20261123 },
    );
    // The generator reaches every kind of answer (so agreement is not agreement on nothing).
    console.log('tables property: answers seen', seen);
    expect(seen.ok).toBeGreaterThan(20);
    expect(seen.failed).toBeGreaterThan(20);
    expect(seen.rows).toBeGreaterThan(20);
    expect(seen.pending).toBeGreaterThan(0);
  }, 120_000);
});
