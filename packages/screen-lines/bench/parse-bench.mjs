// Benchmark: lines parsed per second on a mixed 10,000-line corpus, against splitting the same lines on whitespace.
// Run after a build: `npm run bench -w packages/screen-lines` (nx runs the build first for `npm run bench`).
import { parse } from '../dist/index.js';

const GOAL = 200_000;
const LINES = 10_000;
const templates = [
  (i) => `text **Step ${i}**: drink some water and stretch for a minute`,
  (i) => `timer ${(i % 50) + 1}m Stretch break ${i}`,
  (i) => `choose "Lunch ${i}?" Soup|Salad|Pizza|"Hot dog"`,
  (i) => `confirm "Send report ${i}?" Send|Wait`,
  () => 'buttons "What next?" Continue|Pause|Stop layout=stack',
  () => 'checkin mood "How do you feel?"',
  () => 'checklist "Before you leave" Keys|Wallet|Phone|Charger',
  () => 'ask "Weight today?" type=number placeholder=kg',
  () => 'form "Visit" name:text age:number day:date',
  (i) => `chart bar Mon=${i % 9}|Tue=5|Wed=2|Thu=7 "Runs" unit=km`,
  (i) => `stat ${i}.5 Weight unit=kg change=-0.4 good=down`,
  (i) => `progress ${i % 10}/10 Chapters`,
  () => 'table create weights Day:date Weight:number:kg Note:text Done:bool',
  (i) => `put weights Day=today-${i % 30} Weight=${70 + (i % 10)}.5 Note="after run" +Done`,
  (i) => `put shopping item${i} Done=on Qty=${i % 5}`,
  () => 'query weights where=Day>=today-7|Note~run sort=-Day limit=7 as chart line x=Day y=Weight min=60',
  () => 'query runs group=Day:week sum=Km +count as stat label="Km this week" good=up',
  () => 'image https://example.com/photos/cat.jpg "Our cat"',
  () => 'link https://example.com/recipe "The recipe"',
  () => 'divider',
];
const lines = Array.from({ length: LINES }, (_, i) => templates[i % templates.length](i));
const text = lines.join('\n');

const check = parse(text);
if (check.errors.length > 0) throw new Error(`corpus does not parse: ${check.errors[0].message}`);
if (check.ops.length !== LINES) throw new Error(`expected ${LINES} ops, got ${check.ops.length}`);

/**
 * Median rate over 9 timed runs (after 3 warm-ups), by wall clock and by this process's CPU time. On a shared,
 * busy machine the wall clock also counts time spent waiting for a core; CPU time does not.
 */
function measure(run) {
  for (let i = 0; i < 3; i++) run();
  const wall = [];
  const cpu = [];
  for (let round = 0; round < 9; round++) {
    const startCpu = process.cpuUsage();
    const start = process.hrtime.bigint();
    run();
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    const used = process.cpuUsage(startCpu);
    wall.push(LINES / seconds);
    cpu.push(LINES / ((used.user + used.system) / 1e6));
  }
  const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return { wall: median(wall), cpu: median(cpu) };
}

let sink = 0;
const baseline = measure(() => {
  for (const line of text.split('\n')) sink += line.split(/\s+/).length;
});
const parsed = measure(() => {
  sink += parse(text).ops.length;
});

const fmt = (n) => Math.round(n).toLocaleString('en-US');
const pad = (text) => text.padEnd(34);
console.log(
  `corpus: ${LINES.toLocaleString('en-US')} mixed lines (${templates.length} kinds), median of 9 runs`,
);
for (const clock of ['wall', 'cpu']) {
  const label = clock === 'wall' ? 'wall clock' : 'CPU time';
  console.log(`${label}:`);
  console.log(`  ${pad('baseline (split on whitespace)')}${fmt(baseline[clock])} lines/s`);
  console.log(`  ${pad('screen-lines parse')}${fmt(parsed[clock])} lines/s`);
  console.log(`  ${pad('ratio parse / baseline')}${(parsed[clock] / baseline[clock]).toFixed(3)}`);
  console.log(`  ${pad(`goal >= ${fmt(GOAL)} lines/s`)}${parsed[clock] >= GOAL ? 'met' : 'NOT met'}`);
}
if (sink < 0) console.log(sink);
