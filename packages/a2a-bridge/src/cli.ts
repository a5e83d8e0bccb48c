#!/usr/bin/env node
// The svc-a2a executable: runs the CLI on this process's arguments and sets the exit code.
import { runCli } from './cli-run.js';

const controller = new AbortController();
// `on`, not `once`: under npx one Ctrl-C arrives twice (from the terminal and from npm), and a second copy
// with no listener left would kill the bridge before it stops cleanly. Aborting twice is harmless.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => controller.abort());

process.exitCode = await runCli(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  env: process.env,
  signal: controller.signal,
});
