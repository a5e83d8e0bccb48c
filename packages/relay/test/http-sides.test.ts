// The relay's HTTP sides: a wrapped Streamable HTTP server reached with --url and --header (its ask answered
// on the phone), and the client served over Streamable HTTP on 127.0.0.1 with --http.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { clientThroughRelay, EVERYTHING, RELAY_BIN, relayFiles, resultText } from './harness.js';
import { pairedAgent, type Service, startService } from './service.js';

const SECRET = 'Bearer wrapped-server-secret';
let service: Service;
let wrapped: http.Server;
let wrappedUrl: string;
let authorizations: (string | undefined)[] = [];

// A 2025-11-25 server over Streamable HTTP (one session), behind a bearer token, with a tool that elicits.
async function startWrapped() {
  const mcp = new McpServer({ name: 'paint-shop', version: '1.0.0' });
  // The ask rides the tool call's own response stream (a request related to it), as server-everything's does.
  mcp.registerTool('pick_color', {}, async (extra) => {
    const params = {
      message: 'Which color for the fence?',
      requestedSchema: {
        type: 'object' as const,
        properties: { color: { type: 'string' as const, title: 'Color', enum: ['Red', 'Blue'] } },
        required: ['color'],
      },
    };
    const r = await extra.sendRequest({ method: 'elicitation/create', params }, ElicitResultSchema);
    return { content: [{ type: 'text', text: JSON.stringify(r) }] };
  });
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
  await mcp.connect(transport);
  const server = http.createServer((req, res) => {
    authorizations.push(req.headers.authorization);
    if (req.headers.authorization !== SECRET) return void res.writeHead(401).end();
    void transport.handleRequest(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return server;
}

beforeAll(async () => {
  service = await startService();
  wrapped = await startWrapped();
  wrappedUrl = `http://127.0.0.1:${(wrapped.address() as AddressInfo).port}/mcp`;
});
afterAll(async () => {
  wrapped?.closeAllConnections();
  await new Promise((r) => wrapped?.close(r));
  await service?.stop();
});

it('--url with --header: the wrapped HTTP server gets the header on every request, and its ask is answered on the phone', async () => {
  const paired = await pairedAgent(service.base, 'Paint shop');
  const files = relayFiles(paired.token);
  const args = [
    RELAY_BIN,
    '--service',
    service.mcpUrl,
    '--token-file',
    files.tokenFile,
    '--url',
    wrappedUrl,
    '--header',
    `Authorization: ${SECRET}`,
  ];
  authorizations = [];
  const { client } = await clientThroughRelay(args);
  const call = client.callTool({ name: 'pick_color', arguments: {} });
  const seen = new Set<string>();
  const first = await paired.person.nextScreen(seen);
  expect(first.lines).toContain('paint-shop asks you for one answer');
  await paired.person.tap(first.id, { id: 'ask', value: 'Answer' });
  const color = await paired.person.nextScreen(seen);
  expect(color.lines).toContain('Red|Blue');
  await paired.person.tap(color.id, { id: 'ask', value: 'Blue' });
  const review = await paired.person.nextScreen(seen);
  await paired.person.tap(review.id, { id: 'ask', value: 'Send' });
  expect(JSON.parse(resultText(await call))).toEqual({ action: 'accept', content: { color: 'Blue' } });
  expect(authorizations.length).toBeGreaterThan(2);
  expect(new Set(authorizations)).toEqual(new Set([SECRET]));
  await client.close();
  fs.rmSync(files.dir, { recursive: true, force: true });
});

it('--http: the client reaches the wrapped server over Streamable HTTP on 127.0.0.1; other origins are refused', async () => {
  const files = relayFiles('svc_ct_unused-no-ask-here');
  const child = spawn(
    process.execPath,
    [
      RELAY_BIN,
      '--service',
      service.mcpUrl,
      '--token-file',
      files.tokenFile,
      '--http',
      '0',
      '--',
      process.execPath,
      EVERYTHING,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (b: Buffer) => {
      stderr += b.toString();
      const m = /serving (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
      if (m) resolve(m[1]!);
    });
    child.on('exit', () => reject(new Error(`the relay exited: ${stderr}`)));
  });
  // A web page's cross-origin request is refused before it reaches the wrapped server.
  const foreign = await fetch(url, {
    method: 'POST',
    headers: { origin: 'http://pages.example', 'content-type': 'application/json' },
    body: '{}',
  });
  expect(foreign.status).toBe(403);
  const client = new Client({ name: 'http-side-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  expect(client.getServerVersion()?.name).toBe('mcp-servers/everything');
  const echoed = await client.callTool({ name: 'echo', arguments: { message: 'over http' } });
  expect(resultText(echoed)).toContain('over http');
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
  await client.close().catch(() => undefined);
  fs.rmSync(files.dir, { recursive: true, force: true });
});
