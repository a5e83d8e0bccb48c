// `npm run faults`: SIGKILL during writes, disk full, a stalled stream reader, abandoned long-polls.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type FlagSpec, helpText, parseFlags, UsageError } from './cli-args.js';
import { canMountTmpfs, runDiskFull } from './disk-full.js';
import { runKillRestart, seededRandom } from './kill-restart.js';
import { formatTable, machineLoad, mib } from './report.js';
import { type ServiceProcess, startService } from './service.js';
import { runSlowReader } from './slow-reader.js';
import { verifyDatabase, verifyLive } from './verify.js';
import { runWaiterLeak } from './waiter-leak.js';

const FLAGS = [
  { name: 'kills', value: 10, min: 1, max: 1000, help: 'SIGKILLs during the write load' },
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
Exits 1 when any check fails. The tool server's rate bucket is opened wide for scenario 1 (it is about
durability, not the bucket).`;

const MCP_WIDE = {
  SVC_MCP_RATE_BURST: '100000',
  SVC_MCP_RATE_PER_MINUTE: '100000',
  SVC_HOST_MESSAGE_RATE_BURST: '100000',
  SVC_HOST_MESSAGE_RATE_PER_MINUTE: '100000',
};

async function withService<T>(
  env: Record<string, string>,
  fn: (svc: ServiceProcess, dataDir: string) => Promise<T>,
) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-faults-'));
  const svc = await startService({ dataDir, env });
  try {
    return await fn(svc, dataDir);
  } finally {
    await svc.stop().catch(() => {});
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(argv: string[]): Promise<number> {
  const flags = parseFlags(argv, FLAGS);
  if (flags.help) {
    process.stdout.write(helpText('npm run faults --', SUMMARY, FLAGS));
    return 0;
  }
  const log = (s: string) => process.stderr.write(`[faults] ${s}\n`);
  const rows: string[][] = [];
  const problems: string[] = [];
  const out: Record<string, unknown> = { flags, loadBefore: machineLoad() };
  const seed = flags.seed || Date.now() % 2 ** 31;

  // 1. SIGKILL during writes.
  const kill = await withService(MCP_WIDE, async (svc, dataDir) => {
    const t0 = Date.now();
    const run = await runKillRestart({
      svc,
      clients: flags.writers,
      oauthClients: flags.rotators,
      kills: flags.kills,
      upMs: { min: flags['min-up-ms'], max: Math.max(flags['min-up-ms'], flags['max-up-ms']) },
      random: seededRandom(seed),
      log,
    });
    const live = await verifyLive(svc, run);
    await svc.stop();
    const file = verifyDatabase(dataDir, run);
    return { run, live, file, seconds: (Date.now() - t0) / 1000 };
  });
  const f = { ...kill.live.figures, ...kill.file.figures };
  const killProblems = [...kill.live.problems, ...kill.file.problems];
  problems.push(...killProblems.map((p) => `kill: ${p}`));
  const recover = [...kill.run.recoverMs].sort((a, b) => a - b);
  rows.push([
    `SIGKILL ×${kill.run.kills} during writes (seed ${seed})`,
    killProblems.length === 0 ? 'pass' : 'FAIL',
    [
      `acked and present once: says ${f.saysAcked}, screens ${f.screensAcked}, taps ${f.tapsAcked}, replies ${f.repliesAcked}, table rows ${f.rowsAcked}, OAuth rotations ${f.oauthRotationsAcked}`,
      `sent without an answer (at most once each): ${(f.saysUnanswered ?? 0) + (f.tapsUnanswered ?? 0) + (f.repliesUnanswered ?? 0)}`,
      `answers expected ${f.answersExpected}, returned ${f.answersReturned}, lost in the claim→reply window ${f.answersLostInReplyWindow}`,
      `last tokens work ${f.oauthLastTokensHeld}/${kill.run.ledger.oauth.length} (refresh used but unanswered ${f.oauthRotationsUsedButUnanswered})`,
      `integrity_check ok; calls retried after a restart ${kill.run.recoveredRetries}; first ack after restart p50 ${recover[Math.floor(recover.length / 2)] ?? '-'} ms, max ${recover.at(-1) ?? '-'} ms`,
    ].join('; '),
  ]);
  out.kill = {
    figures: f,
    problems: killProblems,
    lostInReplyWindow: kill.file.lostInReplyWindow,
    recoverMs: kill.run.recoverMs,
    killsDuringAnswers: kill.run.killsDuringAnswers,
    seconds: kill.seconds,
  };
  log(`kill scenario: ${killProblems.length === 0 ? 'pass' : killProblems.join('; ')}`);

  // 2. Disk full.
  if (canMountTmpfs()) {
    const d = await runDiskFull({ sizeMb: flags['disk-mb'], log });
    const ok =
      d.personError?.status === 507 &&
      d.toolError?.isError === true &&
      d.toolError.text.startsWith('storage_full') &&
      d.healthyWhileFull &&
      d.recovered &&
      d.samePid &&
      d.integrity === 'ok';
    if (!ok) problems.push(`disk: ${JSON.stringify(d)}`);
    rows.push([
      `disk full (${flags['disk-mb']} MB tmpfs)`,
      ok ? 'pass' : 'FAIL',
      `person's API ${d.personError?.status} ${(d.personError?.body as { error?: string })?.error}; svc_say tool error "${d.toolError?.text.slice(0, 40)}…"; /healthz ${d.healthyWhileFull ? '200' : 'down'} while full; writes again after space returned: ${d.recovered}; same process: ${d.samePid}; integrity ${d.integrity}; ${d.writesBeforeFirstError} writes fit in reserved space`,
    ]);
    out.disk = d;
  } else {
    rows.push(['disk full', 'not run', 'needs root to mount a tmpfs']);
  }

  // 3. Slow readers.
  await withService({}, async (svc) => {
    for (const stream of ['person', 'host'] as const) {
      const r = await runSlowReader({ svc, stream, writeBytes: flags['slow-mb'] * 1024 * 1024 });
      const ok = r.ended !== 'still-open' && r.bytesRead < r.writtenBytes * 0.8 && r.healthyStreamGotAll;
      if (!ok) problems.push(`slow ${stream}: ${JSON.stringify(r)}`);
      rows.push([
        `stalled ${stream} stream`,
        ok ? 'pass' : 'FAIL',
        `${mib(r.writtenBytes)} MiB written; the stalled client read ${mib(r.bytesRead)} MiB then the stream was ${r.ended === 'still-open' ? 'still open' : 'cut'}; a reading stream got everything: ${r.healthyStreamGotAll} (cut: ${r.healthyStreamCut}); RSS ${mib(r.rssBeforeBytes)} → ${mib(r.rssAfterBytes)} MiB`,
      ]);
      out[`slow-${stream}`] = r;
    }
  });

  // 4. Abandoned long-polls (40 per connection: inside the bucket's burst of 60).
  await withService({}, async (svc) => {
    const per = 40;
    const r = await runWaiterLeak({
      svc,
      connections: Math.ceil(flags.polls / per),
      pollsPerConnection: per,
    });
    const ok =
      r.waitersPeak === r.opened &&
      r.waitersAfter === 0 &&
      r.fdsAfter <= r.fdsBefore + 2 &&
      r.nextAnswerDelivered;
    if (!ok) problems.push(`polls: ${JSON.stringify(r)}`);
    rows.push([
      `${r.opened} abandoned svc_answers long-polls`,
      ok ? 'pass' : 'FAIL',
      `waiters ${r.waitersPeak} → ${r.waitersAfter} within ${r.releaseMs} ms of the disconnects; fds ${r.fdsBefore} → ${r.fdsAfter}; the next answer delivered: ${r.nextAnswerDelivered}`,
    ]);
    out.polls = r;
  });

  out.loadAfter = machineLoad();
  out.problems = problems;
  process.stdout.write(
    [
      `faults: machine ${os.cpus().length} cores; load average before ${out.loadBefore}, after ${out.loadAfter}`,
      '',
      formatTable(['scenario', 'result', 'figures'], rows),
      '',
      problems.length === 0 ? 'RESULT: PASS' : `RESULT: FAIL\n${problems.map((p) => `  - ${p}`).join('\n')}`,
      '',
    ].join('\n'),
  );
  if (flags.json) fs.writeFileSync(flags.json, JSON.stringify(out, null, 2));
  return problems.length === 0 ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    if (err instanceof UsageError) {
      process.stderr.write(`${err.message}\n\n${helpText('npm run faults --', SUMMARY, FLAGS)}`);
      process.exit(2);
    }
    process.stderr.write(`faults failed: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
