// Page entry (bundled by the test): the app's tables client and screen parser on `window`, for tests and the benchmark.
import { parse } from '@screen-service/screen-lines';
import { createMemoryStore, type OpLine, runOps } from '@screen-service/tables-engine';
import { moment, phoneTables } from '../../src/app/phone-tables.js';

Object.assign(window, { svc: { phoneTables, parse, moment, createMemoryStore, runOps } });

export type { OpLine };
