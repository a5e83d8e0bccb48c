// Node entry of @screen-service/web: where the built static files are, for apps/server to serve.
import { fileURLToPath } from 'node:url';

/** Absolute path of the built static files (index.html, app.js, playground, manifest, service worker). */
export const webRoot: string = fileURLToPath(new URL('./public/', import.meta.url));
