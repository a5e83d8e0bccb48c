// The data dir on a small tmpfs (mounted here; needs root) filled to the last byte while the service writes:
// callers get a clear error, the service stays up, and writes work again once space returns.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { request } from './http.js';
import { connectMcp } from './mcp.js';
import { startService } from './service.js';
import { APP, MCP, pairNewConnection, signUpPeople } from './setup.js';

export interface DiskFullResult {
  /** Writes that still succeeded after the filler took the last free byte (space SQLite had reserved). */
  writesBeforeFirstError: number;
  /** What the person's API answered when the disk was full. */
  personError: { status: number; body: unknown } | null;
  /** What the tool server answered (svc_say) when the disk was full. */
  toolError: { isError: boolean; text: string } | null;
  /** The service answered /healthz while the disk was full. */
  healthyWhileFull: boolean;
  /** The same process served writes again after the filler was removed. */
  recovered: boolean;
  samePid: boolean;
  integrity: string;
}

/** Whether this process may mount a tmpfs (root on Linux). */
export function canMountTmpfs(): boolean {
  return process.platform === 'linux' && typeof process.getuid === 'function' && process.getuid() === 0;
}

/** Writes zeros into `file` until the file system refuses (ENOSPC); returns the bytes written. */
export function fillDisk(file: string): number {
  const fd = fs.openSync(file, 'w');
  let total = 0;
  try {
    for (const size of [1 << 20, 1 << 14, 512, 1]) {
      const chunk = Buffer.alloc(size);
      for (;;) {
        try {
          total += fs.writeSync(fd, chunk);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'ENOSPC') break;
          throw err;
        }
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  return total;
}

export async function runDiskFull(options: {
  sizeMb: number;
  log?: (s: string) => void;
}): Promise<DiskFullResult> {
  if (!canMountTmpfs()) throw new Error('The disk-full scenario mounts a tmpfs: run it as root on Linux.');
  const log = options.log ?? (() => {});
  const mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-full-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${options.sizeMb}m,mode=0700`, 'tmpfs', mountPoint]);
  const dataDir = path.join(mountPoint, 'data');
  fs.mkdirSync(dataDir, { mode: 0o700 });
  const filler = path.join(mountPoint, 'filler');
  try {
    const svc = await startService({ dataDir });
    const pid = svc.pid();
    try {
      const [person] = await signUpPeople(svc.base, 1, 'full');
      if (!person) throw new Error('no person');
      const conn = await pairNewConnection(svc.base, person, 'full-writer');
      const mcp = await connectMcp(`${svc.base}${MCP}`, conn.token);
      const reply = (text: string) =>
        request(`${svc.base}${APP}/agents/${conn.agentId}/messages`, {
          headers: { authorization: `Bearer ${person.token}` },
          body: { text },
        });
      const ok = await reply('before the disk filled');
      if (ok.status !== 201) throw new Error(`a write before filling answered ${ok.status}`);
      log(`filled the data dir with ${(fillDisk(filler) / 1024 / 1024).toFixed(1)} MiB`);

      let writesBeforeFirstError = 0;
      let personError: DiskFullResult['personError'] = null;
      const text = 'y'.repeat(3900);
      for (let i = 0; i < 5000; i++) {
        const r = await reply(`${i} ${text}`);
        if (r.status !== 201) {
          personError = { status: r.status, body: r.json ?? r.text };
          break;
        }
        writesBeforeFirstError++;
      }
      const said = await mcp.call('svc_say', { text: `while full ${text}` });
      const toolError = { isError: said.isError, text: said.text };
      const health = await request(`${svc.base}/healthz`);
      const healthyWhileFull = health.status === 200;
      log(
        `full: person's API ${personError?.status} ${JSON.stringify(personError?.body)}; svc_say ${JSON.stringify(toolError)}`,
      );

      fs.rmSync(filler);
      let recovered = false;
      for (let i = 0; i < 50 && !recovered; i++) {
        recovered = (await reply(`after space returned ${i}`)).status === 201;
        if (!recovered) await new Promise((r) => setTimeout(r, 100));
      }
      const samePid = svc.pid() === pid && (await request(`${svc.base}/healthz`)).status === 200;
      await mcp.close();
      await svc.stop();
      const db = new Database(path.join(dataDir, 'svc.sqlite'), { readonly: true });
      const integrity = String(db.pragma('integrity_check', { simple: true }));
      db.close();
      return {
        writesBeforeFirstError,
        personError,
        toolError,
        healthyWhileFull,
        recovered,
        samePid,
        integrity,
      };
    } catch (err) {
      await svc.stop();
      throw err;
    }
  } finally {
    execFileSync('umount', [mountPoint]);
    fs.rmSync(mountPoint, { recursive: true, force: true });
  }
}
