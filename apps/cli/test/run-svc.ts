// Runs the built `svc` as a child process with extra environment; collects its output and exit code.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The built entry the tests run (nx builds it before the tests). */
export const SVC_BIN = fileURLToPath(new URL('../dist/svc.js', import.meta.url));

export interface SvcRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `svc <args>` with `env` over the test process's environment; `stdin` is written and closed. */
export function runSvc(args: string[], env: Record<string, string>, stdin = ''): Promise<SvcRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SVC_BIN, ...args], {
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => {
      stdout += c;
    });
    child.stderr.on('data', (c) => {
      stderr += c;
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}
