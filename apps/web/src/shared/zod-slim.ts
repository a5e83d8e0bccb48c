// What the browser builds load for `zod` and `zod/v4`: only the builders in zod-builders.ts, by name and as
// `z`, so a bundle leaves out what zod's `z` namespace would keep (locales, JSON Schema conversion, the JIT
// compiler: about 350 KB; ADR 0072, ADR 0074). A builder missing there is undefined at load time, which the
// browser tests catch: the catalog and the MCP SDK build their schemas when their modules load.
import * as z from './zod-builders.js';

export * from './zod-builders.js';
export { z };
