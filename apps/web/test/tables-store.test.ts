// The phone's tables store in real Chromium: the engine's conformance suite on OPFS, screens landed once, limits, quota errors.
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

/** Lands `screens` (each a list of Screen Lines) for one agent through the app's client; returns the refusals. */
async function land(agent: string, screens: { id: string; lines: string }[]): Promise<string[]> {
  return page.evaluate(
    async ({ agent, screens }) => {
      const { svc } = window as unknown as { svc: Harness };
      const tables = await svc.phoneTables();
      const failed: string[] = [];
      for (const s of screens) {
        const landed = await tables.request({
          kind: 'land',
          agent,
          screen: s.id,
          ops: svc.parse(s.lines).ops,
          at: svc.moment(),
        });
        failed.push(...landed.failed.map((f: { code: string }) => f.code));
      }
      return failed;
    },
    { agent, screens },
  );
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
type Reply = { failed: { code: string }[]; q?: { view?: unknown } };

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

  it('1,000 screens drawn, drawn again and reloaded: every put lands exactly once', async () => {
    const screens = Array.from({ length: 1000 }, (_, i) => ({
      id: `scr_${i}`,
      lines: `${i === 0 ? 'table create Log N:number\n' : ''}put Log N=${i}`,
    }));
    expect(await land('once', screens)).toEqual([]);
    expect(await land('once', screens)).toEqual([]);
    await reload();
    expect(await land('once', [...screens].reverse())).toEqual([]);
    expect(await ask({ kind: 'count', agent: 'once', table: 'Log' })).toBe(1000);
    const total = await page.evaluate(async () => {
      const { svc } = window as unknown as { svc: Harness };
      const op = svc.parse('query Log sum=N +count').ops[0] as { props: unknown };
      const tables = await svc.phoneTables();
      return tables.request({
        kind: 'answer',
        agent: 'once',
        queries: [{ id: 'q', props: op.props }],
        at: svc.moment(),
      });
    });
    expect(total.q?.view).toMatchObject({ kind: 'table', rows: [[(999 * 1000) / 2, 1000]] });
  });

  it('at the limits (smaller here, full size in the bench): 5 agents × 20 tables, reload, every row present', async () => {
    const rowsPerTable = 200;
    for (let a = 0; a < 5; a++) {
      const screens: { id: string; lines: string }[] = [];
      for (let t = 0; t < 20; t++) {
        screens.push({
          id: `c${a}-${t}`,
          lines: `table create T${t} K:number W:number D:date Note:text Done:bool`,
        });
        for (let s = 0; s < rowsPerTable / 50; s++) {
          const lines = Array.from(
            { length: 50 },
            (_, i) =>
              `put T${t} K=${s * 50 + i} W=${(s * 50 + i) % 97} D=2026-01-${String((i % 28) + 1).padStart(2, '0')} Note="row ${i}" Done=${i % 2 ? 'on' : 'off'}`,
          );
          screens.push({ id: `p${a}-${t}-${s}`, lines: lines.join('\n') });
        }
      }
      screens.push({ id: `c${a}-over`, lines: 'table create TooMany A:text' });
      expect(await land(`agent${a}`, screens)).toEqual(['LIMIT_TABLES']);
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

  it('moves tables kept in localStorage by the old app into the store on first start, once', async () => {
    await page.evaluate(async () => {
      const { svc } = window as unknown as {
        svc: {
          createMemoryStore(): { snapshot(): unknown };
          runOps(s: unknown, c: unknown): Promise<unknown>;
          parse(t: string): { ops: unknown[] };
        };
      };
      const store = svc.createMemoryStore();
      const ops = svc.parse('table create Old A:number B:text\nput Old A=1 B=x\nput Old k2 A=2').ops;
      await svc.runOps(store, {
        owner: 'me',
        agent: 'legacy',
        now: 0,
        timeZone: 'UTC',
        ops: ops.map((op) => ({ op, line: 'x' })),
      });
      localStorage.setItem('svc-tables-legacy', JSON.stringify(store.snapshot()));
      localStorage.setItem('svc-tables-landed-legacy', JSON.stringify(['old-screen']));
    });
    await reload();
    expect(await ask({ kind: 'count', agent: 'legacy', table: 'Old' })).toBe(2);
    expect(await page.evaluate(() => localStorage.getItem('svc-tables-legacy'))).toBeNull();
    // The old list of landed screens came across: the old screen does not land again.
    expect(await land('legacy', [{ id: 'old-screen', lines: 'put Old A=3' }])).toEqual([]);
    expect(await ask({ kind: 'count', agent: 'legacy', table: 'Old' })).toBe(2);
  });

  it('a forced quota error refuses the whole screen, leaves it unlanded, and later lands it once', async () => {
    await land('quota', [{ id: 'q0', lines: 'table create Big T:text' }]);
    const cdp = await page.context().newCDPSession(page);
    const origin = new URL(harness.url).origin;
    const { usage } = (await page.evaluate(() => navigator.storage.estimate())) as { usage: number };
    await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: usage + 64 * 1024 });
    const big = Array.from({ length: 50 }, (_, i) => `put Big T="${String(i).padEnd(990, 'x')}"`).join('\n');
    const error = await page.evaluate(
      async ({ big }) => {
        const { svc } = window as unknown as { svc: Harness };
        const tables = await svc.phoneTables();
        try {
          for (let i = 0; i < 40; i++) {
            await tables.request({
              kind: 'land',
              agent: 'quota',
              screen: `big${i}`,
              ops: svc.parse(big).ops,
              at: svc.moment(),
            });
          }
          return null;
        } catch (e) {
          return { code: (e as { code: string }).code, message: (e as Error).message, screen: '' };
        }
      },
      { big },
    );
    expect(error).toMatchObject({ code: 'STORAGE_FAILED' });
    expect(error!.message).toMatch(/storage is full/);
    const before = await ask<number>({ kind: 'count', agent: 'quota', table: 'Big' });
    expect(before % 50).toBe(0);
    await cdp.send('Storage.overrideQuotaForOrigin', { origin });
    const screens = Array.from({ length: 40 }, (_, i) => ({ id: `big${i}`, lines: big }));
    expect(await land('quota', screens)).toEqual([]);
    expect(await ask({ kind: 'count', agent: 'quota', table: 'Big' })).toBe(40 * 50);
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
