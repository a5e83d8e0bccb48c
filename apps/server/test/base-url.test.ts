// PORT=0: what the service advertises (OAuth issuer, MCP URL, resource metadata) carries the real port.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig, type RunningServer, startServer } from '../src/index.js';

let running: RunningServer | undefined;
let dataDir: string | undefined;
afterEach(async () => {
  await running?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  running = undefined;
});

describe('PORT=0 (the system picks the port)', () => {
  it('advertises http://localhost:<picked port>, never :0, in every document', async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-base-url-'));
    const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', SVC_DATA_DIR: dataDir }, '/');
    expect(config.baseUrl).toBe('http://localhost:0');
    running = await startServer(config, pino({ level: 'silent' }));
    const base = `http://localhost:${running.port}`;
    expect(running.port).toBeGreaterThan(0);
    expect(running.url).toBe(base);
    const get = async (p: string) => {
      const res = await fetch(`http://127.0.0.1:${running!.port}${p}`);
      expect(res.status, p).toBe(200);
      return (await res.json()) as Record<string, unknown>;
    };
    expect((await get('/healthz')).base_url).toBe(base);
    const oauth = await get('/functions/v1/svc-oauth/.well-known/oauth-authorization-server');
    expect(oauth.issuer).toBe(`${base}/functions/v1/svc-oauth`);
    expect(oauth.authorization_endpoint).toBe(`${base}/functions/v1/svc-oauth/authorize`);
    const resource = await get('/functions/v1/svc-mcp/.well-known/oauth-protected-resource');
    expect(resource.resource).toBe(`${base}/functions/v1/svc-mcp`);
    const unauthorized = await fetch(`http://127.0.0.1:${running.port}/functions/v1/svc-mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('www-authenticate')).toContain(
      `${base}/functions/v1/svc-mcp/.well-known/oauth-protected-resource`,
    );
    expect(running.services.mcpUrl).toBe(`${base}/functions/v1/svc-mcp`);
    expect(JSON.stringify(await get('/openapi.json'))).not.toContain('localhost:0');
  });

  it('keeps an explicit SVC_BASE_URL as it is', async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-base-url-'));
    const config = loadConfig(
      { PORT: '0', HOST: '127.0.0.1', SVC_DATA_DIR: dataDir, SVC_BASE_URL: 'https://svc.example.com' },
      '/',
    );
    running = await startServer(config, pino({ level: 'silent' }));
    expect(running.url).toBe('https://svc.example.com');
    const res = await fetch(`http://127.0.0.1:${running.port}/healthz`);
    expect(((await res.json()) as { base_url: string }).base_url).toBe('https://svc.example.com');
  });
});
