#!/usr/bin/env node
// The `svc-relay` program: the same command as `svc relay`, for `npx @screen-service/relay`.
import { runRelayCli } from './relay-cli.js';

const stop = new AbortController();
process.on('SIGINT', () => stop.abort());
process.on('SIGTERM', () => stop.abort());
const code = await runRelayCli(process.argv.slice(2), {
  env: process.env,
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
  signal: stop.signal,
  stdin: process.stdin,
});
process.exit(code);
