// One-off: records the frozen reference parser's answers as a corpus (ADR 0243). Run once, with test/reference
// still present: `npx nx run @screen-service/screen-lines:build && node scripts/record-corpus.mjs`.
//
// Inputs: every fixture (as written, with screen and idStart, with CRLF and CR line breaks), the generated inputs
// of test/generate.ts (seeded) and arbitrary strings (seeded). Generated inputs and arbitrary strings are kept when
// they reach code of either parser that the inputs kept before them did not (V8 block coverage, with hit counts in
// buckets), plus a plain sample of each. Every kept input is parsed by both parsers; they must agree.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url).pathname;
const GENERATED = Number(process.env.CORPUS_GENERATED ?? 100_000);
const ARBITRARY = Number(process.env.CORPUS_ARBITRARY ?? 20_000);
const SAMPLE_GENERATED = Number(process.env.CORPUS_SAMPLE_GENERATED ?? 1_000);
const SAMPLE_ARBITRARY = Number(process.env.CORPUS_SAMPLE_ARBITRARY ?? 200);
const SEED = 36;

const tmp = join(root, '.record-tmp');
rmSync(tmp, { recursive: true, force: true });
mkdirSync(tmp);
const bundle = async (entry, out, external) =>
  build({
    entryPoints: [join(root, entry)],
    bundle: true,
    format: 'esm',
    platform: 'node',
    outfile: join(tmp, out),
    external,
    logLevel: 'silent',
  });
// Only the reference's own code is bundled (chevrotain and zod stay packages), so coverage counts its code alone.
await bundle('test/reference/parse.ts', 'reference.mjs', ['chevrotain', 'zod']);
await bundle('scripts/generators-entry.ts', 'generators.mjs', ['fast-check', 'zod']);
const { parse: reference } = await import(pathToFileURL(join(tmp, 'reference.mjs')).href);
const { parse: shipped } = await import(pathToFileURL(join(root, 'dist/index.js')).href);
const { fc, input } = await import(pathToFileURL(join(tmp, 'generators.mjs')).href);

/** -0 is kept as a marker object: JSON would print it as 0, and the parsers' answers keep it. */
const encode = (value) => JSON.stringify(value, (_k, v) => (Object.is(v, -0) ? { '-0': true } : v));
const decode = (text) =>
  JSON.parse(text, (_k, v) =>
    v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 1 && v['-0'] === true
      ? -0
      : v,
  );

const opts = (options = {}) => ({
  idStart: options.idStart,
  ...(options.screen ? { screen: options.screen } : {}),
});
function answer(text, options) {
  const o = opts(options);
  const actual = shipped(text, o);
  const expected = reference(text, o);
  if (!(isDeepStrictEqual(actual, expected) && JSON.stringify(actual) === JSON.stringify(expected)))
    throw new Error(`the parsers disagree on ${JSON.stringify(text)}`);
  const line = encode({ text, options: o, result: expected });
  const back = decode(line);
  if (!isDeepStrictEqual(back.result, expected) || encode(back.result) !== encode(expected))
    throw new Error(`the answer to ${JSON.stringify(text)} does not survive JSON`);
  return line;
}

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
const watched = (url) => url.includes('/screen-lines/dist/') || url.includes('/.record-tmp/reference.mjs');
async function take() {
  const { result } = await session.post('Profiler.takePreciseCoverage');
  return result.filter((s) => watched(s.url));
}

/** Every range V8 reported over a run of all inputs: the blocks of both parsers. */
async function atomsOf(run) {
  await take();
  run();
  const atoms = [];
  for (const script of await take())
    for (const fn of script.functions)
      for (const r of fn.ranges) atoms.push({ url: script.url, start: r.startOffset, end: r.endOffset });
  return atoms;
}

/** How often each atom ran in the last input: the innermost reported range that holds its start decides. */
function countsOf(scripts, atoms) {
  const byUrl = new Map();
  for (const s of scripts) {
    const ranges = s.functions.flatMap((f) => f.ranges);
    ranges.sort((a, b) => a.startOffset - b.startOffset || b.endOffset - a.endOffset);
    byUrl.set(s.url, { ranges, starts: ranges.map((r) => r.startOffset) });
  }
  return atoms.map((a) => {
    const entry = byUrl.get(a.url);
    if (!entry) return 0;
    // Ranges nest, so the innermost one holding the atom's start is the last one that starts at or before it and
    // ends after it.
    let lo = 0;
    let hi = entry.starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (entry.starts[mid] <= a.start) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo - 1; i >= 0; i--) {
      const r = entry.ranges[i];
      if (r.endOffset > a.start) return r.count;
    }
    return 0;
  });
}
const bucket = (n) => (n === 0 ? 0 : n === 1 ? 1 : n === 2 ? 2 : n <= 4 ? 3 : n <= 8 ? 4 : n <= 32 ? 5 : 6);

