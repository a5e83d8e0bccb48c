// Node entry of @screen-service/web: where the built static files are, and the in-chat view's HTML.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Absolute path of the built static files (index.html, app.js, playground, manifest, service worker). */
export const webRoot: string = fileURLToPath(new URL('./public/', import.meta.url));

/** The in-chat view `ui://svc/screen`: one self-contained HTML file (MIME text/html;profile=mcp-app). */
export function readScreenApp(): string {
  return readFileSync(new URL('./screen-app.html', import.meta.url), 'utf8');
}
