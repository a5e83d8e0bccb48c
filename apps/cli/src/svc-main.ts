// The `svc` process after the Node check (svc.ts): run the CLI, exit with its code.
import { runCli } from './cli.js';

runCli(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`svc: ${String(err)}\n`);
    process.exitCode = 1;
  },
);
