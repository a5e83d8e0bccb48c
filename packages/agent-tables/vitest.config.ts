import { defineConfig } from 'vitest/config';
import { defineTestConfig, workspaceSources } from '../../config/vitest.base.js';

// The test kit and the stores sit above this package: its tests read them (and this package) from source.
export default defineConfig({ ...defineTestConfig(), resolve: { alias: workspaceSources() } });
