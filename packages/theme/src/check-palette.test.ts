import { describe, expect, it } from 'vitest';
import { checkPalette } from './check-palette.js';
import { compilePalette } from './compile-palette.js';
import { CONTRAST_RULES } from './palette-variables.js';

describe('checkPalette', () => {
  it('measures every rule', () => {
    const checks = checkPalette(compilePalette({ preset: 'ocean' }).light);
    expect(checks).toHaveLength(CONTRAST_RULES.length);
    for (const check of checks) expect(check.ok).toBe(check.ratio >= check.min);
  });
  it('reports a pair that falls short', () => {
    const palette = { ...compilePalette({}).light, '--svc-text': '#eeeeee' };
    const failing = checkPalette(palette).filter((c) => !c.ok);
    expect(failing.map((c) => c.fg)).toContain('--svc-text');
    expect(failing.find((c) => c.fg === '--svc-text')!.ratio).toBeLessThan(1.5);
  });
});
