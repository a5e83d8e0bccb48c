// Writes docs/theme/swatches.html (every preset and a few seeded handles, light and dark) and, when
// Debian's chromium is installed, a PNG screenshot of it: `npm run swatches -w packages/theme`.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  checkPalette,
  compilePalette,
  formatCssVariables,
  getPreset,
  type Palette,
  PRESET_NAMES,
  resolveLook,
} from '../dist/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const outDir = resolve(here, '../../../docs/theme');
const SEEDED = ['weather', 'ada', 'coder'];

const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);

function card(id: string, title: string, subtitle: string, palette: Palette): string {
  const checks = checkPalette(palette);
  const lowest = (min: number) =>
    Math.min(...checks.filter((c) => c.min === min).map((c) => c.ratio)).toFixed(2);
  const bars = [62, 88, 45, 70, 30, 54]
    .map((h, i) => `<span class="bar" style="height:${h}%;background:var(--svc-chart-${i + 1})"></span>`)
    .join('');
  return `<section class="look ${id}">
  <header><strong>${escapeHtml(title)}</strong><span class="muted">${palette['--svc-scheme']}</span></header>
  <div class="screen">
    <p class="q">How did you sleep?</p>
    <p class="muted">${escapeHtml(subtitle)}</p>
    <div class="row"><button type="button" class="primary">Great</button><button type="button" class="outline">Okay</button><span class="chip">Restless</span></div>
    <div class="row"><span class="input">Notes…</span><button type="button" class="outline focus">Focus</button></div>
    <p><a href="#weekly">Open the weekly chart</a> · <span class="good">▲ 12%</span> <span class="bad">▼ 3%</span></p>
    <div class="chart">${bars}</div>
  </div>
  <footer class="muted">text ≥ ${lowest(4.5)}:1 · controls ≥ ${lowest(3)}:1</footer>
</section>`;
}

const blocks: string[] = [];
const styles: string[] = [];
const looks = [
  ...PRESET_NAMES.map((name) => ({
    id: `p-${name}`,
    look: { preset: name },
    title: name,
    handle: undefined,
  })),
  ...SEEDED.map((handle) => ({ id: `s-${handle}`, look: {}, title: `@${handle} (seeded)`, handle })),
];
for (const { id, look, title, handle } of looks) {
  const { light, dark } = compilePalette(look, handle === undefined ? {} : { handle });
  const resolved = resolveLook(look, handle === undefined ? {} : { handle });
  const subtitle =
    handle === undefined
      ? getPreset(resolved.preset).description
      : `accent ${resolved.accent}, ${resolved.radius}, ${resolved.font}`;
  styles.push(formatCssVariables(light, `.${id}.light`), formatCssVariables(dark, `.${id}.dark`));
  blocks.push(
    `<div class="pair">${card(`${id} light`, title, subtitle, light)}${card(`${id} dark`, title, subtitle, dark)}</div>`,
  );
}

const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Screen Service looks</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body { margin: 0; padding: 24px; font: 14px/1.4 system-ui, sans-serif; background: #e9e9ee; color: #1d1d22; }
h1 { font-size: 20px; margin: 0 0 4px; } .intro { margin: 0 0 20px; color: #4a4a55; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(520px, 1fr)); gap: 16px; }
.pair { display: grid; grid-template-columns: 1fr 1fr; border-radius: 14px; overflow: hidden; box-shadow: 0 1px 3px rgb(0 0 0 / 0.15); }
.look { background: var(--svc-bg); color: var(--svc-text); font-family: var(--svc-font); font-weight: var(--svc-weight); padding: 12px; }
.look header { display: flex; justify-content: space-between; margin-bottom: 8px; }
.look strong, .q { font-weight: var(--svc-weight-strong); }
.screen { background: var(--svc-surface); border-radius: var(--svc-radius-card); box-shadow: var(--svc-shadow); padding: 12px; }
.screen p { margin: 0 0 8px; } .muted { color: var(--svc-text-muted); font-size: 12px; }
.row { display: flex; gap: 6px; align-items: center; margin-bottom: 8px; flex-wrap: wrap; }
button { font: inherit; font-weight: var(--svc-weight-strong); border-radius: var(--svc-radius); padding: 5px 12px; cursor: pointer; }
.primary { background: var(--svc-accent); color: var(--svc-on-accent); border: 1px solid var(--svc-accent); }
.outline { background: transparent; color: var(--svc-text); border: 1px solid var(--svc-border); }
.focus { outline: 2px solid var(--svc-focus); outline-offset: 2px; }
.chip { background: var(--svc-accent-soft); color: var(--svc-text); border-radius: var(--svc-radius); padding: 4px 10px; }
.input { flex: 1; background: var(--svc-surface-alt); color: var(--svc-text-muted); border: 1px solid var(--svc-border); border-radius: var(--svc-radius); padding: 4px 8px; }
a { color: var(--svc-accent-text); text-decoration: underline; }
.good { color: var(--svc-good); } .bad { color: var(--svc-bad); }
.chart { display: flex; align-items: flex-end; gap: 6px; height: 48px; padding-top: 4px; border-bottom: 1px solid var(--svc-divider); }
.bar { flex: 1; border-radius: 3px 3px 0 0; }
.look footer { margin-top: 8px; }
${styles.join('')}
</style></head><body>
<h1>Screen Service looks</h1>
<p class="intro">Every preset and three seeded handles, compiled by <code>@screen-service/theme</code> in light and dark. Each card states its lowest measured contrast for text (goal 4.5:1) and controls (goal 3:1).</p>
<div class="grid">
${blocks.join('\n')}
</div>
</body></html>
`;

mkdirSync(outDir, { recursive: true });
const htmlPath = join(outDir, 'swatches.html');
writeFileSync(htmlPath, html);
console.log(`wrote ${htmlPath}`);

const chromium = '/usr/bin/chromium';
if (existsSync(chromium)) {
  const pngPath = join(outDir, 'swatches.png');
  execFileSync(
    chromium,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      '--hide-scrollbars',
      '--window-size=1120,2480',
      `--screenshot=${pngPath}`,
      `file://${htmlPath}`,
    ],
    { stdio: 'ignore', timeout: 60_000 },
  );
  console.log(`wrote ${pngPath}`);
} else {
  console.log('chromium not found at /usr/bin/chromium: skipped the PNG (apt-get install -y chromium)');
}
