// The `svc` process after the Node check (svc.ts): run the CLI, exit with its code.
import { runCli } from './cli.js';

const argv = process.argv.slice(2);

/**
 * Ends a host command's process with `code` once stdout and stderr are written out. A host (`svc host
 * run-echo`) runs until Ctrl-C, which under npx arrives twice; ending by the event loop running dry, Node
 * takes its signal handlers down before the process is gone, and a second copy landing in that gap kills it
 * (ended by SIGINT, not exit 0). `process.exit` keeps the handlers to the end.
 */
function exitHost(code: number): void {
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

runCli(argv).then(
  (code) => {
    if (argv[0] === 'host') exitHost(code);
    else process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`svc: ${String(err)}\n`);
    process.exitCode = 1;
  },
);
