// Keeps the README's vocabulary, variable and error tables in step with the code.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LOOK_WORDS, PALETTE_VARIABLES, STYLE_WORDS } from '../src/index.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const errors = readFileSync(new URL('../src/errors.ts', import.meta.url), 'utf8');

describe('README', () => {
  it('documents every look word and style word', () => {
    for (const words of [...Object.values(LOOK_WORDS), ...Object.values(STYLE_WORDS)]) {
      for (const word of words) expect(readme).toContain(`\`${word}\``);
    }
  });
  it('documents every palette variable', () => {
    for (const name of Object.keys(PALETTE_VARIABLES)) expect(readme).toContain(`\`${name}\``);
  });
  it('documents every error code', () => {
    const codes = [...errors.matchAll(/'([A-Z_]+)'/g)].map((m) => m[1]);
    expect(codes.length).toBeGreaterThanOrEqual(5);
    for (const code of [...codes, 'COMMANDS_NOT_A_LIST']) expect(readme).toContain(`\`${code}\``);
  });
});
