// Builds the web app: esbuild bundles each page (minified, local files only, no network), copies public/, prints sizes.
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Plugin } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const pub = join(dist, 'public');

rmSync(dist, { recursive: true, force: true });
mkdirSync(pub, { recursive: true });
cpSync(join(root, 'public'), pub, { recursive: true });

// The Screen Lines catalog imports zod's `z` namespace, which keeps every zod locale in a browser bundle;
// pointing `zod` at a file that imports only the builders it calls saves about 350 KB (ADR 0072).
const slimZod = join(root, 'src', 'shared', 'zod-slim.ts');
const zodBuilders = join(root, 'src', 'shared', 'zod-builders.ts');
const zodSlim: Plugin = {
  name: 'zod-slim',
  setup(b) {
    // The MCP SDK and ext-apps import `zod/v4` as a namespace (`z`), which keeps its JSON Schema code and
    // compiler; they take the slim file too (ADR 0074).
    b.onResolve({ filter: /^zod(\/v4)?$/ }, (args) =>
      args.importer === zodBuilders ? undefined : { path: slimZod },
    );
    // Anything still reaching zod's locale index (about 250 KB) loads it empty. English, the default, stays:
    // zod's schemas import it directly.
    b.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({
      contents: 'export {};',
      loader: 'js',
    }));
  },
};

// What every browser bundle of the app shares.
const browserBundle = {
  outdir: pub,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  sourcemap: true,
  legalComments: 'none',
  logLevel: 'warning',
  // tables-engine is built with code splitting, so its entries also `import './chunk-...js'` for load
  // order; the package declares no side effects, so those bare imports are rightly dropped (the chunks'
  // code still arrives through the named imports). Saying so on every build is noise.
  logOverride: { 'ignored-bare-import': 'silent' },
} as const;

const pages = ['playground', 'app', 'connect'].filter((p) => existsSync(join(root, 'src', p, 'main.ts')));
await build({
  ...browserBundle,
  entryPoints: Object.fromEntries(pages.map((p) => [p, join(root, 'src', p, 'main.ts')])),
  plugins: [zodSlim],
});
// The phone's tables run in a module worker (SQLite WebAssembly on OPFS); the wasm file sits beside it, where
// sqlite-wasm looks for it (`new URL('sqlite3.wasm', import.meta.url)`). ADR 0125.
await build({
  ...browserBundle,
  entryPoints: { 'tables-worker': join(root, 'src', 'tables', 'worker.ts') },
});
cpSync(
  join(dirname(fileURLToPath(import.meta.resolve('@sqlite.org/sqlite-wasm'))), 'sqlite3.wasm'),
  join(pub, 'sqlite3.wasm'),
);
if (existsSync(join(root, 'src', 'sw.ts')))
  await build({
    entryPoints: { sw: join(root, 'src', 'sw.ts') },
    outdir: pub,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    logLevel: 'warning',
  });
await build({
  entryPoints: [join(root, 'src', 'index.ts')],
  outfile: join(dist, 'index.js'),
  // One file: the entry's own modules (security headers) inlined; node built-ins stay imports.
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  logLevel: 'warning',
});
writeFileSync(
  join(dist, 'index.d.ts'),
  [
    '/** Absolute path of the built static files (index.html, app.js, playground, manifest, service worker). */',
    'export declare const webRoot: string;',
    '/** The in-chat view `ui://svc/screen`: one self-contained HTML file (MIME text/html;profile=mcp-app). */',
    'export declare function readScreenApp(): string;',
    '/** Short SHA-256 of each built bundle (app, connect, playground), for the host API `session` `app_builds`. */',
    'export declare function appBuilds(root?: string): Record<string, string>;',
    '/** How the tool server offers the in-chat view: HTML, resource domains, optional image CDN template. */',
    'export declare function screenAppResource(o: { baseUrl: string; imageCdn?: string | undefined }): {',
    '  html: string; resourceDomains: string[]; imageCdn?: string; description: string; prefersBorder: boolean;',
    '};',
    '/** Options for `express.static(webRoot, webStaticOptions())`. */',
    'export declare function webStaticOptions(): {',
    '  maxAge: string; extensions: string[];',
    '  setHeaders: (res: { setHeader(name: string, value: string): unknown }, file: string) => void;',
    '};',
    "/** The pages' Content-Security-Policy (frame-ancestors 'none'). */",
    'export declare const PAGE_CSP: string;',
    "/** PAGE_CSP with an image CDN template's origin (SVC_IMAGE_CDN) added to img-src. */",
    'export declare function pageCsp(o?: { imageCdn?: string | undefined }): string;',
    '/** The headers every answer carries: CSP, X-Frame-Options, nosniff, Referrer-Policy. */',
    'export declare const SECURITY_HEADERS: Readonly<Record<string, string>>;',
    '/** Middleware (Express or node:http) that sets SECURITY_HEADERS (with `imageCdn`, its origin in img-src) on every answer. */',
    "export declare function securityHeaders(o?: { imageCdn?: string | undefined }): (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse, next: () => void) => void;",
    '',
  ].join('\n'),
);

// The in-chat view: the renderer and the host bridge inlined into one HTML file (no external requests).
const view = await build({
  entryPoints: [join(root, 'src', 'screen-app', 'main.ts')],
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  legalComments: 'none',
  charset: 'utf8',
  write: false,
  plugins: [zodSlim],
  logLevel: 'warning',
});
const script = view.outputFiles[0]!.text.replace(/<\/(script)/gi, '<\\/$1');
const html = readFileSync(join(root, 'src', 'screen-app', 'screen-app.html'), 'utf8').replace(
  '/*SCRIPT*/',
  () => script,
);
writeFileSync(join(dist, 'screen-app.html'), html);
const htmlBytes = Buffer.byteLength(html);
console.log(
  `screen-app.html: ${(htmlBytes / 1024).toFixed(1)} KB, gzipped ${(gzipSync(html).length / 1024).toFixed(1)} KB (goal 250 KB)`,
);

for (const page of [...pages, 'tables-worker']) {
  const js = readFileSync(join(pub, `${page}.js`));
  console.log(
    `${page}.js: ${(js.length / 1024).toFixed(1)} KB, gzipped ${(gzipSync(js).length / 1024).toFixed(1)} KB`,
  );
}
