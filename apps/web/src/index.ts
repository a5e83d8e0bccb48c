// Node entry of @screen-service/web: where the built static files are, the in-chat view's HTML, and the
// builds' short hashes.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Absolute path of the built static files (index.html, app.js, playground, manifest, service worker). */
export const webRoot: string = fileURLToPath(new URL('./public/', import.meta.url));

/** The in-chat view `ui://svc/screen`: one self-contained HTML file (MIME text/html;profile=mcp-app). */
export function readScreenApp(): string {
  return readFileSync(new URL('./screen-app.html', import.meta.url), 'utf8');
}

/**
 * The person's app builds served from {@link webRoot}, for the host API's `session` (`app_builds`): a short
 * SHA-256 of each bundle, so a host can tell when the app changed. Bundles not built are left out.
 */
export function appBuilds(root: string = webRoot): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ['app', 'connect', 'playground'] as const) {
    try {
      const bytes = readFileSync(join(root, `${name}.js`));
      out[name] = createHash('sha256').update(bytes).digest('hex').slice(0, 12);
    } catch {
      // not built: nothing to report for it
    }
  }
  return out;
}

/**
 * How the in-chat view is offered by the tool server (`ui://svc/screen`): its HTML, images only from the
 * service's own origin (photo links) and, when given, an image-generation CDN template with `{prompt}`.
 */
export function screenAppResource(o: { baseUrl: string; imageCdn?: string | undefined }) {
  return {
    html: readScreenApp(),
    resourceDomains: [o.baseUrl],
    ...(o.imageCdn ? { imageCdn: o.imageCdn } : {}),
    description: 'Shows the screen an AI app put in the thread; taps go back as the next message.',
    prefersBorder: true,
  };
}

/**
 * Options for serving {@link webRoot} as static files (`express.static(webRoot, webStaticOptions())`):
 * short caching, `{base}/connect` answered by connect.html, and the service worker never cached by HTTP
 * (a new worker must reach phones at once).
 */
export function webStaticOptions() {
  return {
    maxAge: '5m',
    extensions: ['html'],
    setHeaders: (res: { setHeader(name: string, value: string): unknown }, file: string): void => {
      if (file.endsWith('sw.js')) res.setHeader('cache-control', 'no-cache');
    },
  };
}
export { PAGE_CSP, pageCsp, SECURITY_HEADERS, securityHeaders } from './security-headers.js';
