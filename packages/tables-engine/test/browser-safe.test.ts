// The main entry must run in a browser: nothing it reaches may import Node built-ins or better-sqlite3.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');

function reach(file: string, seen = new Map<string, string[]>()): Map<string, string[]> {
  if (seen.has(file)) return seen;
  const text = readFileSync(join(src, file), 'utf8');
  const specifiers = [...text.matchAll(/^(?:import|export)[^'"]*from '([^']+)'/gm)].map((m) => m[1]!);
  seen.set(file, specifiers);
  for (const s of specifiers) if (s.startsWith('./')) reach(s.slice(2).replace(/\.js$/, '.ts'), seen);
  return seen;
}

describe('browser-safe main entry', () => {
  it('reaches no Node built-in and no better-sqlite3 from src/index.ts', () => {
    const graph = reach('index.ts');
    expect(graph.has('memory-store.ts')).toBe(true);
    const outside = [...graph.values()].flat().filter((s) => !s.startsWith('./'));
    expect([...new Set(outside)].sort()).toEqual([
      '@screen-service/screen-lines',
      '@screen-service/screen-lines/catalog',
    ]);
  });

  it('reaches no Node built-in, better-sqlite3 or sqlite-wasm from src/browser-sqlite.ts (the database is passed in)', () => {
    const graph = reach('browser-sqlite.ts');
    expect(graph.has('sql-store.ts')).toBe(true);
    const outside = [...graph.values()].flat().filter((s) => !s.startsWith('./'));
    expect([...new Set(outside)]).toEqual(['@screen-service/screen-lines']);
  });
});
