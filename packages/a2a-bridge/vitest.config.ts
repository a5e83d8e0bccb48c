// Tests: real A2A servers on 127.0.0.1 and real bridge processes; files run in parallel forks.
import { defineTestConfig } from '../../config/vitest.base.js';

// A test drives the person's app in Chromium: the global set-up installs Debian's chromium first when it is
// missing (config/chromium-setup.ts), as in apps/web.
export default defineTestConfig({ globalSetup: ['../../config/chromium-setup.ts'] });
