// The real built server as a child process on 127.0.0.1: start, wait until healthy, sample, SIGKILL, restart.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../../config/free-port.js';
import { request } from './http.js';
import { collectGarbage, inspectorUrl } from './inspector-gc.js';

export { freePort };

/** The built server entry (`npm run build` of @screen-service/server; nx builds it before this package). */
export const SERVER_MAIN = fileURLToPath(new URL('../../server/dist/main.js', import.meta.url));

/** The token `/metrics` answers (16+ characters); the suites read waiters and streams through it. */
export const METRICS_TOKEN = 'load-faults-metrics-token';

export interface ServiceOptions {
  dataDir: string;
  /** Fixed across restarts so clients keep their URL; 0 = pick a free one now. */
  port?: number;
  /** Extra environment (SVC_MCP_RATE_BURST, SVC_STREAMS_PER_ACCOUNT, ...). */
  env?: Record<string, string>;
  /** How long to wait for /healthz after the spawn. */
  startTimeoutMs?: number;
  /** Starts the server with its inspector on a random loopback port, for `collectGarbage()`. */
  inspector?: boolean;
}

/** What the operating system says about the service process. */
export interface ProcessSample {
  rssBytes: number;
  openFds: number;
}

export interface ServiceProcess {
  readonly base: string;
  readonly port: number;
  readonly dataDir: string;
  /** The live process id (changes on restart). */
  pid(): number;
  /** RSS from /proc/<pid>/status and the entries of /proc/<pid>/fd. */
  sample(): ProcessSample;
  /** `/metrics` as name{labels} → value (only unlabelled and simple series). */
  metrics(): Promise<Map<string, number>>;
  /** SIGKILL, then wait for the exit. */
  kill(): Promise<void>;
  /** Starts again on the same data dir and port. */
  restart(): Promise<void>;
  /** SIGTERM (graceful), then wait for the exit. */
  stop(): Promise<void>;
  /** The last lines the process wrote to stderr (for a failure message). */
  stderrTail(): string;
  /** A full garbage collection in the server (needs `inspector: true`). */
  collectGarbage(): Promise<void>;
}

/**
 * Spawns `node apps/server/dist/main.js` with PORT, HOST=127.0.0.1, SVC_DATA_DIR, SVC_BASE_URL and a metrics
 * token, and resolves once `/healthz` answers 200.
 *
 * @example
 * ```ts
 * const svc = await startService({ dataDir: fs.mkdtempSync('/tmp/svc-') });
 * await svc.kill(); await svc.restart(); await svc.stop();
 * ```
 */
export async function startService(options: ServiceOptions): Promise<ServiceProcess> {
  if (!fs.existsSync(SERVER_MAIN)) {
    throw new Error(
      `The built server is missing (${SERVER_MAIN}): run \`npx nx run @screen-service/server:build\` first.`,
    );
  }
  const port = options.port || (await freePort());
  const base = `http://127.0.0.1:${port}`;
  let child: ChildProcess;
  let exited: Promise<void>;
  let tail = '';
  let inspector: string | undefined;
  const stopping = new WeakSet<ChildProcess>();
  const spawnOnce = async () => {
    inspector = undefined;
    const args = options.inspector ? ['--inspect=127.0.0.1:0', SERVER_MAIN] : [SERVER_MAIN];
    child = spawn(process.execPath, args, {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        SVC_DATA_DIR: options.dataDir,
        SVC_BASE_URL: base,
        SVC_METRICS_TOKEN: METRICS_TOKEN,
        LOG_LEVEL: 'warn',
        LOG_FORMAT: 'json',
        ...options.env,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr?.on('data', (c: Buffer) => {
      tail = (tail + c.toString()).slice(-4000);
      inspector ??= inspectorUrl(tail);
    });
    const self = child;
    exited = new Promise((resolve) =>
      self.once('exit', (code, signal) => {
        // An exit nobody asked for (not our SIGKILL or SIGTERM) is a crash: say so with its last words.
        if (!stopping.has(self)) {
          console.error(
            `[service] pid ${self.pid} exited by itself (code ${code}, signal ${signal}); its stderr ended with:\n${tail}`,
          );
        }
        resolve();
      }),
    );
    await waitHealthy(
      base,
      options.startTimeoutMs ?? 30_000,
      () => child.exitCode !== null,
      () => tail,
    );
  };
  await spawnOnce();
  const waitExit = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    await exited;
  };
  return {
    base,
    port,
    dataDir: options.dataDir,
    pid: () => child.pid ?? -1,
    sample: () => sampleProcess(child.pid ?? -1),
    metrics: () => readMetrics(base),
    async kill() {
      stopping.add(child);
      child.kill('SIGKILL');
      await waitExit();
    },
    async restart() {
      await waitExit();
      await spawnOnce();
    },
    async stop() {
      stopping.add(child);
      child.kill('SIGTERM');
      await waitExit();
    },
    stderrTail: () => tail,
    async collectGarbage() {
      if (inspector === undefined) {
        throw new Error('collectGarbage needs the server started with { inspector: true }');
      }
      await collectGarbage(inspector);
    },
  };
}

async function waitHealthy(base: string, timeoutMs: number, dead: () => boolean, tail: () => string) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (dead()) throw new Error(`The server exited while starting:\n${tail()}`);
    try {
      const r = await request(`${base}/healthz`, { timeoutMs: 2000 });
      if (r.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > until)
      throw new Error(`The server did not answer /healthz within ${timeoutMs} ms:\n${tail()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** RSS (VmRSS) and the number of open file descriptors of a live process, from /proc. */
export function sampleProcess(pid: number): ProcessSample {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? 'NaN');
  return { rssBytes: kb * 1024, openFds: fs.readdirSync(`/proc/${pid}/fd`).length };
}

/** Reads `/metrics` (Prometheus text) into `name` or `name{labels}` → value. */
export async function readMetrics(base: string): Promise<Map<string, number>> {
  const r = await request(`${base}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    timeoutMs: 10_000,
  });
  if (r.status !== 200) throw new Error(`/metrics answered ${r.status}: ${r.text.slice(0, 200)}`);
  return parseMetrics(r.text);
}

/** Prometheus text → map; comments skipped. Pure. */
export function parseMetrics(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const space = line.lastIndexOf(' ');
    if (space < 0) continue;
    out.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return out;
}
