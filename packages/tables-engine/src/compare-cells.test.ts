import { describe, expect, it } from 'vitest';
import { compareCodePoints, compareForSort, foldAscii } from './compare-cells.js';

describe('cell order', () => {
  it('folds ASCII only, as SQLite NOCASE does', () => {
    expect(foldAscii('ÀBc')).toBe('Àbc');
  });

  it('orders strings by code point, astral characters after U+FFFF', () => {
    expect(compareCodePoints('\uffee', '𝔸')).toBeLessThan(0);
    expect(compareCodePoints('a', 'ab')).toBeLessThan(0);
  });

  it('puts empty cells last in both directions', () => {
    expect(compareForSort(null, 1, 'number', false)).toBe(1);
    expect(compareForSort(null, 1, 'number', true)).toBe(1);
    expect(compareForSort(2, 1, 'number', true)).toBeLessThan(0);
  });
});