/** Keeps each input that reaches an (atom, hit-count bucket) no input kept before it reached. */
async function select(cases, atoms) {
  const seen = new Set();
  const kept = [];
  for (const c of cases) {
    await take();
    shipped(c.text, opts(c.options));
    reference(c.text, opts(c.options));
    const counts = countsOf(await take(), atoms);
    let fresh = false;
    counts.forEach((n, i) => {
      if (n === 0) return;
      const key = i * 8 + bucket(n);
      if (!seen.has(key)) {
        seen.add(key);
        fresh = true;
      }
    });
    if (fresh) kept.push(c);
  }
  return { kept, features: seen.size };
}

const fixturesDir = join(root, 'test/fixtures');
const screens = readdirSync(fixturesDir, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.screen'))
  .sort()
  .map((f) => readFileSync(join(fixturesDir, f), 'utf8'));
const fixtureCases = screens.flatMap((text) => [
  { text },
  { text, options: { screen: 's1', idStart: 7 } },
  { text: text.replace(/\r?\n/g, '\r\n') },
  { text: text.replace(/\r?\n/g, '\r') },
]);

const generated = fc.sample(input, { numRuns: GENERATED, seed: SEED });
const arbitrary = fc
  .sample(fc.oneof(fc.string({ maxLength: 120 }), fc.string({ unit: 'binary', maxLength: 60 })), {
    numRuns: ARBITRARY,
    seed: SEED,
  })
  .map((text) => ({ text }));

const all = [...fixtureCases, ...generated, ...arbitrary];
const atoms = await atomsOf(() => {
  for (const c of all) answer(c.text, c.options);
});
console.log(`${all.length} inputs, all agreed; ${atoms.length} ranges of code reached`);

const { kept: keptGenerated, features } = await select(generated, atoms);
const { kept: keptArbitrary } = await select(arbitrary, atoms);
console.log(
  `kept by coverage: ${keptGenerated.length} generated (${features} features), ${keptArbitrary.length} arbitrary`,
);
const pick = (list, n, keptSet) =>
  list.filter((c, i) => i % Math.ceil(list.length / n) === 0 && !keptSet.has(c));
const sampleG = pick(generated, SAMPLE_GENERATED, new Set(keptGenerated));
const sampleA = pick(arbitrary, SAMPLE_ARBITRARY, new Set(keptArbitrary));

// The corpus must run every range of code the whole run ran (block coverage of both parsers).
async function reached(cases) {
  await take();
  for (const c of cases) {
    shipped(c.text, opts(c.options));
    reference(c.text, opts(c.options));
  }
  return countsOf(await take(), atoms).map((n) => n > 0);
}
const corpus = [...fixtureCases, ...keptGenerated, ...sampleG, ...keptArbitrary, ...sampleA];
const wholeRun = await reached(all);
const corpusRun = await reached(corpus);
const sources = new Map();
const missing = atoms.filter((_a, i) => wholeRun[i] && !corpusRun[i]);
for (const a of missing) {
  if (!sources.has(a.url)) sources.set(a.url, readFileSync(new URL(a.url), 'utf8'));
  console.log(
    `not reached by the corpus: ${a.url.split('/').pop()} ${JSON.stringify(sources.get(a.url).slice(a.start, Math.min(a.end, a.start + 160)))}`,
  );
}
console.log(
  `ranges run: whole run ${wholeRun.filter(Boolean).length}, corpus ${corpusRun.filter(Boolean).length} of ${atoms.length}`,
);
if (missing.length > 0) throw new Error('the corpus reaches less than the whole run');

const out = join(root, 'test/corpus');
mkdirSync(out, { recursive: true });
const write = (name, cases) =>
  writeFileSync(join(out, name), `${cases.map((c) => answer(c.text, c.options)).join('\n')}\n`);
write('fixtures.ndjson', fixtureCases);
write('generated-coverage.ndjson', keptGenerated);
write('generated-sample.ndjson', sampleG);
write('arbitrary.ndjson', [...keptArbitrary, ...sampleA]);
await session.post('Profiler.stopPreciseCoverage');
rmSync(tmp, { recursive: true, force: true });
console.log(
  `wrote ${fixtureCases.length} + ${keptGenerated.length + sampleG.length} + ${keptArbitrary.length + sampleA.length} cases`,
);
