// The start-up hint for a localhost base URL: a phone cannot open it; say how to set SVC_BASE_URL.
import type { NetworkInterfaceInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import { phoneReachHint } from '../src/phone-reach.js';

const nic = (address: string, internal: boolean, family: 'IPv4' | 'IPv6' = 'IPv4') =>
  ({ address, internal, family, netmask: '', mac: '', cidr: null }) as unknown as NetworkInterfaceInfo;
const LAN = {
  lo: [nic('127.0.0.1', true)],
  eth0: [nic('fe80::1', false, 'IPv6'), nic('192.168.7.31', false)],
};

describe('phoneReachHint', () => {
  it("names this computer's network address for a localhost base URL", () => {
    expect(phoneReachHint('http://localhost:8787', '0.0.0.0', LAN)).toBe(
      'A phone cannot open http://localhost:8787: it names this computer, and the sign-in QR codes and links point there. ' +
        'To use your phone, start it with SVC_BASE_URL=http://192.168.7.31:8787 (this computer on your network) or its public https address.',
    );
  });

  it('adds HOST=0.0.0.0 when the server listens on the loopback only', () => {
    expect(phoneReachHint('http://127.0.0.1:9000', '127.0.0.1', LAN)).toContain(
      'SVC_BASE_URL=http://192.168.7.31:9000 HOST=0.0.0.0 (this computer on your network)',
    );
  });

  it('falls back to an example address on a machine with no network address', () => {
    expect(phoneReachHint('http://localhost:8787', '0.0.0.0', { lo: [nic('127.0.0.1', true)] })).toContain(
      "SVC_BASE_URL=http://192.168.1.20:8787 (this computer's address on your network)",
    );
  });

  it('says nothing when the base URL is already reachable', () => {
    expect(phoneReachHint('https://svc.example.com', '0.0.0.0', LAN)).toBeNull();
    expect(phoneReachHint('http://192.168.7.31:8787', '0.0.0.0', LAN)).toBeNull();
  });
});
