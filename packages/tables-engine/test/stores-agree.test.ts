// Property test: random tables and random queries give the same answers on the memory and SQLite stores.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { createSqliteStore } from '../src/sqlite.js';
import { runStoresAgree } from './stores-agree.js';

const dir = mkdtempSync(join(tmpdir(), 'tables-agree-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

runStoresAgree({ name: 'SQLite', create: () => createSqliteStore(join(dir, `s${++files}.sqlite`)) });
