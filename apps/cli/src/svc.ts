// Process entry of the `svc` bin: check Node first, then load and run the CLI (see main.ts for why
// the rest is imported dynamically).
import { nodeVersionRefusal } from '@screen-service/server/node-guard';

const refusal = nodeVersionRefusal(process.versions.node, 'svc');
if (refusal) {
  process.stderr.write(`${refusal}\n`);
  process.exit(1);
}
const rest = new URL('./svc-main.js', import.meta.url).href;
await import(rest);
