// Guard: every npm script runs on Node 24 (pinned by the `node` devDependency). Prints a next step otherwise.
const major = Number(process.versions.node.split('.')[0]);
if (major !== 24) {
  console.error(
    [
      `Screen Service needs Node 24, but this is Node ${process.versions.node} (${process.execPath}).`,
      'Run commands through npm (npm test, npm start, npx svc ...): npm puts the pinned Node 24 from',
      'node_modules/.bin first on PATH. If that Node is missing, run `npm install` from the repository root',
      '(it must be allowed to run the `node` package install script), or install Node 24 (see .nvmrc).',
    ].join('\n'),
  );
  process.exit(1);
}
