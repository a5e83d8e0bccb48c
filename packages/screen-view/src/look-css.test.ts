import { compilePalette } from '@screen-service/theme';
import { describe, expect, it } from 'vitest';
import { lookCss, setScheme } from './look-css.js';

describe('lookCss', () => {
  it('writes light variables, dark ones for a dark device, and lets data-scheme follow the host', () => {
    const { light, dark } = compilePalette({ preset: 'ocean' });
    const css = lookCss({ preset: 'ocean' }, { selector: '.t' });
    expect(css).toContain(`.t {\n  --svc-scheme: light;`);
    expect(css).toContain(`--svc-bg: ${light['--svc-bg']};`);
    expect(css).toContain('@media (prefers-color-scheme: dark) {\n.t:not([data-scheme="light"]) {');
    expect(css).toContain(`.t[data-scheme="dark"] {\n  --svc-scheme: dark;`);
    expect(css).toContain(`--svc-bg: ${dark['--svc-bg']};`);
  });

  it('setScheme sets or clears data-scheme', () => {
    const el = document.createElement('div');
    setScheme(el, 'dark');
    expect(el.dataset.scheme).toBe('dark');
    setScheme(el, 'auto');
    expect(el.dataset.scheme).toBeUndefined();
  });
});
