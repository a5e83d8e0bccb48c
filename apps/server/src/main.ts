// Process entry of the server (`node dist/main.js`): check Node first, then load the service.
// The rest is imported dynamically through a path the bundler leaves alone, so nothing that needs
// Node 24 (express, zod, better-sqlite3) is evaluated before the check on an older Node.
import { nodeVersionRefusal } from './node-guard.js';

const refusal = nodeVersionRefusal(process.versions.node, 'server');
if (refusal) {
  console.error(refusal);
  process.exit(1);
}
const rest = new URL('./serve-main.js', import.meta.url).href;
await import(rest);
