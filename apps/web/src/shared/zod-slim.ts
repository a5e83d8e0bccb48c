// The parts of zod the Screen Lines catalog calls, imported by name so the bundle leaves out zod's locales
// and JSON Schema code (about 300 KB). The build points `zod` at this file for code under packages/.
import { array, boolean, enum as enumOf, literal, number, object, string, union } from 'zod/v4';

export const z = { array, boolean, enum: enumOf, literal, number, object, string, union };
