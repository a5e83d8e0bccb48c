// The one ordering of cells both stores follow: ASCII case folded text in code point order, empty cells last.
import type { Cell, ColumnType } from './model.js';

/** Lower-cases A-Z only, as SQLite's NOCASE collation and lower() do. */
export function foldAscii(text: string): string {
  return text.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

/** Compares strings by code point (the order of their UTF-8 bytes, SQLite's BINARY collation). */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // A surrogate (U+D800-DFFF) stands for a code point above U+FFFF, which sorts after all of U+E000-FFFF.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

/** Compares two non-empty cells of one column type. */
export function compareValues(a: Cell, b: Cell, type: ColumnType): number {
  switch (type) {
    case 'text':
      return compareCodePoints(foldAscii(String(a)), foldAscii(String(b)));
    case 'number':
      return (a as number) - (b as number);
    case 'bool':
      return Number(a) - Number(b);
    case 'date':
      return compareCodePoints(String(a), String(b));
  }
}

/** Sort order of one key: empty cells last in both directions. */
export function compareForSort(a: Cell, b: Cell, type: ColumnType, desc: boolean): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  const c = compareValues(a, b, type);
  return desc ? -c : c;
}
