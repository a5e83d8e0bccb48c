// `svc relay` as a process: its help, its usage errors, and the MCP wire passed through a wrapped stdio server
// with stdout kept clean for JSON-RPC (nothing reaches the service until an ask, so none runs here).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runSvc, SVC_BIN } from './run-svc.js';

const ECHO = fileURLToPath(new URL('./fixtures/echo-server.mjs', import.meta.url));
let dir: string;
let tokenFile: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-relay-cli-'));
  tokenFile = path.join(dir, 'token');
  fs.writeFileSync(tokenFile, 'svc_ct_not-used-until-an-ask\n', { mode: 0o600 });
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

it('svc relay --help prints the usage, the answer modes and a client entry; svc --help lists it', async () => {
  const help = await runSvc(['relay', '--help'], {});
  expect(help.code).toBe(0);
  expect(help.stdout).toContain('svc relay [options] -- <server command> [args...]');
  expect(help.stdout).toContain('phone (default) | client-first | both');
  expect(help.stdout).toContain('"command": "npx", "args": ["svc", "relay"');
  expect((await runSvc(['--help'], {})).stdout).toMatch(/relay \[options\] -- <server command\.\.\.>/);
});

it('usage errors exit 2 and name what to fix', async () => {
  const base = ['relay', '--service', 'http://127.0.0.1:9/functions/v1/svc-mcp', '--token-file', tokenFile];
  const typo = await runSvc(['relay', '--servce', 'x'], {});
  expect(typo.code).toBe(2);
  expect(typo.stderr).toContain('Did you mean --service?');
  const mode = await runSvc([...base, '--answer', 'sometimes', '--', 'node', ECHO], {});
  expect(mode.code).toBe(2);
  expect(mode.stderr).toContain('--answer must be phone, client-first or both');
  const none = await runSvc(base, {});
  expect(none.code).toBe(2);
  expect(none.stderr).toContain('Give the server to wrap: -- <command> or --url <url>');
  const noToken = await runSvc(['relay', '--service', 'http://127.0.0.1:9/x', '--', 'node', ECHO], {});
  expect(noToken.code).toBe(2);
  expect(noToken.stderr).toContain('SVC_RELAY_TOKEN');
});

it('passes tools through unchanged and declares form and URL elicitation to the wrapped server', async () => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [SVC_BIN, 'relay', '--token-file', tokenFile, '--', process.execPath, ECHO],
    env: { ...process.env, SVC_RELAY_SERVICE: 'http://127.0.0.1:9/functions/v1/svc-mcp' } as Record<
      string,
      string
    >,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'relay-cli-test', version: '1.0.0' });
  await client.connect(transport);
  expect(client.getServerVersion()?.name).toBe('echo-fixture');
  expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['caps', 'echo']);
  const echoed = await client.callTool({ name: 'echo', arguments: { text: 'héllo "there"' } });
  expect(echoed.content).toEqual([{ type: 'text', text: 'héllo "there"' }]);
  const caps = await client.callTool({ name: 'caps', arguments: {} });
  const told = JSON.parse((caps.content as { text: string }[])[0]!.text);
  expect(told.elicitation).toEqual({ form: {}, url: {} });
  await client.close();
});
