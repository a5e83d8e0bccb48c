// The MCP conformance suite (server mode) against the real authenticated endpoint, through the auth proxy.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startAuthProxy } from './auth-proxy.js';
import { type Stack, startStack } from './harness.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const expectedFailures = path.join(here, 'conformance', 'expected-failures.yml');

let stack: Stack;
let proxy: Awaited<ReturnType<typeof startAuthProxy>>;
beforeAll(async () => {
  // The suite makes many calls on one connection: raise the bucket as a deployment's config would.
  stack = await startStack({ rateLimit: { burst: 10_000, perMinute: 10_000 } });
  const { token } = await stack.newConnection('Conformance');
  proxy = await startAuthProxy(stack.mcpUrl, `Bearer ${token}`);
});
afterAll(async () => {
  await proxy.close();
  await stack.close();
});

it('passes @modelcontextprotocol/conformance server scenarios, failing only the listed fixture scenarios', async () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-conformance-'));
  // npx from the pinned Node: put this process's Node (24, from `npm test`) first on PATH.
  const env = {
    ...process.env,
    PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH}`,
  };
  const args = ['--no-install', 'conformance', 'server', '--url', proxy.url, '--suite', 'all'];
  args.push('--expected-failures', expectedFailures, '-o', out);
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn('npx', args, { env, cwd: here });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    child.on('error', reject);
    child.on('close', (c) => resolve({ code: c, output }));
  });
  if (!process.env.KEEP_CONFORMANCE) fs.rmSync(out, { recursive: true, force: true });
  expect(code, output).toBe(0);
  expect(stack.errors).toEqual([]);
}, 120_000);
