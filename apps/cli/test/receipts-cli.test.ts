// `svc receipts verify` (ADR 0261) on a real chain exported over the person's API of a running server: it
// passes, then names a changed answer, a deleted receipt, an edited receipt and an unknown key by line;
// `svc receipts rotate-key` publishes a new key and keeps the old one.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, signUp, startTestServer, type TestServer } from '../../server/test/harness.js';
import { runSvc } from './run-svc.js';

let t: TestServer;
let dir: string;
let call: ReturnType<typeof client>;
let token: string;
let agentId: string;
let connection: string;

beforeAll(async () => {
  t = await startTestServer();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-receipts-'));
  call = client(t.base);
  token = (await signUp(call, 'receipts@example.com')).access_token;
  const created = await call('POST', '/agents', { token, body: { name: 'Cook' } });
  agentId = created.body.agent.id as string;
  const paired = await fetch(`${t.base}/functions/v1/svc-connect`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      action: 'pair',
      code: created.body.pairing.code,
      remote_ref: 'cook',
      kind: 'mcp',
      host_name: 'Laptop',
    }),
  });
  connection = ((await paired.json()) as { connector_token: string }).connector_token;
  const svc = t.running.services;
  const principal = await svc.connectionAuth.verify(connection);
  for (const value of ['Soup', 'Salad', 'Soup']) {
    const { screen_id } = await svc.threadOps.show(principal, { lines: 'choose@lunch "Lunch?" Soup|Salad' });
    const tap = await call('POST', `/agents/${agentId}/taps`, {
      token,
      body: { screen_id, event: { id: 'lunch', value } },
    });
    expect(tap.status).toBe(201);
  }
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Saves the thread's export and the published keys as files, as a person would. */
async function download(name: string) {
  const headers = { authorization: `Bearer ${token}` };
  const api = `${t.base}/functions/v1/svc-app`;
  const exported = await fetch(`${api}/agents/${agentId}/receipts`, { headers });
  expect(exported.headers.get('content-type')).toMatch(/^application\/jsonl/);
  const keys = await fetch(`${api}/receipt-keys`);
  const file = path.join(dir, `${name}.jsonl`);
  const jwks = path.join(dir, `${name}.jwks.json`);
  fs.writeFileSync(file, await exported.text());
  fs.writeFileSync(jwks, await keys.text());
  return { file, jwks };
}

const verify = (file: string, jwks: string) => runSvc(['receipts', 'verify', file, '--keys', jwks], {});

describe('svc receipts', () => {
  it('--help says what it checks and how to get the files', { timeout: 30_000 }, async () => {
    const r = await runSvc(['receipts', '--help'], {});
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('svc receipts verify FILE --keys JWKS');
    expect(r.stdout).toContain('receipt-keys');
  });

  // Each verify is a `svc` child process: seconds apiece on a loaded machine.
  it('verifies a real chain, then names a changed answer, a deleted and an edited receipt by line', {
    timeout: 90_000,
  }, async () => {
    const good = await download('good');
    let r = await verify(good.file, good.jwks);
    expect([r.code, r.stdout]).toEqual([0, '3 of 3 receipts verified.\n']);

    // One byte of a stored answer flipped in the database.
    const db = t.running.db as unknown as {
      prepare(sql: string): { get(...a: unknown[]): unknown; run(...a: unknown[]): unknown };
    };
    const row = db
      .prepare(
        "SELECT id, body FROM messages WHERE agent_id = ? AND kind = 'tap' ORDER BY seq LIMIT 1 OFFSET 1",
      )
      .get(agentId) as { id: string; body: string };
    db.prepare('UPDATE messages SET body = ? WHERE id = ?').run(row.body.replace('Salad', 'Salae'), row.id);
    const flipped = await download('flipped');
    r = await verify(flipped.file, flipped.jwks);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      `${flipped.file}:2: receipt 2: answer ${row.id} differs from what was signed: it was changed after it was recorded\n2 of 3 receipts verified; 1 problem(s).\n`,
    );
    db.prepare('UPDATE messages SET body = ? WHERE id = ?').run(row.body, row.id);

    // A receipt deleted from the file; another's payload edited.
    const lines = fs.readFileSync(good.file, 'utf8').trimEnd().split('\n');
    const cut = path.join(dir, 'cut.jsonl');
    fs.writeFileSync(cut, `${[lines[0], lines[2]].join('\n')}\n`);
    r = await verify(cut, good.jwks);
    expect([r.code, r.stdout.split('\n')[0]]).toEqual([
      1,
      `${cut}:2: receipt 3: receipt 2 is missing from the chain (deleted)`,
    ]);
    // A receipt of format 2 (ADR 0294): its payload is on the line; edited, its leaf no longer leads to the
    // root its batch signed.
    const first = JSON.parse(lines[0]!) as { v: number; receipt: Record<string, unknown> };
    expect(first.v).toBe(2);
    const edited = path.join(dir, 'edited.jsonl');
    fs.writeFileSync(
      edited,
      [
        JSON.stringify({ ...first, receipt: { ...first.receipt, decided_by: 'default' } }),
        ...lines.slice(1),
      ].join('\n'),
    );
    r = await verify(edited, good.jwks);
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n')[0]).toBe(
      `${edited}:1: receipt 1: the receipt and its path do not lead to its batch's signed root: the receipt or its path was altered`,
    );
  });

  it('after rotate-key, old receipts verify against the published keys and new ones name the key an old file lacks', {
    timeout: 90_000,
  }, async () => {
    const before = await download('before');
    const rotated = await runSvc(['receipts', 'rotate-key'], { SVC_DATA_DIR: t.dataDir });
    expect(rotated.code, rotated.stderr).toBe(0);
    const { kid } = JSON.parse(rotated.stdout) as { kid: string };
    // The running server reads the keys again within a minute of another process rotating them; at once here.
    t.running.services.receipts.refresh();
    const svc = t.running.services;
    const current = (await svc.receipts.jwks()).keys.map((k) => k.kid);
    expect(current).toContain(kid);
    const { screen_id } = await svc.threadOps.show(await svc.connectionAuth.verify(connection), {
      lines: 'choose@lunch "Lunch?" Soup|Salad',
      agent: agentId,
    });
    await call('POST', `/agents/${agentId}/taps`, {
      token,
      body: { screen_id, event: { id: 'lunch', value: 'Salad' } },
    });
    const after = await download('after');
    let r = await verify(after.file, after.jwks);
    expect([r.code, r.stdout]).toEqual([0, '4 of 4 receipts verified.\n']);
    r = await verify(after.file, before.jwks);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      new RegExp(
        `^${after.file}:4: receipt 4: its batch root is signed with key "\\S+", which is not among the published keys\\n3 of 4 receipts verified; 1 problem\\(s\\)\\.\\n$`,
      ),
    );
  });
});
