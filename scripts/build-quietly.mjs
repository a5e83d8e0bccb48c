// Builds one nx project and what it depends on with a few progress lines instead of every tool's output
// (`npm start`, `npx svc`, `npx svc-a2a`); the full output is shown only when the build fails.
//   node scripts/build-quietly.mjs <project> [label]     e.g. @screen-service/server "the server"
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// How long a build may stay silent before it says what it is doing: a build that only checks the cache
// (a second or two) prints nothing at all.
const ANNOUNCE_AFTER_MS = 1500;

/**
 * Runs `nx run <project>:build` with its output captured and resolves with nx's exit code. Progress goes
 * to `write`: after a moment a line saying what is building, then one line per package built (cached ones
 * are counted, not listed), then the total time. On failure the captured output is written in full.
 *
 * @param {{ project: string, label?: string, root?: string, write?: (s: string) => void, env?: NodeJS.ProcessEnv }} o
 * @returns {Promise<number>}
 */
export function buildQuietly(o) {
  const root = o.root ?? ROOT;
  const write = o.write ?? ((s) => process.stderr.write(s));
  const label = o.label ?? o.project;
  const started = Date.now();
  const seconds = () => ((Date.now() - started) / 1000).toFixed(1);
  let total = 0;
  let done = 0;
  let cached = 0;
  let announced = false;
  let due = false;
  const announce = () => {
    if (announced) return;
    announced = true;
    const what = total > 1 ? `${label} and the ${total - 1} packages it needs` : label;
    write(`Building ${what} (quietly; the first build takes a few minutes, later ones reuse it)...\n`);
  };
  // Announced once the build has run a moment and nx has said how many packages it covers.
  const timer = setTimeout(() => {
    due = true;
    if (total > 0) announce();
  }, ANNOUNCE_AFTER_MS);
  let output = '';
  let pending = '';
  const onLine = (line) => {
    // `NX   Running target build for project X and 15 tasks it depends on:`
    const plan = /Running target build for project \S+(?: and (\d+) tasks? it depends on)?/.exec(line);
    if (plan) {
      total = 1 + Number(plan[1] ?? 0);
      if (due) announce();
    }
    const task = /^> nx run (\S+):build(.*)$/.exec(line.trim());
    if (!task) return;
    done += 1;
    if (/cache/.test(task[2])) {
      cached += 1;
      return;
    }
    announce();
    const name = task[1].replace(/^@screen-service\//, '');
    write(`  built ${name} (${done}${total ? `/${total}` : ''}, ${seconds()} s)\n`);
  };
  const collect = (chunk) => {
    const text = chunk.toString();
    output += text;
    pending += text;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) onLine(stripVTControlCharacters(line));
  };
  return new Promise((resolve) => {
    const child = spawn(
      path.join(root, 'node_modules', '.bin', 'nx'),
      ['run', `${o.project}:build`, '--output-style=static'],
      {
        cwd: root,
        env: { ...(o.env ?? process.env), NX_DAEMON: 'false', NX_TUI: 'false', FORCE_COLOR: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', (err) => {
      clearTimeout(timer);
      write(`Could not run nx (${err.message}); run \`npm install\` from the repository root.\n`);
      resolve(1);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code !== 0) {
        write(`${output}\nBuilding ${label} failed (nx exit code ${code}; its output is above).\n`);
        resolve(code ?? 1);
        return;
      }
      // Only a build that said it started says it finished; a cache check stays silent.
      if (announced) {
        const reused = cached > 0 ? ` (${cached} of ${done} already built)` : '';
        write(`Built ${label} in ${seconds()} s${reused}.\n`);
      }
      resolve(0);
    });
  });
}

// As a script: `node scripts/build-quietly.mjs <project> [label]`; SVC_SKIP_BUILD=1 skips the build.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [project, label] = process.argv.slice(2);
  if (!project) {
    process.stderr.write('usage: node scripts/build-quietly.mjs <nx project> [label]\n');
    process.exit(2);
  }
  if (process.env.SVC_SKIP_BUILD === '1') process.exit(0);
  process.exit(await buildQuietly({ project, ...(label ? { label } : {}) }));
}
