import { describe, expect, it } from 'vitest';
import { cleanLook } from './clean-look.js';
import { ThemeError } from './errors.js';
import { DEFAULT_PRESET, getPreset, isPresetName, PRESETS } from './presets.js';
import { PRESET_NAMES } from './vocabulary.js';

describe('PRESETS', () => {
  it('has 6 to 10 presets, one per name, each a look that cleans to itself', () => {
    expect(PRESET_NAMES.length).toBeGreaterThanOrEqual(6);
    expect(PRESET_NAMES.length).toBeLessThanOrEqual(10);
    expect(Object.keys(PRESETS)).toEqual([...PRESET_NAMES]);
    for (const name of PRESET_NAMES) {
      const { name: n, description, ...recipe } = PRESETS[name];
      expect(n).toBe(name);
      expect(description.length).toBeGreaterThan(10);
      expect(cleanLook(recipe)).toEqual(recipe);
    }
  });
  it('defaults to studio', () => {
    expect(DEFAULT_PRESET).toBe('studio');
  });
});

describe('getPreset / isPresetName', () => {
  it('finds a preset by exact name', () => {
    expect(getPreset('ocean').accent).toBe('#1b7fa6');
    expect(isPresetName('ocean')).toBe(true);
    expect(isPresetName('Ocean')).toBe(false);
    expect(isPresetName(1)).toBe(false);
  });
  it('throws UNKNOWN_PRESET listing the names', () => {
    expect(() => getPreset('neon')).toThrow(ThemeError);
    expect(() => getPreset('neon')).toThrow(
      expect.objectContaining({ code: 'UNKNOWN_PRESET', message: expect.stringContaining('studio, paper') }),
    );
  });
});
