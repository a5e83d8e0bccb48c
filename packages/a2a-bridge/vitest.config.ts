// Tests: real A2A servers on 127.0.0.1 and real bridge processes; files run in parallel forks.
import { defineTestConfig } from '../../config/vitest.base.js';

export default defineTestConfig();
