import { describe, expect, it } from 'vitest';
import { ServiceError } from '../kernel/errors.js';
import { checkClientSafe, cleanSandboxReport, type SandboxReport } from './sandbox-report.js';

const SAFE: SandboxReport = {
  terminal: 'off',
  files: 'off',
  reach: [],
  memory: 'off',
  runner: 'api',
  profile: 'own',
  extra_keys: 0,
};

describe('checkClientSafe (doc2 five rules)', () => {
  it('passes a report that keeps every rule', () => {
    expect(checkClientSafe(cleanSandboxReport(SAFE))).toEqual({ client_safe: true, broken: [] });
    for (const terminal of ['container', 'remote']) {
      expect(checkClientSafe({ ...SAFE, terminal } as never).client_safe).toBe(true);
    }
    expect(checkClientSafe({ ...SAFE, files: 'sandbox' }).client_safe).toBe(true);
  });

  it('names each broken rule; missing or unknown values break their rule', () => {
    expect(checkClientSafe({}).broken).toEqual(['profile', 'sandbox', 'reach', 'memory', 'runner']);
    expect(checkClientSafe({ ...SAFE, terminal: 'telnet' } as never).broken).toEqual(['sandbox']);
    expect(checkClientSafe({ ...SAFE, extra_keys: 1 }).broken).toEqual(['profile']);
    expect(checkClientSafe({ ...SAFE, reach: ['mcp:gmail'] }).broken).toEqual(['reach']);
    expect(checkClientSafe({ ...SAFE, memory: 'per-user' }).broken).toEqual(['memory']);
    expect(checkClientSafe({ ...SAFE, runner: 'cli-agent' }).broken).toEqual(['runner']);
  });

  it('cleans unknown keys and refuses what is not an object or over 2 KB', () => {
    expect(cleanSandboxReport({ ...SAFE, client_safe: true, secret: 'x' })).toEqual(SAFE);
    expect(() => cleanSandboxReport([])).toThrow(ServiceError);
    expect(() => cleanSandboxReport({ reach: ['x'.repeat(2100)] })).toThrow(/2 KB/);
  });
});
