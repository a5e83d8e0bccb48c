// Crash tests: a bridge process killed with SIGKILL mid-task and started again writes the answer once.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FileServiceLink } from '../src/service-link.js';
import { startTestServer, type TestServer } from './agents.js';

const CHILD = fileURLToPath(new URL('./fixtures/bridge-child.ts', import.meta.url));

function startChild(cardUrl: string, agentId: string, dir: string): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', CHILD, cardUrl, agentId, dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}

/** Retries `probe` (a file or HTTP read that may not be ready yet) until it yields a value. */
function waitFor<T>(what: string, probe: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  return vi.waitFor(
    async () => {
      const value = await probe().catch(() => undefined);
      if (value === undefined) throw new Error(`timed out waiting for ${what}`);
      return value;
    },
    { timeout: ms, interval: 25 },
  );
}

async function readState(dir: string) {
  return JSON.parse(await readFile(join(dir, 'state.json'), 'utf8')) as {
    agents: Record<string, { turn?: { taskId?: string; heard: boolean } }>;
  };
}

describe.concurrent.each([
  ['v10', 'stream'],
  ['compat', 'stream'],
  ['v03', 'stream'],
  ['v10', 'poll'],
] as const)('SIGKILL mid-task on %s (%s)', (kind, agentPath) => {
  let server: TestServer;
  let dir: string;
  beforeAll(async () => {
    server = await startTestServer(kind);
    dir = await mkdtemp(join(tmpdir(), 'a2a-crash-'));
  });
  afterAll(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('the restarted bridge resumes the task and writes the answer exactly once', async () => {
    const agentId = `crash-${kind}-${agentPath}`;
    const link = new FileServiceLink(join(dir, 'link.json'));
    await link.addRow(agentId, { id: 'r1', text: 'slow 1500' });

    const first = startChild(server.url(agentPath), agentId, dir);
    const taskId = await waitFor('the task id in the state file', async () => {
      const turn = (await readState(dir)).agents[agentId]?.turn;
      return turn?.heard ? turn.taskId : undefined;
    });
    first.kill('SIGKILL');
    await exited(first);
    expect(await link.posts(agentId)).not.toContainEqual(expect.objectContaining({ kind: 'answer' }));

    const second = startChild(server.url(agentPath), agentId, dir);
    let stderr = '';
    second.stderr?.on('data', (d) => {
      stderr += String(d);
    });
    expect(await exited(second), stderr).toBe(0);

    const answers = (await link.posts(agentId)).filter((p) => p.kind === 'answer');
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatchObject({ text: 'done slowly', meta: { turn: ['r1'], taskId } });
    // One message reached the agent: the restart resumed the task instead of sending again.
    expect(server.seen.filter((m) => m.texts.includes('slow 1500'))).toHaveLength(1);
    const resumedWith = server.calls.filter((c) => /resubscribe|SubscribeToTask|get|GetTask/i.test(c.method));
    expect(resumedWith.length).toBeGreaterThan(0);
    expect((await readState(dir)).agents[agentId]?.turn).toBeUndefined();

    // Owner-only files on disk.
    expect((await stat(join(dir, 'state.json'))).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, 'outbox'))).mode & 0o777).toBe(0o700);
  });
});
