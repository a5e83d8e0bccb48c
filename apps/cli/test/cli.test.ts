// The `svc` CLI as a process (dist/svc.js, as `npx svc` runs it after the launcher builds): the
// three-command quickstart, --help everywhere, and exit codes.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli.js';
import { runSvc } from './run-svc.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const bin = path.join(here, '..', 'dist', 'svc.js');
let dataDir: string;
beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-cli-'));
});
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function svc(args: string[], stdin?: string) {
  const env = { SVC_DATA_DIR: dataDir, SVC_BASE_URL: 'https://svc.example.com', LOG_LEVEL: 'silent' };
  return runSvc(args, env, stdin ?? '');
}

describe('svc (process)', () => {
  it('is built', () => {
    expect(fs.existsSync(bin), 'nx builds apps/server before its tests').toBe(true);
  });

  it('user add (password on stdin), then connect prints {mcp_url, connector_token, agent}', async () => {
    const added = await svc(['user', 'add', '--email', 'Ada@Example.com'], 'a long passphrase\n');
    expect(added.code, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ email: 'ada@example.com' });

    const connected = await svc([
      'connect',
      '--email',
      'ada@example.com',
      '--agent',
      'Claude Code',
      '--host-name',
      'laptop',
    ]);
    expect(connected.code, connected.stderr).toBe(0);
    const out = JSON.parse(connected.stdout);
    expect(out).toEqual({
      mcp_url: 'https://svc.example.com/functions/v1/svc-mcp',
      connector_token: expect.stringMatching(/^svc_ct_[A-Za-z0-9_-]{43}$/),
      agent: { id: expect.any(String), name: 'Claude Code', handle: 'claude-code' },
    });
  });

  // Nine `svc` processes in a row, each starting Node 24: about 20 s alone, more on a loaded 2-core machine.
  // Each exit code once as a real process (the code reaches the shell); every other case runs in-process
  // below, so a loaded machine does not pay a Node start-up per case.
  it('exits 3 when a rule refuses, 2 on a usage error, 0 for --help, as a process', async () => {
    const [nobody, bogus, help] = await Promise.all([
      svc(['connect', '--email', 'nobody@example.com', '--agent', 'X']),
      svc(['bogus']),
      svc(['--help']),
    ]);
    expect(nobody.code).toBe(3);
    expect(nobody.stderr).toMatch(/svc user add --email nobody@example.com/);
    // The answer depends on the database, so it names the data folder it looked in.
    expect(nobody.stderr).toContain(`(data folder: ${dataDir})`);
    expect(bogus.code).toBe(2);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/svc/);
  });

  it('maps every refusal, usage error and --help to its exit code (in-process runCli)', async () => {
    const saved = process.env.SVC_DATA_DIR;
    process.env.SVC_DATA_DIR = dataDir;
    try {
      const run = async (args: string[]) => {
        let stdout = '';
        let stderr = '';
        const code = await runCli(
          args,
          {
            stdout: (t) => {
              stdout += t;
            },
            stderr: (t) => {
              stderr += t;
            },
          },
          Readable.from(['']),
        );
        return { code, stdout, stderr };
      };
      const taken = await run(['user', 'add', '--email', 'ada@example.com', '--password', 'another one']);
      expect(taken.code).toBe(3);
      expect(taken.stderr).toContain(`(data folder: ${dataDir})`);
      expect((await run(['user', 'add', '--email', 'short@example.com', '--password', 'short'])).code).toBe(
        2,
      );
      expect((await run(['connect', '--email', 'ada@example.com'])).code).toBe(2);
      expect((await run(['connect', '--nope'])).code).toBe(2);
      expect((await run([])).code).toBe(2);
      // A misspelt option gets the command's options and the closest one, not the parser's raw message.
      const typo = await run(['user', 'add', '--emial', 'ada@example.com']);
      expect(typo.code).toBe(2);
      expect(typo.stderr).toBe(
        'svc: unknown option --emial for `svc user add`. Did you mean --email? Its options: --email, --password, --help.\n',
      );
      const port = await run(['serve', '--prot', '9000']);
      expect(port.code).toBe(2);
      expect(port.stderr).toContain('Did you mean --port? Its options: --port, --host, --data-dir, --help.');
      const nothingClose = await run(['connect', '--zzzzzzzz']);
      expect(nothingClose.stderr).toBe(
        'svc: unknown option --zzzzzzzz for `svc connect`. Its options: --email, --agent, --host-name, --help.\n',
      );
      const missing = await run(['user', 'add', '--email']);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toMatch(
        /^svc: svc user add: Option '--email <value>' argument missing\. See `svc user add --help`\.\n$/,
      );
      for (const args of [
        ['serve', '--help'],
        ['user', '--help'],
        ['user', 'add', '--help'],
        ['connect', '--help'],
      ]) {
        const r = await run(args);
        expect(r.code, args.join(' ')).toBe(0);
        expect(r.stdout).toMatch(/svc/);
      }
    } finally {
      if (saved === undefined) delete process.env.SVC_DATA_DIR;
      else process.env.SVC_DATA_DIR = saved;
    }
  });

  it('serve starts the server and stops on SIGTERM with exit 0', async () => {
    const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--host', '127.0.0.1'], {
      env: { ...process.env, SVC_DATA_DIR: dataDir, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const line = await new Promise<{ port: number }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no start line: ${out}`)), 10_000);
      child.stdout.on('data', (c) => {
        out += c;
        const l = out.split('\n').find((x) => x.includes('listening on'));
        if (l) {
          clearTimeout(timer);
          resolve(JSON.parse(l));
        }
      });
    });
    const res = await fetch(`http://127.0.0.1:${line.port}/healthz`);
    expect(res.status).toBe(200);
    child.kill('SIGTERM');
    expect(await new Promise((r) => child.on('exit', r))).toBe(0);
  });
});
