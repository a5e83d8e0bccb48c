#!/usr/bin/env node
// Bin of `svc-a2a`, committed so npm links it right after `npm install` (a bin under dist/ exists only
// after a build, and `npx svc-a2a` would then ask the registry). Inside the repository it builds the
// package through nx first (cached; progress lines while it builds, the output only on failure); installed from npm it runs dist/.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// Before anything that needs a newer Node (chevrotain calls Object.groupBy, Node 21+).
const major = Number(process.versions.node.split('.')[0]);
if (major < 22) {
  process.stderr.write(
    `svc-a2a needs Node 22 or newer but this is Node ${process.versions.node}. Inside the Screen Service repository run it as \`npx svc-a2a\` (npm puts the pinned Node 24 first on PATH), or install Node 22+.\n`,
  );
  process.exit(1);
}

const pkgDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const root = path.resolve(pkgDir, '..', '..');
const entry = path.join(pkgDir, 'dist', 'cli.js');
const inRepository =
  fs.existsSync(path.join(root, 'nx.json')) &&
  fs.existsSync(path.join(pkgDir, 'src')) &&
  fs.existsSync(path.join(root, 'scripts', 'build-quietly.mjs'));

if (inRepository && process.env.SVC_SKIP_BUILD !== '1') {
  // The repository's quiet build: progress lines on stderr while it builds, the full output on failure.
  const { buildQuietly } = await import(pathToFileURL(path.join(root, 'scripts', 'build-quietly.mjs')).href);
  const code = await buildQuietly({ project: '@screen-service/a2a-bridge', label: 'svc-a2a', root });
  if (code !== 0) {
    process.stderr.write('svc-a2a: building the bridge failed (output above).\n');
    process.exit(1);
  }
}
if (!fs.existsSync(entry)) {
  process.stderr.write(
    `svc-a2a: ${entry} is missing; run \`npm run build\` from the repository root (or reinstall the package).\n`,
  );
  process.exit(1);
}
await import(pathToFileURL(entry).href);
