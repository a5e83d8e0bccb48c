// The relay as its users run it: its built program started by an MCP client over stdio, wrapping a real server.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

/** The built relay program (nx builds this package before its tests). */
export const RELAY_BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
/** server-everything's stdio entry. */
export const EVERYTHING = fileURLToPath(
  new URL('../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);
/** The 2026-07-28 test server. */
export const MRTR_SERVER = fileURLToPath(new URL('./fixtures/mrtr-server.mjs', import.meta.url));

/** A temp folder with the connection token in a 0600 file and a state file path. */
export function relayFiles(token: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-relay-run-'));
  const tokenFile = path.join(dir, 'token');
  fs.writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 });
  return { dir, tokenFile, state: path.join(dir, 'open-asks.json') };
}

/** The relay's command line in front of `server` (a command and its arguments). */
export function relayArgs(o: {
  mcpUrl: string;
  tokenFile: string;
  state?: string;
  answer?: string;
  clientWait?: number;
  server: string[];
}): string[] {
  return [
    RELAY_BIN,
    '--service',
    o.mcpUrl,
    '--token-file',
    o.tokenFile,
    ...(o.state ? ['--state', o.state] : []),
    ...(o.answer ? ['--answer', o.answer] : []),
    ...(o.clientWait !== undefined ? ['--client-wait', String(o.clientWait)] : []),
    '--',
    ...o.server,
  ];
}

/** The official 1.x SDK client connected to the relay (which it starts); `elicitation` declares the client's own. */
export async function clientThroughRelay(args: string[], capabilities: Record<string, unknown> = {}) {
  let stderr = '';
  const transport = new StdioClientTransport({ command: process.execPath, args, stderr: 'pipe' });
  transport.stderr?.on('data', (b: Buffer) => {
    stderr = (stderr + b.toString()).slice(-8000);
  });
  const client = new Client({ name: 'relay-test-client', version: '1.0.0' }, { capabilities });
  await client.connect(transport);
  return { client, transport, stderr: () => stderr };
}

/** The text of a tool result's content. */
export function resultText(r: unknown): string {
  const content = (r as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((c) => c.text ?? '').join('\n');
}
