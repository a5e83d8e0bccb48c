// Draws the app's PNG icons from public/icon.svg with Chromium (playwright-core): 192 and 512 px as the SVG
// draws them, a 512 px maskable one (full bleed, the mark inside the centre 80% safe zone) and the 180 px
// apple-touch-icon (full bleed: iOS rounds the corners itself and fills transparency with black).
// Run `npm run icons -w apps/web` after changing the SVG and commit the PNGs in public/.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const pub = join(dirname(fileURLToPath(import.meta.url)), '..', 'public');
const svg = readFileSync(join(pub, 'icon.svg'), 'utf8');
const BRAND = /<rect width="64" height="64" rx="14" fill="(#[0-9a-f]{6})"\/>/i.exec(svg)?.[1];
if (!BRAND) throw new Error('icon.svg: expected its first shape to be the 64×64 brand square');
const mark = svg.slice(svg.indexOf('/>', svg.indexOf('<rect')) + 2, svg.lastIndexOf('</svg>'));

/** The square without rounded corners, the mark scaled by `scale` around the centre. */
const fullBleed = (scale: number) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="${BRAND}"/>` +
  `<g transform="translate(32 32) scale(${scale}) translate(-32 -32)">${mark}</g></svg>`;

const ICONS: { file: string; size: number; svg: string }[] = [
  { file: 'icon-192.png', size: 192, svg },
  { file: 'icon-512.png', size: 512, svg },
  // The mark's diagonal is about 81% of the side; at 0.8 it fits the maskable safe circle (80% across).
  { file: 'icon-maskable-512.png', size: 512, svg: fullBleed(0.8) },
  { file: 'apple-touch-icon.png', size: 180, svg: fullBleed(1) },
];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
try {
  for (const icon of ICONS) {
    const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size } });
    const data = `data:image/svg+xml;base64,${Buffer.from(icon.svg).toString('base64')}`;
    await page.setContent(
      `<!doctype html><style>html,body{margin:0;background:transparent}img{display:block;width:${icon.size}px;height:${icon.size}px}</style><img src="${data}" alt="">`,
    );
    await page.locator('img').evaluate((img: HTMLImageElement) => img.decode());
    writeFileSync(join(pub, icon.file), await page.screenshot({ omitBackground: true }));
    console.log(`${icon.file}: ${icon.size}×${icon.size}`);
    await page.close();
  }
} finally {
  await browser.close();
}
