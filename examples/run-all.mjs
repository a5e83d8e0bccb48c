// Runs every example's test against the real built server: builds what they import, installs each example's
// own dependencies from the registry, runs `npm test` in each folder. `npm run examples` from the root.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(here);
const only = process.argv.slice(2);

function run(cmd, args, cwd) {
  const t0 = Date.now();
  const r = spawnSync(cmd, args, { cwd, stdio: 'inherit' });
  return { ok: r.status === 0, ms: Date.now() - t0 };
}

const built = run(
  'npx',
  [
    'nx',
    'run-many',
    '-t',
    'build',
    '-p',
    '@screen-service/agent',
    '@screen-service/server',
    '--output-style=static',
  ],
  root,
);
if (!built.ok) process.exit(1);
const folders = fs
  .readdirSync(here, { withFileTypes: true })
  .filter((d) => d.isDirectory() && fs.existsSync(path.join(here, d.name, 'package.json')))
  .map((d) => d.name)
  .filter((name) => only.length === 0 || only.includes(name));
const results = [];
for (const name of folders) {
  const cwd = path.join(here, name);
  const install = run('npm', ['install', '--no-audit', '--no-fund'], cwd);
  const test = install.ok ? run('npm', ['test'], cwd) : { ok: false, ms: 0 };
  results.push({ name, ok: install.ok && test.ok, installMs: install.ms, testMs: test.ms });
}
for (const r of results) {
  console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${r.name}: install ${r.installMs} ms, test ${r.testMs} ms`);
}
process.exit(results.every((r) => r.ok) ? 0 : 1);
