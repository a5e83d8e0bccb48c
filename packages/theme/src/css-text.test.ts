import { describe, expect, it } from 'vitest';
import { formatCssVariables } from './css-text.js';

describe('formatCssVariables', () => {
  it('writes one rule, a declaration per line', () => {
    expect(formatCssVariables({ '--svc-bg': '#ffffff', '--svc-radius': '6px' }, '.thread')).toBe(
      '.thread {\n  --svc-bg: #ffffff;\n  --svc-radius: 6px;\n}\n',
    );
  });
  it('defaults to :root', () => {
    expect(formatCssVariables({ '--svc-bg': '#000000' })).toMatch(/^:root \{/);
  });
});
