#!/usr/bin/env node
// Launcher of the `svc` bin: builds the server (and what it depends on) through nx when run inside the
// repository, with a progress line (the full output only if the build fails), then runs dist/svc.js. `npx svc` therefore works right
// after `npm install` from the root, without a separate build step.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// Before the build and before anything that needs Node 24 (the same refusal as dist/svc.js).
const major = Number(process.versions.node.split('.')[0]);
if (major !== 24) {
  process.stderr.write(
    `svc needs Node 24 but this is Node ${process.versions.node}. Run it as \`npx svc\` from the repository (npm puts the pinned Node 24 first on PATH), or install Node 24.\n`,
  );
  process.exit(1);
}

const here = path.dirname(fileURLToPath(import.meta.url));
const appDir = path.resolve(here, '..');
const root = path.resolve(appDir, '..', '..');
const entry = path.join(appDir, 'dist', 'svc.js');

if (fs.existsSync(path.join(root, 'nx.json')) && process.env.SVC_SKIP_BUILD !== '1') {
  // A few progress lines on stderr while it builds (nothing when the build is up to date); stdout stays
  // the command's own (JSON for most commands).
  const { buildQuietly } = await import(pathToFileURL(path.join(root, 'scripts', 'build-quietly.mjs')).href);
  const code = await buildQuietly({ project: '@screen-service/cli', label: 'svc', root });
  if (code !== 0) {
    process.stderr.write('svc: building svc failed (output above).\n');
    process.exit(1);
  }
}
if (!fs.existsSync(entry)) {
  process.stderr.write(`svc: ${entry} is missing; run \`npm run build\` from the repository root.\n`);
  process.exit(1);
}
await import(pathToFileURL(entry).href);
