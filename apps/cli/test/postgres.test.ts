// `svc` with SVC_DATABASE_URL (issue 42): every command works on the PostgreSQL database the instances
// serve, no SQLite file is created or named, and the server's start-up line names the database it serves.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { MOUNTS } from '@screen-service/registry/mounts';
import { loadConfig, type RunningServer, startServer } from '@screen-service/server';
import { createTestDatabase, type TestDatabase } from '@screen-service/store-postgres/testing';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../config/free-port.js';
import { runCli } from '../src/cli.js';

let db: TestDatabase;
let cliDir: string;
let serverDir: string;
let server: RunningServer | undefined;
let base: string;
let env: Record<string, string>;
const logLines: string[] = [];

async function svc(args: string[]) {
  let stdout = '';
  let stderr = '';
  const io = {
    stdout: (s: string) => {
      stdout += s;
    },
    stderr: (s: string) => {
      stderr += s;
    },
  };
  const code = await runCli(args, io, Readable.from([]), env);
  return { code, stdout, stderr };
}

beforeAll(async () => {
  db = await createTestDatabase();
  cliDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-cli-pg-'));
  serverDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-srv-pg-'));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  env = {
    SVC_DATA_DIR: cliDir,
    SVC_BASE_URL: base,
    SVC_DATABASE_URL: db.url,
    SVC_SECRET: randomBytes(32).toString('base64url'),
    LOG_LEVEL: 'silent',
  };
  // The server: the same database and secret, its own data folder; its log lines are kept.
  const config = loadConfig({ ...env, SVC_DATA_DIR: serverDir, PORT: String(port), HOST: '127.0.0.1' }, '/');
  const sink = new Writable({
    write(chunk, _enc, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  server = await startServer(config, pino({ level: 'info' }, sink));
});

afterAll(async () => {
  await server?.close(500);
  fs.rmSync(cliDir, { recursive: true, force: true });
  fs.rmSync(serverDir, { recursive: true, force: true });
  await db?.drop();
});

const sqliteFiles = (dir: string) =>
  fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.startsWith('svc.sqlite')) : [];

describe('svc on PostgreSQL (SVC_DATABASE_URL)', () => {
  it('the start-up line names the database served, without its password; no SQLite file is made', () => {
    const started = logLines.map((l) => JSON.parse(l)).find((l) => /listening on/.test(l.msg));
    const u = new URL(db.url);
    const named = `postgres://${u.username}@${u.host}${u.pathname}`;
    expect(started.database).toBe(named);
    expect(started.msg).toContain(`database ${named}`);
    expect(logLines.join('\n')).not.toContain(u.password);
    expect(logLines.join('\n')).not.toMatch(/svc\.sqlite/);
    expect(sqliteFiles(serverDir)).toEqual([]);
    expect(server?.db).toBeNull();
  });

  it('user add writes the account where the server reads it: the person signs in', async () => {
    const added = await svc(['user', 'add', '--email', 'Ada@Example.com', '--password', 'a long passphrase']);
    expect(added.code, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ email: 'ada@example.com' });
    expect(sqliteFiles(cliDir)).toEqual([]);
    const res = await fetch(`${base}${MOUNTS.app}/auth/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ada@example.com', password: 'a long passphrase' }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ access_token: expect.any(String) });
    // The same email again is refused by the database the server holds, and the message names it.
    const again = await svc([
      'user',
      'add',
      '--email',
      'ada@example.com',
      '--password',
      'another passphrase',
    ]);
    expect(again.code).toBe(3);
    expect(again.stderr).toContain(`database: postgres://${new URL(db.url).username}@`);
    expect(again.stderr).not.toContain(new URL(db.url).password);
  });

  it('connect pairs an agent the server answers on; share works on the same rows', async () => {
    const connected = await svc(['connect', '--email', 'ada@example.com', '--agent', 'Claude Code']);
    expect(connected.code, connected.stderr).toBe(0);
    const out = JSON.parse(connected.stdout);
    expect(out.mcp_url).toBe(`${base}${MOUNTS.mcp}`);
    // The server knows the token: an MCP initialize with it is accepted (401 without a known token).
    const init = await fetch(out.mcp_url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${out.connector_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    });
    expect(init.status).toBe(200);
    const listed = await svc(['share', 'list', '--email', 'ada@example.com']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual(expect.any(Array));
    const nobody = await svc(['share', 'list', '--email', 'nobody@example.com']);
    expect(nobody.code).toBe(3);
    expect(nobody.stderr).toMatch(/No account for nobody@example.com \(database: postgres:/);
    expect(sqliteFiles(cliDir)).toEqual([]);
  });

  it('doctor checks PostgreSQL, not a SQLite file', async () => {
    const doctor = await svc(['doctor']);
    const line = doctor.stdout.split('\n').find((l) => /database/.test(l));
    expect(line).toMatch(/^ok {3}database {2}PostgreSQL at postgres:\/\/\S+, schema version \d+/);
    expect(doctor.stdout).not.toMatch(/svc\.sqlite|no database at/);
    expect(doctor.stdout).not.toContain(new URL(db.url).password);
  });

  it('backup and restore say how to do it on PostgreSQL instead of archiving an unused file', async () => {
    const archive = path.join(os.tmpdir(), `svc-pg-${randomBytes(4).toString('hex')}.tar.gz`);
    const backup = await svc(['backup', archive]);
    expect(backup.code).toBe(2);
    expect(backup.stderr).toMatch(/runs on PostgreSQL .*pg_dump --format=custom/);
    expect(fs.existsSync(archive)).toBe(false);
    const restore = await svc(['restore', archive]);
    expect(restore.code).toBe(2);
    expect(restore.stderr).toMatch(/pg_restore --clean/);
    expect(sqliteFiles(cliDir)).toEqual([]);
  });
});
