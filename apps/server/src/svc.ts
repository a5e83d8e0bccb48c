// Process entry of the `svc` bin: check Node, run the CLI, exit with its code.
import { runCli } from './cli.js';

const major = Number(process.versions.node.split('.')[0]);
if (major !== 24) {
  process.stderr.write(
    `svc needs Node 24 but this is Node ${process.versions.node}. Run it as \`npx svc\` from the repository (npm puts the pinned Node 24 first), or install Node 24.\n`,
  );
  process.exit(1);
}

runCli(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`svc: ${String(err)}\n`);
    process.exitCode = 1;
  },
);
