// Benchmark: lines parsed per second on a mixed corpus against a whitespace split measured in the same run; then
// growth with input size and memory per line (bench/memory.mjs) beside the old parser's recorded figure (ADR 0243).
// `npm run bench -w packages/screen-lines` builds first (prebench).
import { fork, spawnSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { parse } from '../dist/index.js';
import { corpus } from './corpus.mjs';

const GOAL = 500_000;
const GOAL_RATIO = 0.15;
const LINES = 10_000;

const { text, kinds } = corpus(LINES);
const check = parse(text);
if (check.errors.length > 0) throw new Error(`corpus does not parse: ${check.errors[0].message}`);
if (check.ops.length !== LINES) throw new Error(`expected ${LINES} ops, got ${check.ops.length}`);

/** Rates of one timed run (`reps` calls inside one timing, so that a sample is long enough to average out the load). */
function once(run, lines, reps) {
  // Every sample starts from an empty young generation, so no contender pays to collect the one before it.
  if (typeof globalThis.gc === 'function') globalThis.gc({ type: 'minor' });
  const startCpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  for (let r = 0; r < reps; r++) run();
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const used = process.cpuUsage(startCpu);
  return { wall: (lines * reps) / seconds, cpu: (lines * reps) / ((used.user + used.system) / 1e6) };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Calls a contender needs in one sample: enough for about `SAMPLE_SECONDS` of work, judged from a first timed call.
 * A sample of one 10,000-line parse lasted 20 to 50 ms and one whitespace split 4 ms: on a shared machine single
 * samples that short moved by a factor of two from run to run, and the ratio with them.
 */
const SAMPLE_SECONDS = 0.15;
function repsFor(run, lines) {
  run();
  const rate = once(run, lines, 1).cpu;
  return Math.max(1, Math.round((SAMPLE_SECONDS * rate) / lines));
}

/**
 * Median rates over 9 rounds (after 3 warm-up rounds), by wall clock and by this process's CPU time, of several
 * contenders timed in turn within each round: on a shared, busy machine the load changes from second to second, and
 * interleaving gives every contender the same conditions. Wall clock also counts time spent waiting for a core;
 * CPU time does not, but it does count V8's garbage-collector helper threads.
 */
function measure(runs, lines) {
  const names = Object.keys(runs);
  const reps = Object.fromEntries(names.map((name) => [name, repsFor(runs[name], lines)]));
  for (let i = 0; i < 3; i++) for (const name of names) once(runs[name], lines, reps[name]);
  const samples = Object.fromEntries(names.map((name) => [name, { wall: [], cpu: [] }]));
  for (let round = 0; round < 9; round++) {
    for (const name of names) {
      const rate = once(runs[name], lines, reps[name]);
      samples[name].wall.push(rate.wall);
      samples[name].cpu.push(rate.cpu);
    }
  }
  return Object.fromEntries(
    names.map((name) => [name, { wall: median(samples[name].wall), cpu: median(samples[name].cpu) }]),
  );
}

let sink = 0;
// The baseline and the parser, whose ratio is a goal, are timed in turn in every round.
const { baseline, parse: parsed } = measure(
  {
    baseline: () => {
      for (const line of text.split('\n')) sink += line.split(/\s+/).length;
    },
    parse: () => {
      sink += parse(text).ops.length;
    },
  },
  LINES,
);

const fmt = (n) => Math.round(n).toLocaleString('en-US');
const pad = (label) => label.padEnd(38);
// The load is part of the figures: on a shared machine it moves every one of them.
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
console.log(`machine: ${cpus().length} cores, load average ${load()} at the start`);
console.log(
  `corpus: ${fmt(LINES)} mixed lines (${kinds} kinds), median of 9 samples of about ${SAMPLE_SECONDS} s each${typeof globalThis.gc === 'function' ? ', each after a minor GC' : ''}`,
);
for (const clock of ['wall', 'cpu']) {
  const ratio = parsed[clock] / baseline[clock];
  console.log(`${clock === 'wall' ? 'wall clock' : 'CPU time'}:`);
  console.log(`  ${pad('baseline (split on whitespace)')}${fmt(baseline[clock])} lines/s`);
  console.log(`  ${pad('screen-lines parse')}${fmt(parsed[clock])} lines/s`);
  console.log(`  ${pad('ratio parse / baseline')}${ratio.toFixed(3)}`);
}

// Growth: the cost of a line must not depend on how many lines came before it. Each size lives in a process of its own
// (bench/growth.mjs says why); the three take their samples in turn, round by round, so a change of load in the
// machine falls on all sizes alike. Samples of 100,000 lines, a full GC before each, 9 rounds, medians.
const SIZES = [10, 1_000, 100_000];
const ROUNDS = 9;
console.log(
  `growth (CPU time a line; each size in its own process, ${ROUNDS} rounds of one sample of 100,000 lines a size, in turn):`,
);
const workers = await Promise.all(
  SIZES.map(
    (n) =>
      new Promise((resolve, reject) => {
        const child = fork(new URL('./growth.mjs', import.meta.url).pathname, [String(n)], {
          execArgv: ['--expose-gc'],
        });
        child.once('message', () => resolve(child));
        child.once('error', reject);
        child.once(
          'exit',
          (code) => code !== 0 && reject(new Error(`growth bench at ${n} lines exited ${code}`)),
        );
      }),
  ),
);
const ask = (child) =>
  new Promise((resolve, reject) => {
    const died = (code) => reject(new Error(`a growth bench process exited (${code}) before it answered`));
    child.once('exit', died);
    child.once('message', (us) => {
      child.off('exit', died);
      resolve(us);
    });
    child.send('sample');
  });
const growthSamples = SIZES.map(() => []);
for (let round = 0; round < ROUNDS; round++) {
  for (let k = 0; k < SIZES.length; k++) growthSamples[k].push(await ask(workers[k]));
}
for (const child of workers) child.send('stop');
const perLine = {};
SIZES.forEach((n, k) => {
  const us = median(growthSamples[k]);
  perLine[n] = us;
  const spread = `${Math.min(...growthSamples[k]).toFixed(2)} to ${Math.max(...growthSamples[k]).toFixed(2)}`;
  console.log(
    `  ${pad(`${fmt(n)} lines`)}${us.toFixed(3)} µs a line (samples ${spread}), ${fmt(1e6 / us)} lines/s`,
  );
});
const GROWTH_LIMIT = 1.5;
// The ratio of each round's samples (taken seconds apart, under the same load), then their median: the goal's figure.
const pairedRatio = (big, small) =>
  median(
    growthSamples[SIZES.indexOf(big)].map((us, round) => us / growthSamples[SIZES.indexOf(small)][round]),
  );
const growthSmall = pairedRatio(1_000, 10);
const growth = pairedRatio(100_000, 1_000);
const ofMedians = (big, small) => `ratio of the medians ${(perLine[big] / perLine[small]).toFixed(2)}`;
console.log(
  `  ${pad('µs a line at 1,000 / at 10')}${growthSmall.toFixed(2)} (median of 9 rounds; ${ofMedians(1_000, 10)})`,
);
console.log(
  `  ${pad('µs a line at 100,000 / at 1,000')}${growth.toFixed(2)} (median of 9 rounds; ${ofMedians(100_000, 1_000)})`,
);

// Memory runs in its own process: it needs --expose-gc and a young generation large enough that no collection
// runs during one parse, which would distort the timings above.
const memory = spawnSync(
  process.execPath,
  ['--expose-gc', '--max-semi-space-size=64', new URL('./memory.mjs', import.meta.url).pathname],
  { encoding: 'utf8' },
);
if (memory.status !== 0) throw new Error(`memory bench failed: ${memory.stderr}`);
const memoryLines = memory.stdout.trimEnd().split('\n');
const bytes = JSON.parse(memoryLines.pop());
console.log(memoryLines.join('\n'));

const goal = (label, ok, figure) =>
  console.log(`  ${pad(label)}${(ok ? 'MET' : 'NOT MET').padEnd(9)}${figure}`);
console.log('goals (issue 25):');
goal(`CPU >= ${fmt(GOAL)} lines/s`, parsed.cpu >= GOAL, `${fmt(parsed.cpu)} lines/s`);
goal(
  `CPU >= ${GOAL_RATIO} of the whitespace split`,
  parsed.cpu / baseline.cpu >= GOAL_RATIO,
  `${(parsed.cpu / baseline.cpu).toFixed(3)} (wall ${(parsed.wall / baseline.wall).toFixed(3)})`,
);
goal(
  'bytes a line below the reference',
  bytes.parse < bytes.reference,
  `${fmt(bytes.parse)} vs ${fmt(bytes.reference)} bytes a line (recorded, ADR 0243)`,
);
goal(
  `linear growth (each ratio <= ${GROWTH_LIMIT})`,
  growth <= GROWTH_LIMIT && growthSmall <= GROWTH_LIMIT,
  `${growth.toFixed(2)} (100,000 / 1,000), ${growthSmall.toFixed(2)} (1,000 / 10)`,
);
console.log(`machine: load average ${load()} at the end`);
if (sink < 0) console.log(sink);
