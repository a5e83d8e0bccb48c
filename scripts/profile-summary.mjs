// Summarizes a V8 .cpuprofile: self time by function and by package (node_modules name or workspace dir).
// Usage: node scripts/profile-summary.mjs <file.cpuprofile> [top=40]
import { readFileSync } from 'node:fs';

const [file, topArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: node scripts/profile-summary.mjs <file.cpuprofile> [top]');
  process.exit(2);
}
const top = Number(topArg ?? 40);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
for (let i = 0; i < profile.samples.length; i++) {
  const dt = profile.timeDeltas[i] ?? 0;
  self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + dt);
}
function packageOf(url) {
  if (!url) return '(native)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 13).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const ws = url.match(/\/(packages|apps)\/([^/]+)\//);
  if (ws) return `${ws[1]}/${ws[2]}`;
  if (url.startsWith('node:')) return 'node';
  return url;
}
const fn = new Map();
const pkg = new Map();
let total = 0;
let idle = 0;
for (const [id, t] of self) {
  const n = byId.get(id);
  const cf = n.callFrame;
  total += t;
  if (cf.functionName === '(idle)') {
    idle += t;
    continue;
  }
  const key = `${cf.functionName || '(anon)'} ${cf.url.split('/').slice(-2).join('/')}:${cf.lineNumber + 1}`;
  fn.set(key, (fn.get(key) ?? 0) + t);
  const p = packageOf(cf.url);
  pkg.set(p, (pkg.get(p) ?? 0) + t);
}
const busy = total - idle;
const print = (title, m, n) => {
  console.log(`\n${title} (% of busy ${(busy / 1000).toFixed(0)} ms)`);
  for (const [k, t] of [...m].sort((a, b) => b[1] - a[1]).slice(0, n)) {
    console.log(`${((100 * t) / busy).toFixed(1).padStart(5)}%  ${k}`);
  }
};
print('self time by function', fn, top);
print('self time by package', pkg, 20);

// PROFILE_CALLERS=name1,name2 prints, for each named function, its self time split by caller chain (3 up).
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n);
for (const name of (process.env.PROFILE_CALLERS ?? '').split(',').filter(Boolean)) {
  const chains = new Map();
  for (const [id, t] of self) {
    const n = byId.get(id);
    if (n.callFrame.functionName !== name) continue;
    const names = [];
    for (let p = parent.get(id); p && names.length < 4; p = parent.get(p.id)) {
      names.push(`${p.callFrame.functionName || '(anon)'}:${p.callFrame.lineNumber + 1}`);
    }
    const key = names.join(' < ');
    chains.set(key, (chains.get(key) ?? 0) + t);
  }
  print(`callers of ${name}`, chains, 8);
}
