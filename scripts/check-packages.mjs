// Checks what a published package promises on npm: dependency ranges, engines vs the build target, and a
// README that stands on its own (no links out of the package, no pointers to the spec outside the repo).
// Run by `npm run lint`; prints every problem with its fix and exits 1 when there is one.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const problems = [];
const tsupBase = fs.readFileSync(path.join(root, 'config', 'tsup.base.ts'), 'utf8');
const baseTarget = /target: '(node\d+)'/.exec(tsupBase)?.[1];

for (const name of fs.readdirSync(path.join(root, 'packages')).sort()) {
  const dir = path.join(root, 'packages', name);
  const manifestPath = path.join(dir, 'package.json');
  if (!fs.existsSync(manifestPath)) continue;
  const pkg = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
  if (pkg.private) continue;
  const where = `packages/${name}`;

  // 1. Ranges: an exact pin in a library forces duplicate copies on everyone who installs it.
  for (const [dep, spec] of Object.entries(pkg.dependencies ?? {})) {
    if (!/^(\^|>=|~)/.test(spec))
      problems.push(
        `${where}: dependency ${dep} is pinned to "${spec}"; write a semver range like "^${spec}"`,
      );
  }

  // 2. engines.node agrees with the build target (of the shared config or the package's own override).
  const engines = pkg.engines?.node ?? '';
  const major = /^>=(\d+)/.exec(engines)?.[1];
  const ownTsup = path.join(dir, 'tsup.config.ts');
  const target =
    (fs.existsSync(ownTsup) && /target: '([a-z]+\d+)'/.exec(fs.readFileSync(ownTsup, 'utf8'))?.[1]) ||
    baseTarget;
  if (!major) problems.push(`${where}: engines.node is "${engines}"; write ">=<major>", e.g. ">=22"`);
  // A browser build (target esNNNN) says nothing about Node; only a node target must match engines.
  else if (target?.startsWith('node') && target !== `node${major}`)
    problems.push(
      `${where}: engines.node is "${engines}" but the build targets ${target}; set engines.node to ">=${target.slice(4)}" or the tsup target to node${major}`,
    );

  // 3. The README as npm shows it: relative links must stay inside the published files.
  const readmePath = path.join(dir, 'README.md');
  if (!fs.existsSync(readmePath)) {
    problems.push(`${where}: no README.md`);
    continue;
  }
  const readme = fs.readFileSync(readmePath, 'utf8');
  const published = pkg.files ?? [];
  for (const [, target] of readme.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^(https?:|mailto:|#)/.test(target)) continue;
    const resolved = path.relative(dir, path.resolve(dir, target.split('#')[0]));
    const inside =
      !resolved.startsWith('..') && published.some((f) => resolved === f || resolved.startsWith(`${f}/`));
    if (!inside)
      problems.push(
        `${where}/README.md links to ${target}, which is not in the published package; describe it or link an absolute URL`,
      );
  }
  for (const [hit] of readme.matchAll(/\.\.\/shared\/|\/work\/shared\/|\bspec doc[123]\b|\bdoc[123]\b/g))
    problems.push(
      `${where}/README.md mentions "${hit}", a document outside the repository; describe the behaviour instead`,
    );
}

if (problems.length > 0) {
  console.error(`check-packages: ${problems.length} problem(s)\n${problems.map((p) => `- ${p}`).join('\n')}`);
  process.exit(1);
}
console.log('check-packages: ranges, engines and READMEs of every published package are fine');
