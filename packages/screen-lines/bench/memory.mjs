// Memory of one parse of 20,000 characters (the tool's limit), from heap deltas, beside the reference's recorded figure.
// Started by parse-bench.mjs as `node --expose-gc --max-semi-space-size=64 bench/memory.mjs`: with a 64 MB young
// generation no collection runs inside one parse, so the heap grows by exactly what the parse allocated.
import { parse } from '../dist/index.js';
import { corpus, REFERENCE_BYTES_A_LINE } from './corpus.mjs';

const LIMIT = 20_000;
if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');

// The longest prefix of whole corpus lines that fits in the limit.
const full = corpus(1_000).text;
const text = full.slice(0, full.lastIndexOf('\n', LIMIT));
const lines = text.split('\n').length;

/** Median over 9 runs (after 3 warm-ups) of the bytes one parse allocates. */
function bytes(run) {
  for (let i = 0; i < 3; i++) run();
  const allocated = [];
  for (let round = 0; round < 9; round++) {
    globalThis.gc();
    const start = process.memoryUsage().heapUsed;
    const result = run();
    allocated.push(process.memoryUsage().heapUsed - start);
    if (result.ops.length !== lines) throw new Error('the memory corpus must parse');
  }
  const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return median(allocated);
}

const after = bytes(() => parse(text));
const fmt = (n) => Math.round(n).toLocaleString('en-US');
const pad = (label) => label.padEnd(38);
console.log(`memory: one parse of ${fmt(text.length)} characters (${lines} lines), median of 9`);
console.log(`  ${pad('reference parser (recorded)')}${fmt(REFERENCE_BYTES_A_LINE)} bytes a line allocated`);
console.log(`  ${pad('screen-lines parse')}${fmt(after / lines)} bytes a line allocated`);
console.log(`  ${pad('allocated parse / reference')}${(after / lines / REFERENCE_BYTES_A_LINE).toFixed(2)}`);
// The last line is for parse-bench.mjs, which prints the goals.
console.log(JSON.stringify({ reference: REFERENCE_BYTES_A_LINE, parse: after / lines }));
