#!/usr/bin/env node
// The svc-a2a executable: runs the CLI on this process's arguments and sets the exit code.
import { runCli } from './cli-run.js';

const controller = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => controller.abort());

process.exitCode = await runCli(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  env: process.env,
  signal: controller.signal,
});
