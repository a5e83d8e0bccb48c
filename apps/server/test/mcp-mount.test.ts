// The tool server is mounted at {base_url}/functions/v1/svc-mcp and answers without credentials with doc1's 401.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { expect, it } from 'vitest';
import { loadConfig, startServer } from '../src/index.js';

it('mounts the MCP tool server: 401 with resource_metadata, 405 on GET', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-server-mcp-'));
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', SVC_DATA_DIR: dataDir }, '/');
  const running = await startServer(config, pino({ level: 'silent' }));
  try {
    const url = `http://127.0.0.1:${running.port}/functions/v1/svc-mcp`;
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(
      /^Bearer resource_metadata=".*\/functions\/v1\/svc-mcp\/\.well-known\/oauth-protected-resource"$/,
    );
    expect((await fetch(url)).status).toBe(405);
  } finally {
    await running.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
