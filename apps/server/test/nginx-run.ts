// Runs Debian's nginx on a checked-in site file for a test: a self-signed certificate for 127.0.0.1, free
// ports, and the site's addresses and certificate paths swapped; everything else as written.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Agent, fetch as undiciFetch } from 'undici';
import { freePort } from '../../../config/free-port.js';
import { ensureNginx } from './nginx-setup.js';

export { freePort };

async function waitForPort(port: number, log: () => string, ms = 10_000) {
  const until = Date.now() + ms;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => {
        s.end();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`nginx did not listen on ${port}: ${log()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface RunningNginx {
  /** `https://127.0.0.1:<port>`: what the instances must advertise as SVC_BASE_URL. */
  base: string;
  /** The plain-HTTP port (the site redirects it to HTTPS). */
  httpPort: number;
  /** nginx's error log so far. */
  log(): string;
  /** fetch trusting the test certificate. */
  fetch: typeof fetch;
  /** Starts nginx on the site, with `upstreams[i]` in place of the site's i-th `server 127.0.0.1:<port>`. */
  start(upstreams: number[]): Promise<void>;
  /** Stops nginx only (a benchmark starts it again on other upstreams). */
  halt(): Promise<void>;
  stop(): Promise<void>;
}

/** Prepares the certificate and ports (so the base URL is known before the instances start). */
export async function prepareNginx(siteFile: string): Promise<RunningNginx> {
  const bin = ensureNginx();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-nginx-'));
  fs.chmodSync(dir, 0o755);
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      path.join(dir, 'key.pem'),
      '-out',
      path.join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  const agent = new Agent({ connect: { ca: fs.readFileSync(path.join(dir, 'cert.pem')) } });
  const tlsPort = await freePort();
  const httpPort = await freePort();
  let nginx: ChildProcess | undefined;
  const log = () =>
    fs.existsSync(path.join(dir, 'error.log')) ? fs.readFileSync(path.join(dir, 'error.log'), 'utf8') : '';
  const halt = async () => {
    if (nginx?.pid && nginx.exitCode === null) {
      const exited = new Promise((r) => nginx!.once('exit', r));
      nginx.kill('SIGQUIT');
      await exited;
    }
  };
  return {
    base: `https://127.0.0.1:${tlsPort}`,
    httpPort,
    log,
    fetch: ((url: string | URL, init?: RequestInit) =>
      undiciFetch(url, { ...(init as object), dispatcher: agent })) as unknown as typeof fetch,
    async start(upstreams) {
      let i = 0;
      const site = fs
        .readFileSync(siteFile, 'utf8')
        .replace(/server 127\.0\.0\.1:\d+/g, (m) => `server 127.0.0.1:${upstreams[i++] ?? m.split(':')[1]}`)
        .replace(/^\s*listen \[::\]:.*$/gm, '')
        .replace('listen 80;', `listen 127.0.0.1:${httpPort};`)
        .replace('listen 443 ssl;', `listen 127.0.0.1:${tlsPort} ssl;`)
        .replace(/\/etc\/letsencrypt\/live\/svc\.example\.com\/fullchain\.pem/, path.join(dir, 'cert.pem'))
        .replace(/\/etc\/letsencrypt\/live\/svc\.example\.com\/privkey\.pem/, path.join(dir, 'key.pem'));
      if (i !== upstreams.length)
        throw new Error(`the site names ${i} upstream servers, not ${upstreams.length}`);
      fs.writeFileSync(path.join(dir, 'site.conf'), site);
      const temp = (name: string) => `${name}_temp_path ${path.join(dir, name)};`;
      fs.writeFileSync(
        path.join(dir, 'nginx.conf'),
        `${process.getuid?.() === 0 ? 'user root;' : ''}
worker_processes 1;
pid ${path.join(dir, 'nginx.pid')};
error_log ${path.join(dir, 'error.log')} warn;
events { worker_connections 256; }
http {
  access_log ${path.join(dir, 'access.log')};
  ${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join('\n  ')}
  include ${path.join(dir, 'site.conf')};
}
`,
      );
      execFileSync(bin, ['-t', '-p', dir, '-c', path.join(dir, 'nginx.conf')], { stdio: 'pipe' });
      nginx = spawn(bin, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-g', 'daemon off;'], {
        stdio: 'ignore',
      });
      await waitForPort(tlsPort, log);
    },
    halt,
    async stop() {
      await halt();
      await agent.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
