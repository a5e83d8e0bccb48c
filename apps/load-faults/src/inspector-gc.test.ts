import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { collectGarbage, inspectorUrl } from './inspector-gc.js';

// A child that makes ~60 MB of objects, drops them, and answers 'heap' with its used heap.
const CHILD = `
let kept = Array.from({ length: 1_000_000 }, (_, i) => ({ i, s: 'x' + i }));
process.on('message', (m) => {
  if (m === 'drop') { kept = null; process.send('dropped'); }
  if (m === 'heap') process.send(process.memoryUsage().heapUsed);
});
process.send('ready');
`;

let child: ChildProcess | undefined;
afterEach(() => {
  child?.kill();
  child = undefined;
});

const ask = (c: ChildProcess, m: string) =>
  new Promise<unknown>((resolve) => {
    c.once('message', resolve);
    c.send(m);
  });

describe('collectGarbage through the inspector', () => {
  it('reads the address Node prints', () => {
    expect(inspectorUrl('Debugger listening on ws://127.0.0.1:41234/0f1e-aa\nFor help, see')).toBe(
      'ws://127.0.0.1:41234/0f1e-aa',
    );
    expect(inspectorUrl('Debugger listening on ws://0.0.0.0:9229/x')).toBeUndefined();
  });

  it('frees what another process no longer holds', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-gc-'));
    const file = path.join(dir, 'child.cjs');
    fs.writeFileSync(file, CHILD);
    let stderr = '';
    const c = fork(file, [], {
      execArgv: ['--inspect=127.0.0.1:0'],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    child = c;
    c.stderr?.on('data', (b: Buffer) => {
      stderr += b.toString();
    });
    await new Promise((resolve) => c.once('message', resolve));
    await expect.poll(() => inspectorUrl(stderr)).toBeDefined();
    await ask(c, 'drop');
    const before = (await ask(c, 'heap')) as number;
    await collectGarbage(inspectorUrl(stderr)!);
    const after = (await ask(c, 'heap')) as number;
    expect(before - after).toBeGreaterThan(30 * 1024 * 1024);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('names the address it cannot reach', async () => {
    await expect(collectGarbage('ws://127.0.0.1:9/none', 5_000)).rejects.toThrow(
      /cannot reach the inspector at ws:\/\/127\.0\.0\.1:9\/none/,
    );
  });
});
