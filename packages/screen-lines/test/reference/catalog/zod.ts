// The zod builders the catalog calls, imported by name: a bundler keeps these and drops the rest of zod
// (locales, JSON Schema conversion, the compiler), which `import { z } from 'zod'` would keep.
import { array, boolean, enum as enumOf, literal, number, object, string, union } from 'zod';

/** The builders as one object, so catalog entries read `z.object(...)` as in zod's own docs. */
export const z = { array, boolean, enum: enumOf, literal, number, object, string, union };
