// Finds Debian's nginx for the reverse-proxy test, installing it with apt-get when it is missing (as root),
// without letting the package start its own daemon on port 80.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

const NGINX = '/usr/sbin/nginx';
const POLICY = '/usr/sbin/policy-rc.d';

/**
 * The nginx binary's path. Installs the `nginx` package when absent and this runs as root with apt-get;
 * otherwise throws with the command to run.
 */
export function ensureNginx(log: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): string {
  if (fs.existsSync(NGINX)) return NGINX;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!root || !fs.existsSync('/usr/bin/apt-get')) {
    throw new Error(
      `The nginx test needs Debian's nginx at ${NGINX}: run \`sudo apt-get install -y nginx\` (nothing else is set up by it).`,
    );
  }
  log('Installing nginx for the reverse-proxy test: apt-get update && apt-get install -y nginx');
  // policy-rc.d answering 101 tells the package scripts not to start the daemon (Debian's documented switch).
  const ownPolicy = !fs.existsSync(POLICY);
  if (ownPolicy) fs.writeFileSync(POLICY, '#!/bin/sh\nexit 101\n', { mode: 0o755 });
  try {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'nginx'], {
      stdio: 'inherit',
      env,
    });
  } finally {
    if (ownPolicy) fs.rmSync(POLICY, { force: true });
  }
  if (!fs.existsSync(NGINX)) throw new Error(`apt-get install nginx finished but ${NGINX} is missing`);
  return NGINX;
}
