// A/B: base = src at a git snapshot in /tmp/prof/base/src, new = working tree src; interleaved, CPU time.
import { build } from 'esbuild';

const PKG = '/work/wt/parser/packages/screen-lines';
await build({
  entryPoints: ['/tmp/prof/base/src/index.ts'],
  bundle: true,
  format: 'esm',
  platform: 'node',
  outfile: '/tmp/prof/a.mjs',
  logLevel: 'silent',
  nodePaths: [PKG + '/node_modules', '/work/wt/parser/node_modules'],
});
await build({
  entryPoints: [PKG + '/src/index.ts'],
  bundle: true,
  format: 'esm',
  platform: 'node',
  outfile: '/tmp/prof/b.mjs',
  logLevel: 'silent',
});
const A = (await import('/tmp/prof/a.mjs')).parse;
const B = (await import('/tmp/prof/b.mjs')).parse;
const { corpus } = await import(PKG + '/bench/corpus.mjs');
const { text } = corpus(10000);
const ra = [],
  rb = [];
const time = (f) => {
  const c = process.cpuUsage();
  f(text);
  f(text);
  const u = process.cpuUsage(c);
  return (u.user + u.system) / 20000;
};
for (let i = 0; i < 3; i++) {
  time(A);
  time(B);
}
for (let i = 0; i < 11; i++) {
  ra.push(time(A));
  rb.push(time(B));
}
const med = (xs) => xs.sort((a, b) => a - b)[5];
console.log(
  `base ${med(ra).toFixed(3)} µs/line  new ${med(rb).toFixed(3)} µs/line  new/base ${(med(rb) / med(ra)).toFixed(3)}`,
);
