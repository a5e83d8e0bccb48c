// The bench's mixed corpus (every kind of line an agent writes) and the frozen reference parser, built on demand.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const templates = [
  (i) => `text **Step ${i}**: drink some water and stretch for a minute`,
  (i) => `timer ${(i % 50) + 1}m Stretch break ${i}`,
  (i) => `choose "Lunch ${i}?" Soup|Salad|Pizza|"Hot dog"`,
  (i) => `confirm "Send report ${i}?" Send|Wait`,
  () => 'buttons "What next?" Continue|Pause|Stop layout=stack',
  () => 'checkin mood "How do you feel?"',
  () => 'checklist "Before you leave" Keys|Wallet|Phone|Charger',
  () => 'ask "Weight today?" type=number placeholder=kg',
  () => 'form "Visit" name:text age:number day:date',
  (i) => `chart bar Mon=${i % 9}|Tue=5|Wed=2|Thu=7 "Runs" unit=km`,
  (i) => `stat ${i}.5 Weight unit=kg change=-0.4 good=down`,
  (i) => `progress ${i % 10}/10 Chapters`,
  () => 'table create weights Day:date Weight:number:kg Note:text Done:bool',
  (i) => `put weights Day=today-${i % 30} Weight=${70 + (i % 10)}.5 Note="after run" +Done`,
  (i) => `put shopping item${i} Done=on Qty=${i % 5}`,
  () => 'query weights where=Day>=today-7|Note~run sort=-Day limit=7 as chart line x=Day y=Weight min=60',
  () => 'query runs group=Day:week sum=Km +count as stat label="Km this week" good=up',
  () => 'image https://example.com/photos/cat.jpg "Our cat"',
  () => 'link https://example.com/recipe "The recipe"',
  () => 'divider',
];

/** `lines` mixed lines joined by \n, and how many kinds of line they cycle through. */
export function corpus(lines) {
  const text = Array.from({ length: lines }, (_, i) => templates[i % templates.length](i)).join('\n');
  return { text, kinds: templates.length };
}

/** Bundles test/reference (the parser before issue 25, chevrotain and zod included) and returns its parse. */
export async function loadReference() {
  const outfile = join(mkdtempSync(join(tmpdir(), 'screen-lines-reference-')), 'reference.mjs');
  await build({
    entryPoints: [new URL('../test/reference/parse.ts', import.meta.url).pathname],
    bundle: true,
    format: 'esm',
    platform: 'node',
    outfile,
    logLevel: 'silent',
  });
  return (await import(pathToFileURL(outfile).href)).parse;
}
