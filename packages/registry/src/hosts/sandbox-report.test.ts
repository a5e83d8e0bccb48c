import { describe, expect, it } from 'vitest';
import { ServiceError } from '../kernel/errors.js';
import type { AgentRecord } from '../model/records.js';
import { checkClientSafe, cleanSandboxReport, notClientSafe, type SandboxReport } from './sandbox-report.js';

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

describe('notClientSafe: what the owner must do, by the kind of agent (issue 38)', () => {
  const agent = (kind: AgentRecord['kind'], card: AgentRecord['card'] = null) =>
    ({ name: 'Helper', handle: 'helper', kind, card, sandbox: null, clientSafe: false }) as AgentRecord;
  it('names the agent, the rule and, for each shipped kind without a report, the setting or the way out', () => {
    const say = (a: AgentRecord) => notClientSafe(a).message;
    expect(say(agent('hostfw'))).toMatch(/^Helper \(helper\) is not client-safe; failed rule: no_report/);
    expect(say(agent('hostfw'))).toContain('`svc host run-echo` sends one');
    expect(say(agent('hostfw'))).toContain('runHost({ sandbox: (profile) => report })');
    expect(say(agent('hostfw', { name: 'Remote', skills: [] }))).toContain(
      'An A2A agent bridged by svc-a2a cannot be shared',
    );
    expect(say(agent('mcp'))).toContain('An MCP agent is the tool client itself');
    expect(say(agent('hosted'))).toContain('A native agent runs on the service');
    expect(notClientSafe({ ...agent('hostfw'), sandbox: { ...SAFE, memory: 'shared' } }).message).toContain(
      'failed rule: memory (memory off). Fix the host profile',
    );
  });
});
