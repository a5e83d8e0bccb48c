// Issue 38 item 4: the agents we ship and `svc share safe`. The echo host (`svc host run-echo`) reports a
// client-safe sandbox, so it can be shared with no code written; a host that reports nothing is refused with
// what the owner must do.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { client, signUp, startTestServer, type TestServer } from '../../server/test/harness.js';
import { runSvc, SVC_BIN } from './run-svc.js';

let t: TestServer;
let call: ReturnType<typeof client>;
let dir: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  t = await startTestServer();
  call = client(t.base);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-share-kinds-'));
});
afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const env = () => ({ SVC_DATA_DIR: t.dataDir, SVC_BASE_URL: t.base, LOG_LEVEL: 'silent' });

it('shares the echo host with no code; a host without a report is refused with what to do', async () => {
  const owner = await signUp(call, 'kinds@example.com');
  const made = async (name: string) =>
    (await call('POST', '/agents', { token: owner.access_token, body: { name } })).body;
  const echo = await made('Echo');
  const state = path.join(dir, 'echo.json');
  const paired = await runSvc(
    ['host', 'pair', '--code', echo.pairing.code, '--profile', 'echo', '--state', state],
    env(),
  );
  expect(paired.code, paired.stderr).toBe(0);

  // A second agent on a host that sends no sandbox report (a pair with no run).
  const bare = await made('Bare');
  const barePaired = await runSvc(
    [
      'host',
      'pair',
      '--code',
      bare.pairing.code,
      '--profile',
      'bare',
      '--state',
      path.join(dir, 'bare.json'),
    ],
    env(),
  );
  expect(barePaired.code, barePaired.stderr).toBe(0);

  const child = spawn(process.execPath, [SVC_BIN, 'host', 'run-echo', '--state', state], {
    env: { ...process.env, ...env() },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (c) => {
    stderr += c;
  });
  // The echo host's first heartbeats carry its report; the agent list shows the verdict.
  await expect
    .poll(
      async () =>
        (await call('GET', '/agents', { token: owner.access_token })).body.agents.find(
          (a: { id: string }) => a.id === echo.agent.id,
        )?.client_safe,
      { timeout: 15_000 },
    )
    .toBe(true);
  await expect.poll(() => stderr).toMatch(/serving 1 agent/);

  const safe = await runSvc(['share', 'safe', 'echo', '--email', 'kinds@example.com'], env());
  expect(safe.code, safe.stderr).toBe(0);
  expect(JSON.parse(safe.stdout)).toMatchObject({ client_safe: true, share_why: [] });

  const refused = await runSvc(['share', 'safe', 'bare', '--email', 'kinds@example.com'], env());
  expect(refused.code).toBe(3);
  expect(refused.stderr).toContain('Bare (bare) is not client-safe; failed rule: no_report');
  expect(refused.stderr).toContain('`svc host run-echo` sends one');
  expect(refused.stderr).toContain('runHost({ sandbox: (profile) => report })');
}, 60_000);
