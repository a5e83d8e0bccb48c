import { build } from 'esbuild';

await build({
  entryPoints: ['src/scan.ts'],
  bundle: true,
  format: 'esm',
  platform: 'node',
  outfile: '/tmp/prof/scan.mjs',
  logLevel: 'silent',
});
const { scanToken, newToken, isSpace } = await import('/tmp/prof/scan.mjs');
const { corpus } = await import('./corpus.mjs');
const { text } = corpus(10000);
const tok = newToken();
function loop() {
  let at = 0,
    n = 0;
  const length = text.length;
  while (at < length) {
    const c = text.charCodeAt(at);
    if (c === 10 || c === 13 || isSpace(c)) {
      at++;
      continue;
    }
    at = scanToken(text, at, length, tok);
    n++;
  }
  return n;
}
function chars() {
  let at = 0,
    n = 0;
  const length = text.length;
  while (at < length) {
    const c = text.charCodeAt(at);
    if (c === 32) n++;
    at++;
  }
  return n;
}
const t = (f) => {
  for (let i = 0; i < 5; i++) f();
  const c = process.cpuUsage();
  for (let i = 0; i < 20; i++) f();
  const u = process.cpuUsage(c);
  return ((u.user + u.system) / 200000).toFixed(3);
};
console.log('tokens/line', loop() / 10000, 'scan loop µs/line', t(loop), 'char loop µs/line', t(chars));
await build({
  entryPoints: ['src/reader.ts'],
  bundle: true,
  format: 'esm',
  platform: 'node',
  outfile: '/tmp/prof/reader.mjs',
  logLevel: 'silent',
});
const { LineReader } = await import('/tmp/prof/reader.mjs');
LineReader.prototype.line = () => {};
const rd = () => new LineReader(text, {}).read();
console.log('reader scan-only µs/line', t(rd), 'scan loop', t(loop));
