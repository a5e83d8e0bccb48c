// Benchmark: the phone's tables on SQLite WebAssembly (OPFS, in a worker) against the old memory store rewritten into
// localStorage after every put, both in Chromium in the same run. Prints figures and ratios (ADR 0125).
import { launchChromium } from '../test/chromium.js';
import { serveHarness } from '../test/tables/build-harness.js';

const FULL = process.argv.includes('--quick') ? 1000 : 5000;
const TABLES = process.argv.includes('--quick') ? 4 : 20;

const harness = await serveHarness();
const browser = await launchChromium();
const page = await browser.context.newPage();
page.setDefaultTimeout(600_000);
// tsx keeps function names with a `__name` helper that the page does not have.
await page.addInitScript('window.__name = (f) => f');
const open = async () => {
  await page.goto(harness.url);
  await page.waitForFunction(() => 'svc' in window);
};
await open();

/** The page's `window.svc` (test/tables/harness.ts), typed as loosely as the benchmark uses it. */
interface Svc {
  phoneTables(): Promise<{ request<T = unknown>(request: object): Promise<T> }>;
  parse(text: string): { ops: { props?: unknown }[] };
  createMemoryStore(options?: object): { snapshot(): unknown };
  runOps(store: unknown, call: object): Promise<unknown>;
}

interface Figures {
  putP50: number;
  putP99: number;
  queryP50: number;
  queryP99: number;
  fill: number;
  note?: string;
}

