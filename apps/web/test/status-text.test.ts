// The agent status words on the phone: what happened and what to do, not a bare "Offline".
import { describe, expect, it } from 'vitest';
import { ago, statusLook, statusText } from '../src/app/shell.js';

const NOW = Date.parse('2026-11-23T12:00:00Z');
const connector = (kind: string, last: string | null, removed: string | null = null) => ({
  id: 'con_1',
  name: 'Laptop',
  kind,
  last_seen_at: last,
  removed_at: removed,
});

describe('statusText', () => {
  it('says an MCP agent is idle and when it last called instead of "Offline" (MCP has no heartbeat)', () => {
    const agent = { status: 'offline' as const, connector: connector('mcp', '2026-11-23T11:55:00Z') };
    expect(statusText(agent, NOW)).toBe('Idle · last call 5 min ago');
    expect(statusText({ ...agent, connector: connector('mcp', null) }, NOW)).toBe('Idle · no call yet');
    // Idle is its own look (a neutral dot), not the offline one (issue 38).
    expect(statusLook(agent)).toBe('idle');
    expect(statusLook({ status: 'offline', connector: connector('hostfw', '2026-11-23T11:55:00Z') })).toBe(
      'offline',
    );
    expect(statusLook({ ...agent, connector: connector('mcp', null, '2026-11-23T11:58:00Z') })).toBe(
      'removed',
    );
  });

  it('says a removed connection was removed and to pair again, whatever its kind', () => {
    for (const kind of ['mcp', 'hostfw']) {
      const agent = {
        status: 'offline' as const,
        connector: connector(kind, '2026-11-23T11:00:00Z', '2026-11-23T11:30:00Z'),
      };
      expect(statusText(agent, NOW)).toBe('Connection removed · pair again in settings');
    }
  });

  it('keeps the plain words otherwise', () => {
    expect(
      statusText({ status: 'offline', connector: connector('hostfw', '2026-11-23T11:00:00Z') }, NOW),
    ).toBe('Offline');
    expect(
      statusText({ status: 'connected', connector: connector('mcp', '2026-11-23T11:59:00Z') }, NOW),
    ).toBe('Connected');
    expect(statusText({ status: 'pending', connector: null }, NOW)).toBe('Waiting for pairing');
  });

  it('ago() rounds to the largest unit', () => {
    expect(ago('2026-11-23T11:59:30Z', NOW)).toBe('just now');
    expect(ago('2026-11-23T09:00:00Z', NOW)).toBe('3 h ago');
    expect(ago('2026-11-22T11:00:00Z', NOW)).toBe('1 day ago');
    expect(ago('2026-11-20T12:00:00Z', NOW)).toBe('3 days ago');
  });
});
