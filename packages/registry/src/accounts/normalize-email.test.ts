import { describe, expect, it } from 'vitest';
import { normalizeEmail } from './normalize-email.js';

describe('normalizeEmail', () => {
  it('trims and lower-cases, and is idempotent', () => {
    expect(normalizeEmail('  Ada@Example.COM\t')).toBe('ada@example.com');
    expect(normalizeEmail(normalizeEmail(' B@X.io '))).toBe('b@x.io');
  });
});
