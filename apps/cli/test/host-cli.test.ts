// `svc host` as processes against the real server: pair into a 0600 state file, run the echo host, SIGKILL
// it mid-turn and restart it (the answer is written exactly once), Ctrl-C, exit codes and --help.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, signUp, startTestServer, type TestServer } from '../../server/test/harness.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const bin = path.join(here, '..', 'dist', 'svc.js');
let t: TestServer;
let call: ReturnType<typeof client>;
let dir: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  t = await startTestServer();
  call = client(t.base);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-host-cli-'));
});
afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function start(args: string[]) {
  const child = spawn(process.execPath, [bin, 'host', ...args], {
    env: { ...process.env, LOG_LEVEL: 'silent', SVC_BASE_URL: t.base },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const out = { stdout: '', stderr: '' };
  child.stdout!.on('data', (c) => {
    out.stdout += c;
  });
  child.stderr!.on('data', (c) => {
    out.stderr += c;
  });
  // How it ended: its code, or the signal that ended it (named in a failing assertion, with what it said).
  const ended: { signal: NodeJS.Signals | null } = { signal: null };
  const exit = new Promise<number | null>((r) =>
    child.on('exit', (code, signal) => {
      ended.signal = signal;
      r(code);
    }),
  );
  return { child, out, exit, ended };
}
async function run(args: string[]) {
  const p = start(args);
  const code = await p.exit;
  return { code, ...p.out };
}
const until = async (check: () => Promise<boolean> | boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
};

describe('svc host', () => {
  // Each case is a fresh Node process: run them side by side, with room for a loaded machine.
  it('--help, usage errors (2) and refusals (3)', { timeout: 60_000 }, async () => {
    const helps = await Promise.all(
      [['--help'], ['pair', '--help'], ['run-echo', '--help']].map((a) => run(a)),
    );
    for (const r of helps) {
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/svc host pair --code CODE/);
    }
    const [none, frob, noCode, unpaired, wrong] = await Promise.all([
      run([]),
      run(['frob']),
      run(['pair', '--state', path.join(dir, 'x.json')]),
      run(['run-echo', '--state', path.join(dir, 'none.json')]),
      run(['pair', '--code', '000000', '--state', path.join(dir, 'x.json')]),
    ]);
    expect([none.code, frob.code, noCode.code, unpaired.code]).toEqual([2, 2, 2, 2]);
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).toMatch(/invalid_or_expired_code/);
  });

  it('pairs, echoes, and after a SIGKILL mid-turn the restarted host answers exactly once', {
    timeout: 60_000,
  }, async () => {
    const person = await signUp(call, 'echo@example.com');
    const created = await call('POST', '/agents', { token: person.access_token, body: { name: 'Echo' } });
    const state = path.join(dir, 'echo.json');
    const paired = await run([
      'pair',
      '--code',
      created.body.pairing.code,
      '--profile',
      'echo',
      '--state',
      state,
    ]);
    expect(paired.code, paired.stderr).toBe(0);
    expect(JSON.parse(paired.stdout)).toMatchObject({
      connector: { kind: 'hostfw' },
      agent: { remote_ref: 'echo' },
    });
    expect(fs.statSync(state).mode & 0o777).toBe(0o600);
    expect(Object.keys(JSON.parse(fs.readFileSync(state, 'utf8'))).sort()).toEqual([
      'connect_url',
      'connector_id',
      'name',
      'token',
    ]);
    const agentId = created.body.agent.id as string;
    const added = await run(['add', '--profile', 'research', '--state', state]);
    expect(added.code, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({
      created: true,
      agent: { name: 'research', remote_ref: 'research' },
    });
    const session = await run(['session', '--state', state]);
    expect(
      JSON.parse(session.stdout)
        .agents.map((a: { remote_ref: string }) => a.remote_ref)
        .sort(),
    ).toEqual(['echo', 'research']);
    const store = t.running.services.store;

    // A slow echo host: the turn starts, then the process dies before it answers.
    const slow = start(['run-echo', '--state', state, '--delay-ms', '5000']);
    const listed = async () => (await call('GET', '/agents', { token: person.access_token })).body.agents[0];
    await until(async () => (await listed()).commands !== null);
    expect((await listed()).status).toBe('connected');
    expect((await call('GET', '/agents', { token: person.access_token })).body.agents[0].commands).toEqual([
      { name: 'echo', description: 'Repeats what you send' },
    ]);
    const sent = await call('POST', `/agents/${agentId}/messages`, {
      token: person.access_token,
      body: { text: 'are you there?' },
    });
    expect(sent.status).toBe(201);
    await until(async () => (await store.threads.getMessage(sent.body.id))!.deliveredAt !== null);
    await until(() => slow.out.stdout.includes(sent.body.id));
    expect(JSON.parse(slow.out.stdout.split('\n')[0]!)).toMatchObject({
      id: sent.body.id,
      text: 'are you there?',
    });
    slow.child.kill('SIGKILL');
    await slow.exit;
    expect((await store.threads.getMessage(sent.body.id))!.handledAt).toBeNull();

    const again = start(['run-echo', '--state', state]);
    const answers = async () =>
      (await store.threads.page({ agentId, userId: person.user.id, limit: 50 })).filter(
        (m) => m.sender === 'agent',
      );
    await until(async () => (await answers()).length === 1);
    // A second person message makes sure the host is past the first turn before counting.
    const second = await call('POST', `/agents/${agentId}/messages`, {
      token: person.access_token,
      body: { text: 'second' },
    });
    await until(async () => (await answers()).length === 2);
    const rows = (await answers()).reverse();
    expect(rows.map((r) => [r.body, r.meta.turn])).toEqual([
      ['echo: are you there?', [sent.body.id]],
      ['echo: second', [second.body.id]],
    ]);
    expect((await store.threads.getMessage(sent.body.id))!.handledAt).not.toBeNull();

    // Ctrl-C under npx reaches the host twice (from the terminal and from npm): it stops once, says so,
    // and exits 0 instead of dying on the second copy.
    again.child.kill('SIGINT');
    again.child.kill('SIGINT');
    const code = await again.exit;
    expect(code, `ended by ${again.ended.signal}; it printed: ${again.out.stderr}`).toBe(0);
    expect(again.out.stderr).toMatch(/svc host: stopped\.\n$/);

    // Removing the host in the app stops the echo host with exit code 3.
    const last = start(['run-echo', '--state', state]);
    await until(() => last.out.stderr.includes('serving'));
    const connectorId = JSON.parse(paired.stdout).connector.id as string;
    const removed = await call('DELETE', `/connections/${connectorId}`, { token: person.access_token });
    expect([200, 204]).toContain(removed.status);
    expect(await last.exit).toBe(3);
    expect(last.out.stderr).toMatch(/removed in the app/);
    expect(last.out.stderr).not.toContain('stopped.');
  });
});
