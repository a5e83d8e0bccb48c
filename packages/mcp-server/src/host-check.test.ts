import { describe, expect, it } from 'vitest';
import { createHostCheck } from './host-check.js';

describe('createHostCheck', () => {
  it('takes the public host with its port and extra hosts, nothing else', () => {
    const ok = createHostCheck('https://svc.example.com/functions/v1/svc-mcp', ['internal:8787']);
    expect(ok('svc.example.com')).toBe(true);
    expect(ok('SVC.example.com')).toBe(true);
    expect(ok('internal:8787')).toBe(true);
    expect(ok('svc.example.com:444')).toBe(false);
    expect(ok('evil.example.com')).toBe(false);
    expect(ok('localhost')).toBe(false);
    expect(ok(undefined)).toBe(false);
  });

  it('on a loopback base URL takes any loopback host and port, never a rebound name', () => {
    const ok = createHostCheck('http://localhost:0/functions/v1/svc-mcp');
    expect(ok('127.0.0.1:41234')).toBe(true);
    expect(ok('localhost:8787')).toBe(true);
    expect(ok('[::1]:9000')).toBe(true);
    expect(ok('evil.example.com')).toBe(false);
    expect(ok('127.0.0.1.evil.example.com')).toBe(false);
  });
});
