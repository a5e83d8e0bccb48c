// A device's copy of the tables in real Chromium (ADR 0250): the engine's conformance suite on OPFS, copies whole or not at all, limits, quota, a second tab.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Chromium, launchChromium } from './chromium.js';
import { serveHarness } from './tables/build-harness.js';

let browser: Chromium;
let harness: Awaited<ReturnType<typeof serveHarness>>;
let page: Page;

beforeAll(async () => {
  harness = await serveHarness();
  browser = await launchChromium();
  page = await browser.context.newPage();
  await page.goto(harness.url);
  await page.waitForFunction(() => 'svc' in window);
});

afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

type Cell = string | number | boolean | null;
interface CopyTable {
  name: string;
  digest: string;
  cols: { name: string; type: string }[];
  rows?: Cell[][];
}

/** Brings one agent's copy to what the service would answer (`tables`); returns the tables that changed. */
async function copy(agent: string, tables: CopyTable[], complete = true): Promise<string[]> {
  return (await ask<{ changed: string[] }>({ kind: 'copy', agent, complete, tables })).changed;
}

/** A copy table of `n` rows: key k<i>, a number, a date, a note and a flag. */
function rowsTable(name: string, n: number, digest = `d-${name}-${n}`): CopyTable {
  return {
    name,
    digest,
    cols: [
      { name: 'W', type: 'number' },
      { name: 'D', type: 'date' },
      { name: 'Note', type: 'text' },
      { name: 'Done', type: 'bool' },
    ],
    rows: Array.from({ length: n }, (_, i) => [
      `k${i}`,
      i % 97,
      `2026-01-${String((i % 28) + 1).padStart(2, '0')}`,
      `row ${i}`,
      i % 2 === 1,
    ]),
  };
}

async function query(agent: string, line: string): Promise<{ view?: unknown; error?: string }> {
  const got = await page.evaluate(
    async ({ agent, line }) => {
      const { svc } = window as unknown as { svc: Harness };
      const op = svc.parse(line).ops[0] as { props: unknown };
      const tables = await svc.phoneTables();
      return tables.request({
        kind: 'answer',
        agent,
        queries: [{ id: 'q', props: op.props }],
        at: svc.moment(),
      });
    },
    { agent, line },
  );
  return got.q as { view?: unknown; error?: string };
}

async function ask<T>(request: Record<string, unknown>): Promise<T> {
  return page.evaluate(async (r) => {
    const { svc } = window as unknown as { svc: Harness };
    return (await svc.phoneTables()).request(r as never);
  }, request) as Promise<T>;
}

async function reload(): Promise<void> {
  await page.reload();
  await page.waitForFunction(() => 'svc' in window);
}

/** What the worker answers, loosely: each test reads the fields of its request kind. */
type Reply = { failed: { code: string }[]; q?: { view?: unknown; error?: string } };

interface Harness {
  phoneTables(): Promise<{ request(r: Record<string, unknown>): Promise<Reply> }>;
  parse(text: string): { ops: unknown[] };
  moment(): { now: number; timeZone: string };
}

