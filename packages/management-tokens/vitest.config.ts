import { defineTestConfig } from '../../config/vitest.base.js';

export default defineTestConfig();
