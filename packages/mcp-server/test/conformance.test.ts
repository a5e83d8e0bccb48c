// The MCP conformance suite (server mode) against the real authenticated endpoint, through the auth proxy:
// each protocol revision's requirement set, with the suite's fixtures registered (in tests only).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startAuthProxy } from './auth-proxy.js';
import { registerConformanceFixtures } from './conformance/fixtures.js';
import { conformanceRequestState } from './conformance/input-fixtures.js';
import { type Stack, startStack } from './harness.js';

const here = path.dirname(fileURLToPath(import.meta.url));

let stack: Stack;
beforeAll(async () => {
  // Doc1's default bucket (burst 60, 30 a minute): only tool calls are charged, so the suite's many
  // handshakes stay within it, as a real client's reconnects do. Each revision runs on its own connection.
  stack = await startStack({
    register: registerConformanceFixtures,
    requestState: { verify: conformanceRequestState.verify },
  });
});
afterAll(async () => {
  await stack.close();
});

function runSuite(args: string[]): Promise<{ code: number | null; output: string }> {
  // npx from the pinned Node: put this process's Node (24, from `npm test`) first on PATH.
  const env = {
    ...process.env,
    PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH}`,
  };
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['--no-install', 'conformance', 'server', ...args], { env, cwd: here });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

for (const revision of ['2025-11-25', '2026-07-28']) {
  it(`passes the ${revision} requirement set, failing only the scenarios listed with their reasons`, async () => {
    const { token } = await stack.newConnection(`Conformance ${revision}`);
    const proxy = await startAuthProxy(stack.mcpUrl, `Bearer ${token}`);
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-conformance-'));
    const expected = path.join(here, 'conformance', `expected-failures-${revision}.yml`);
    const args = ['--url', proxy.url, '--requirements', revision, '--expected-failures', expected, '-o', out];
    const { code, output } = await runSuite(args).finally(() => proxy.close());
    if (!process.env.KEEP_CONFORMANCE) fs.rmSync(out, { recursive: true, force: true });
    expect(code, output).toBe(0);
    expect(stack.errors).toEqual([]);
  }, 180_000);
}