describe('the browser tables store (SQLite WebAssembly on OPFS)', () => {
  it('passes the tables engine conformance suite in a Chromium worker, and the harness catches a broken store', async () => {
    const out = (await page.evaluate(
      () =>
        new Promise<unknown>((resolve) => {
          const worker = new Worker('conformance-worker.js', { type: 'module' });
          worker.onmessage = (e) => {
            resolve(e.data);
            worker.terminate();
          };
          worker.onerror = (e) => resolve({ error: e.message });
        }),
    )) as {
      error?: string;
      vfs: string;
      good: { name: string; error?: string }[];
      broken: { name: string; error?: string }[];
    };
    expect(out.error).toBeUndefined();
    expect(out.vfs).toBe('svc-conformance');
    expect(out.good.filter((r) => r.error)).toEqual([]);
    expect(out.good.length).toBeGreaterThanOrEqual(29);
    expect(out.broken.filter((r) => r.error).length).toBeGreaterThanOrEqual(3);
  });

  it('a copy replaces tables whole, keeps their digests across a reload, and drops tables the service no longer lists', async () => {
    expect(await copy('one', [rowsTable('A', 3), rowsTable('B', 2)])).toEqual(['A', 'B']);
    // A table whose digest is current comes without rows and changes nothing.
    expect(await copy('one', [{ ...rowsTable('A', 3), rows: undefined }, rowsTable('B', 4)])).toEqual(['B']);
    await reload();
    expect(await ask({ kind: 'digests', agent: 'one' })).toEqual({ A: 'd-A-3', B: 'd-B-4' });
    expect(await query('one', 'query B sum=W +count')).toMatchObject({
      view: { kind: 'table', rows: [[0 + 1 + 2 + 3, 4]] },
    });
    // A partial answer that does not list a table it was asked about drops it (the agent no longer holds it).
    expect(await ask({ kind: 'copy', agent: 'one', complete: false, tables: [], asked: ['C'] })).toEqual({
      changed: [],
    });
    await copy('one', [rowsTable('C', 1)], false);
    expect(await ask({ kind: 'copy', agent: 'one', complete: false, tables: [], asked: ['C'] })).toEqual({
      changed: ['C'],
    });
    // A partial answer (a live event named A) leaves B; a complete one without B drops it.
    expect(await copy('one', [rowsTable('A', 5)], false)).toEqual(['A']);
    expect(await ask({ kind: 'count', agent: 'one', table: 'B' })).toBe(4);
    expect(await copy('one', [{ ...rowsTable('A', 5), rows: undefined }])).toEqual(['B']);
    expect(await ask({ kind: 'digests', agent: 'one' })).toEqual({ A: 'd-A-5' });
    expect(await query('one', 'query B')).toEqual({ error: 'No table called B yet.' });
  });

  it('at the limits (smaller here, full size in the bench): 5 agents × 20 tables, reload, every row present', async () => {
    const rowsPerTable = 200;
    for (let a = 0; a < 5; a++) {
      const tables = Array.from({ length: 20 }, (_, t) => rowsTable(`T${t}`, rowsPerTable));
      expect(await copy(`agent${a}`, tables)).toHaveLength(20);
    }
    await reload();
    for (let a = 0; a < 5; a++) {
      for (let t = 0; t < 20; t++) {
        expect(await ask({ kind: 'count', agent: `agent${a}`, table: `T${t}` })).toBe(rowsPerTable);
      }
      const usage = await ask<{ tables: number; rows: number; bytes: number }>({
        kind: 'usage',
        agent: `agent${a}`,
      });
      expect(usage).toMatchObject({ tables: 20, rows: 20 * rowsPerTable });
      expect(usage.bytes).toBeGreaterThan(0);
    }
    expect((await ask<string[]>({ kind: 'agents' })).filter((x) => x.startsWith('agent')).sort()).toEqual([
      'agent0',
      'agent1',
      'agent2',
      'agent3',
      'agent4',
    ]);
  });

  it('forgets the JSON copies an older app kept in localStorage', async () => {
    await page.evaluate(() => {
      localStorage.setItem('svc-tables-legacy', '{"version":1,"tables":[],"pending":[]}');
      localStorage.setItem('svc-tables-landed-legacy', '[]');
    });
    await reload();
    await ask({ kind: 'agents' });
    expect(
      await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('svc-tables'))),
    ).toEqual([]);
  });

  it('a forced quota error refuses the whole copy, keeps the old one, and a later copy lands whole', async () => {
    await copy('quota', [rowsTable('Big', 1)]);
    const cdp = await page.context().newCDPSession(page);
    const origin = new URL(harness.url).origin;
    const { usage } = (await page.evaluate(() => navigator.storage.estimate())) as { usage: number };
    await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: usage + 64 * 1024 });
    const big = rowsTable('Big', 2000);
    for (const row of big.rows!) row[3] = String(row[3]).padEnd(990, 'x');
    const error = await page.evaluate(async (big) => {
      const { svc } = window as unknown as { svc: Harness };
      try {
        await (await svc.phoneTables()).request({
          kind: 'copy',
          agent: 'quota',
          complete: true,
          tables: [big],
        });
        return null;
      } catch (e) {
        return { code: (e as { code: string }).code, message: (e as Error).message };
      }
    }, big);
    expect(error).toMatchObject({ code: 'STORAGE_FAILED' });
    expect(error!.message).toMatch(/storage is full/);
    expect(await ask({ kind: 'count', agent: 'quota', table: 'Big' })).toBe(1);
    expect(await ask({ kind: 'digests', agent: 'quota' })).toEqual({ Big: 'd-Big-1' });
    await cdp.send('Storage.overrideQuotaForOrigin', { origin });
    expect(await copy('quota', [big])).toEqual(['Big']);
    expect(await ask({ kind: 'count', agent: 'quota', table: 'Big' })).toBe(2000);
  });

  it('a second tab of the app keeps its copies in memory and answers every query', async () => {
    const second = await browser.context.newPage();
    await second.goto(harness.url);
    await second.waitForFunction(() => 'svc' in window);
    const boot = (p: Page) =>
      p.evaluate(async () => {
        const { svc } = window as unknown as { svc: Harness };
        return (await svc.phoneTables()).request({ kind: 'boot' });
      });
    expect(await boot(page)).toMatchObject({ storage: 'opfs' });
    expect(await boot(second)).toMatchObject({ storage: 'memory' });
    const answered = await second.evaluate(
      async (t) => {
        const { svc } = window as unknown as { svc: Harness };
        const tables = await svc.phoneTables();
        await tables.request({ kind: 'copy', agent: 'tab2', complete: true, tables: [t] });
        const op = svc.parse('query T sum=W').ops[0] as { props: unknown };
        return tables.request({
          kind: 'answer',
          agent: 'tab2',
          queries: [{ id: 'q', props: op.props }],
          at: svc.moment(),
        });
      },
      rowsTable('T', 10),
    );
    expect(answered.q?.view).toMatchObject({ kind: 'table', rows: [[45]] });
    await second.close();
  });

  it('removing an agent removes its database; removing all (sign-out) leaves none', async () => {
    expect(await ask({ kind: 'remove', agent: 'agent0' })).toBe(true);
    expect(await ask<string[]>({ kind: 'agents' })).not.toContain('agent0');
    expect(await ask({ kind: 'count', agent: 'agent0', table: 'T0' })).toBe(-1);
    await ask({ kind: 'removeAll' });
    await reload();
    expect(await ask<string[]>({ kind: 'agents' })).toEqual([]);
  });
});
