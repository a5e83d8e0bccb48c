// Vitest global set-up of the browser-test packages: makes sure a Chromium exists before any test file
// launches one, so `npm install && npm test` passes on a fresh Debian/Ubuntu machine (run as root) and
// says the exact command everywhere else.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where the browser tests look (their `CHROMIUM_PATH`); Debian's `chromium` package installs it here. */
export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';

export interface ChromiumSetupEnv {
  /** `process.env.CHROMIUM_PATH`, when the person points at another Chromium or Chrome. */
  configuredPath: string | undefined;
  exists(path: string): boolean;
  /** True when this process may install system packages (root). */
  isRoot: boolean;
  /** Runs a command with its output shown; resolves to its exit status. */
  run(command: string, args: string[]): number;
  log(line: string): void;
}

/** What the person types to get Chromium (shown when we cannot do it ourselves). */
export const INSTALL_HINT =
  'Install it with `sudo apt-get install -y chromium` (Debian, Ubuntu), or set CHROMIUM_PATH to a Chromium or Chrome binary ' +
  '(macOS: CHROMIUM_PATH="/Applications/Google Chrome.app/Contents/MacOS/Google Chrome" npm test).';

/**
 * Returns the Chromium path the tests will use, installing Debian's `chromium` with apt-get when it is
 * missing and this process runs as root with apt-get available. Throws an Error with the exact command
 * otherwise. The decision is pure over `env`, so it is tested without touching the machine.
 */
export function ensureChromium(env: ChromiumSetupEnv): string {
  if (env.configuredPath !== undefined) {
    if (env.exists(env.configuredPath)) return env.configuredPath;
    throw new Error(`CHROMIUM_PATH is ${env.configuredPath}, but there is no file there. ${INSTALL_HINT}`);
  }
  if (env.exists(DEFAULT_CHROMIUM_PATH)) return DEFAULT_CHROMIUM_PATH;
  const apt = '/usr/bin/apt-get';
  if (!env.isRoot || !env.exists(apt)) {
    throw new Error(
      `The browser tests need Chromium at ${DEFAULT_CHROMIUM_PATH} and it is missing${
        env.exists(apt) ? ' (not root, so not installing it)' : ''
      }. ${INSTALL_HINT}`,
    );
  }
  env.log(
    `Chromium is missing at ${DEFAULT_CHROMIUM_PATH}: installing Debian's chromium for the browser tests (apt-get update; apt-get install -y chromium), once.`,
  );
  const steps: [string, string[]][] = [
    [apt, ['update', '-qq']],
    [apt, ['install', '-y', '-qq', '--no-install-recommends', 'chromium']],
  ];
  for (const [command, args] of steps) {
    const status = env.run(command, args);
    if (status !== 0) {
      throw new Error(
        `\`${command} ${args.join(' ')}\` failed (exit ${status}); the browser tests need Chromium. ${INSTALL_HINT}`,
      );
    }
  }
  if (!env.exists(DEFAULT_CHROMIUM_PATH))
    throw new Error(
      `apt-get installed chromium but ${DEFAULT_CHROMIUM_PATH} is still missing. ${INSTALL_HINT}`,
    );
  env.log(`Installed ${DEFAULT_CHROMIUM_PATH}.`);
  return DEFAULT_CHROMIUM_PATH;
}

/**
 * Runs `fn` holding a machine-wide lock (a directory), so two packages' test runs started side by side by
 * nx do not both call apt-get (the second would fail on dpkg's lock); the second waits, then finds Chromium.
 * A lock older than 15 minutes is taken as left behind by a killed run.
 */
function withInstallLock<T>(fn: () => T): T {
  const lock = join(tmpdir(), 'screen-service-chromium-install.lock');
  const wait = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      try {
        if (Date.now() - statSync(lock).mtimeMs > 15 * 60_000) rmSync(lock, { recursive: true, force: true });
      } catch {
        // gone meanwhile: try again
      }
      Atomics.wait(wait, 0, 0, 500);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** The vitest `globalSetup` entry: runs once per `vitest run`, before the test files. */
export default function setup(): void {
  const configured = process.env.CHROMIUM_PATH || undefined;
  const ensure = () =>
    ensureChromium({
      configuredPath: configured,
      exists: existsSync,
      isRoot: process.getuid?.() === 0,
      run: (command, args) =>
        spawnSync(command, args, {
          stdio: 'inherit',
          env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
        }).status ?? 1,
      log: (line) => console.log(line),
    });
  const path = configured || existsSync(DEFAULT_CHROMIUM_PATH) ? ensure() : withInstallLock(ensure);
  process.env.CHROMIUM_PATH = path;
}
