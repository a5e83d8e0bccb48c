// The newest MCP Inspector's CLI against the real authenticated endpoint: its strict tool-schema
// portability check, and a call, as a developer checking the server would run them.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Stack, startStack } from './harness.js';

let stack: Stack;
let token: string;
let catalogDir: string;
beforeAll(async () => {
  stack = await startStack();
  ({ token } = await stack.newConnection('Inspector'));
  catalogDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-inspector-'));
});
afterAll(async () => {
  fs.rmSync(catalogDir, { recursive: true, force: true });
  await stack.close();
});

function inspect(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  // npx from the pinned Node; the CLI keeps a catalog file, which goes to a temp dir, not the home dir.
  const env = {
    ...process.env,
    PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH}`,
    MCP_CATALOG_PATH: path.join(catalogDir, 'mcp.json'),
  };
  const all = ['--no-install', 'mcp-inspector', '--cli', stack.mcpUrl, '--transport', 'http'];
  all.push('--header', `Authorization: Bearer ${token}`, ...args);
  return new Promise((resolve, reject) => {
    const child = spawn('npx', all, { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

it('lists the tools with no portability problem under --strict (svc_tap once drew 8)', async () => {
  const r = await inspect(['--method', 'tools/list', '--strict']);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).toBe('');
  const names = (JSON.parse(r.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name);
  expect(names).toEqual(
    expect.arrayContaining(['svc_show', 'svc_answers', 'svc_say', 'svc_threads', 'svc_tap']),
  );
}, 60_000);

it('calls svc_show and reads the screen id back', async () => {
  const r = await inspect([
    '--method',
    'tools/call',
    '--tool-name',
    'svc_show',
    '--tool-arg',
    'lines=choose@ok "Ok?" Yes|No',
  ]);
  expect(r.code, r.stderr).toBe(0);
  const result = JSON.parse(r.stdout) as {
    isError?: boolean;
    structuredContent: { screen_id: string; tap_ids: string[] };
  };
  expect(result.isError).toBeFalsy();
  expect(result.structuredContent).toMatchObject({
    screen_id: expect.stringMatching(/^scr_/),
    tap_ids: ['ok'],
  });
  expect(stack.errors).toEqual([]);
}, 60_000);
