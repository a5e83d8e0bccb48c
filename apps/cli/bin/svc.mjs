#!/usr/bin/env node
// Launcher of the `svc` bin: builds the server (and what it depends on) through nx when run inside the
// repository, quietly unless the build fails, then runs dist/svc.js. `npx svc` therefore works right
// after `npm install` from the root, without a separate build step.
import { spawnSync } from 'node:child_process';
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
  const nx = path.join(root, 'node_modules', '.bin', 'nx');
  const built = spawnSync(nx, ['run', '@screen-service/cli:build', '--output-style=static'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, NX_DAEMON: 'false', NX_TUI: 'false' },
  });
  if (built.status !== 0) {
    process.stderr.write(`${built.stdout ?? ''}${built.stderr ?? ''}`);
    process.stderr.write('svc: building svc failed (output above).\n');
    process.exit(1);
  }
}
if (!fs.existsSync(entry)) {
  process.stderr.write(`svc: ${entry} is missing; run \`npm run build\` from the repository root.\n`);
  process.exit(1);
}
await import(pathToFileURL(entry).href);
