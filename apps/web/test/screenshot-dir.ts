// Where browser tests write screenshots: docs/screenshots with SVC_SCREENSHOTS=1 (npm run screenshots),
// otherwise a temporary folder, so an ordinary test run still takes them but never rewrites tracked files.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const docs = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'docs', 'screenshots');

export const screenshotDir: string =
  process.env.SVC_SCREENSHOTS === '1' ? docs : mkdtempSync(join(tmpdir(), 'svc-screenshots-'));
