// Growth: CPU time a line when parsing texts of one size, in a process of its own. Started by parse-bench.mjs as
// `node --expose-gc bench/growth.mjs <lines>` with an IPC channel: it warms up, says `ready`, then answers each
// `sample` message with the CPU µs a line of one sample.
//
// Why a process per size, samples taken in turn across the sizes, a full GC before each sample and the same 100,000
// lines in every sample: see docs/adr/0202-screen-lines-fourth-pass-and-a-stable-growth-check.md. In short, V8 decides
// from what survived earlier collections whether a literal's objects are allocated straight into the old generation
// (pretenuring) and how large the young generation is; measured one after another in one process, the 100,000-line
// texts inherited those decisions from the 10- and 1,000-line texts (whose results die young).
import { parse } from '../dist/index.js';
import { corpus } from './corpus.mjs';

const lines = Number(process.argv[2]);
if (!Number.isInteger(lines) || lines < 1)
  throw new Error('usage: node --expose-gc bench/growth.mjs <lines>');
if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');
if (typeof process.send !== 'function') throw new Error('growth.mjs is started by parse-bench.mjs (IPC)');

/** Lines parsed in one sample, whatever the size: every sample allocates about as much, so GC work compares. */
const SAMPLE_LINES = 100_000;
const WARM_UPS = 3;

const text = corpus(lines).text;
const calls = Math.max(1, Math.round(SAMPLE_LINES / lines));
let sink = 0;

/** CPU µs a line over one sample. Each result is dropped as soon as its op count is read. */
function sample() {
  // A full collection first: no sample pays for the garbage of the one before it.
  globalThis.gc();
  const start = process.cpuUsage();
  for (let i = 0; i < calls; i++) sink += parse(text).ops.length;
  const used = process.cpuUsage(start);
  if (sink % lines !== 0) throw new Error('the growth corpus must parse to one op a line');
  return (used.user + used.system) / (calls * lines);
}

for (let i = 0; i < WARM_UPS; i++) sample();
process.on('message', (message) => {
  if (message === 'sample') process.send(sample());
  else process.disconnect();
});
process.send('ready');