// Runs in the page: a 5,000-row table written through screens of 50 puts, then 200 single-put screens timed, then
// a grouped query timed. `old` uses the memory store saved whole to localStorage after every put (the old app).
const measure = (old: boolean, rows: number) =>
  page.evaluate(
    async ({ old, rows }) => {
      const svc = (window as unknown as { svc: Svc }).svc;
      const at = () => ({ now: Date.now(), timeZone: 'UTC' });
      const line = (i: number) =>
        `put W Date=2025-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')} Weight=${60 + (i % 40)} Km=${i % 21} Note="run ${i % 7}" Done=${i % 3 ? 'off' : 'on'}`;
      let landScreen: (id: string, text: string) => Promise<void>;
      let query: (text: string) => Promise<unknown>;
      if (old) {
        localStorage.clear();
        const store = svc.createMemoryStore({
          onChange: (s: { snapshot(): unknown }) =>
            localStorage.setItem('bench-old-store', JSON.stringify(s.snapshot())),
        });
        landScreen = async (_id, text) => {
          const ops = svc.parse(text).ops.map((op: unknown) => ({ op, line: '' }));
          await svc.runOps(store, { owner: 'me', agent: 'old', ...at(), ops });
        };
        query = async (text) => {
          const op = svc.parse(text).ops[0];
          return svc.runOps(store, { owner: 'me', agent: 'old', ...at(), ops: [{ op, line: text }] });
        };
      } else {
        const tables = await svc.phoneTables();
        landScreen = async (id, text) => {
          await tables.request({
            kind: 'land',
            agent: 'bench',
            screen: id,
            ops: svc.parse(text).ops,
            at: at(),
          });
        };
        query = (text) => {
          const op = svc.parse(text).ops[0];
          return tables.request({
            kind: 'answer',
            agent: 'bench',
            queries: [{ id: 'q', props: op?.props }],
            at: at(),
          });
        };
      }
      const started = performance.now();
      await landScreen('create', 'table create W Date:date Weight:number:kg Km:number Note:text Done:bool');
      const timed = 200;
      for (let s = 0; s < (rows - timed) / 50; s++) {
        await landScreen(`fill${s}`, Array.from({ length: 50 }, (_, i) => line(s * 50 + i)).join('\n'));
      }
      const fill = performance.now() - started;
      const puts: number[] = [];
      for (let i = 0; i < timed; i++) {
        const t = performance.now();
        await landScreen(`one${i}`, line(i));
        puts.push(performance.now() - t);
      }
      const queries: number[] = [];
      for (let i = 0; i < 100; i++) {
        const t = performance.now();
        await query('query W group=Date:week avg=Weight sum=Km +count');
        queries.push(performance.now() - t);
      }
      const pct = (xs: number[], p: number) =>
        [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
      return {
        putP50: pct(puts, 0.5),
        putP99: pct(puts, 0.99),
        queryP50: pct(queries, 0.5),
        queryP99: pct(queries, 0.99),
        fill,
      };
    },
    { old, rows },
  ) as Promise<Figures>;

// Fills one agent with `tables` full tables; the old store stops at the localStorage quota.
const fillTables = (old: boolean, tables: number, rows: number, agent = 'cold') =>
  page.evaluate(
    async ({ old, tables, rows, agent }) => {
      const svc = (window as unknown as { svc: Svc }).svc;
      const at = () => ({ now: Date.now(), timeZone: 'UTC' });
      const put = (t: number, i: number) =>
        `put T${t} K=${i} W=${i % 97} D=2026-01-${String((i % 28) + 1).padStart(2, '0')} Note="row ${i}" Done=on`;
      if (old) {
        localStorage.clear();
        const store = svc.createMemoryStore();
        let full = 0;
        for (let t = 0; t < tables; t++) {
          const lines = [
            `table create T${t} K:number W:number D:date Note:text Done:bool`,
            ...Array.from({ length: rows }, (_, i) => put(t, i)),
          ];
          for (let s = 0; s < lines.length; s += 50) {
            const ops = svc
              .parse(lines.slice(s, s + 50).join('\n'))
              .ops.map((op: unknown) => ({ op, line: '' }));
            await svc.runOps(store, { owner: 'me', agent: 'cold', ...at(), ops });
          }
          try {
            localStorage.setItem('bench-old-cold', JSON.stringify(store.snapshot()));
            full = t + 1;
          } catch (e) {
            return { full, error: String((e as Error).name) };
          }
        }
        return { full, error: '' };
      }
      const tablesApi = await svc.phoneTables();
      for (let t = 0; t < tables; t++) {
        await tablesApi.request({
          kind: 'land',
          agent,
          screen: `c${t}`,
          ops: svc.parse(`table create T${t} K:number W:number D:date Note:text Done:bool`).ops,
          at: at(),
        });
        for (let s = 0; s < rows / 50; s++) {
          const text = Array.from({ length: 50 }, (_, i) => put(t, s * 50 + i)).join('\n');
          await tablesApi.request({
            kind: 'land',
            agent,
            screen: `p${t}-${s}`,
            ops: svc.parse(text).ops,
            at: at(),
          });
        }
      }
      return { full: tables, error: '' };
    },
    { old, tables, rows, agent },
  );

// The old store's copies use keys outside the app's legacy prefix (`svc-tables-`): the app would move them into
// SQLite on start, which would both slow the SQLite cold open and leave the old one nothing to read.
// A cold open: a fresh page, then the first query of the agent answered (worker, wasm, VFS and database opened).
const coldOpen = async (old: boolean) => {
  await open();
  return page.evaluate(async (old) => {
    const svc = (window as unknown as { svc: Svc }).svc;
    const at = () => ({ now: Date.now(), timeZone: 'UTC' });
    const op = svc.parse('query T0 sort=-W limit=20').ops[0];
    const t = performance.now();
    if (old) {
      const snapshot = JSON.parse(localStorage.getItem('bench-old-cold') ?? 'null');
      const store = svc.createMemoryStore({ snapshot });
      await svc.runOps(store, { owner: 'me', agent: 'cold', ...at(), ops: [{ op, line: '' }] });
    } else {
      const tables = await svc.phoneTables();
      await tables.request({ kind: 'agents' });
      const booted = performance.now() - t;
      // Opens the agent's database (layout checked, write-ahead log recovered when the last page closed it uncleanly).
      await tables.request({ kind: 'usage', agent: 'cold' });
      const opened = performance.now() - t - booted;
      await tables.request({
        kind: 'answer',
        agent: 'cold',
        queries: [{ id: 'q', props: op?.props }],
        at: at(),
      });
      Object.assign(window, { booted, opened });
    }
    return performance.now() - t;
  }, old);
};

// `--limits`: doc3's phone limits at full size (the test runs them smaller): 5 agents × 20 tables × 5,000 rows
// written through screens of 50 puts, a reload, then every table counted. Exits 1 when a row is missing.
if (process.argv.includes('--limits')) {
  const agents = 5;
  const t = performance.now();
  for (let a = 0; a < agents; a++) {
    await fillTables(false, 20, 5000, `limits${a}`);
    console.log(`  agent ${a + 1} of ${agents} filled (${((performance.now() - t) / 1000).toFixed(0)} s)`);
  }
  const filled = performance.now() - t;
  await open();
  const counts = await page.evaluate(async (agents) => {
    const tables = await (window as unknown as { svc: Svc }).svc.phoneTables();
    const out: number[] = [];
    for (let a = 0; a < agents; a++) {
      for (let t = 0; t < 20; t++)
        out.push(await tables.request<number>({ kind: 'count', agent: `limits${a}`, table: `T${t}` }));
    }
    const usage = await tables.request<{ bytes: number }>({ kind: 'usage', agent: 'limits0' });
    return { out, usage };
  }, agents);
  const missing = counts.out.filter((n) => n !== 5000).length;
  console.log(
    `\nLimits: ${agents} agents × 20 tables × 5000 rows through screens in ${(filled / 1000).toFixed(0)} s; after a reload ${counts.out.length - missing} of ${counts.out.length} tables hold all 5000 rows; one agent's database ${(counts.usage.bytes / 1024 / 1024).toFixed(1)} MB`,
  );
  await browser.close();
  await harness.close();
  process.exit(missing === 0 ? 0 : 1);
}

const ms = (x: number) => `${x.toFixed(2)} ms`;
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;

// `--cold`: only the cold open (the full run measures puts and queries first).
const coldOnly = process.argv.includes('--cold');
const sqlite = coldOnly ? undefined : await measure(false, FULL);
const old = coldOnly ? undefined : await measure(true, FULL);
if (sqlite && old) {
  console.log(
    `\nOne table of ${FULL} rows written through screens (50 puts each), then 200 single-put screens and 100 grouped queries:`,
  );
  console.log(
    `  fill            sqlite ${ms(sqlite.fill)}   old ${ms(old.fill)}   old/sqlite ${ratio(old.fill, sqlite.fill)}`,
  );
  console.log(
    `  put p50         sqlite ${ms(sqlite.putP50)}   old ${ms(old.putP50)}   old/sqlite ${ratio(old.putP50, sqlite.putP50)}`,
  );
  console.log(
    `  put p99         sqlite ${ms(sqlite.putP99)}   old ${ms(old.putP99)}   old/sqlite ${ratio(old.putP99, sqlite.putP99)}   (goal < 5 ms)`,
  );
  console.log(
    `  grouped p50     sqlite ${ms(sqlite.queryP50)}   old ${ms(old.queryP50)}   old/sqlite ${ratio(old.queryP50, sqlite.queryP50)}`,
  );
  console.log(
    `  grouped p99     sqlite ${ms(sqlite.queryP99)}   old ${ms(old.queryP99)}   old/sqlite ${ratio(old.queryP99, sqlite.queryP99)}   (goal < 30 ms)`,
  );
}

const t0 = performance.now();
await fillTables(false, TABLES, FULL);
const fillMs = performance.now() - t0;
const oldFill = await fillTables(true, TABLES, FULL);
const colds: number[] = [];
const boots: number[] = [];
const opens: number[] = [];
for (let i = 0; i < 5; i++) {
  colds.push(await coldOpen(false));
  const phases = await page.evaluate(() => {
    const { booted, opened } = window as unknown as { booted: number; opened: number };
    return { booted, opened };
  });
  boots.push(phases.booted);
  opens.push(phases.opened);
}
const oldColds: number[] = [];
for (let i = 0; i < 5; i++) oldColds.push(await coldOpen(true));
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(
  `\nOne agent with ${TABLES} tables × ${FULL} rows (filled through screens in ${(fillMs / 1000).toFixed(1)} s):`,
);
console.log(
  `  old store: ${oldFill.full} of ${TABLES} tables fit in localStorage${oldFill.error ? ` (then ${oldFill.error})` : ''}`,
);
console.log(
  `  cold open (median of 5)  sqlite ${ms(med(colds))} for ${TABLES} tables   old ${ms(med(oldColds))} for ${oldFill.full} tables   old/sqlite ${ratio(med(oldColds), med(colds))}   (goal < 200 ms)`,
);
console.log(
  `  of which the worker start (wasm compiled, OPFS pool opened) ${ms(med(boots))}, the database opened ${ms(med(opens))}, the first query the rest`,
);

await browser.close();
await harness.close();
