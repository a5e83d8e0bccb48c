// The browser tests' global set-up (config/chromium-setup.ts): when it installs Chromium, when it
// refuses, and that the refusal names the exact command. Decisions only: nothing is installed here.
import { describe, expect, it } from 'vitest';
import {
  type ChromiumSetupEnv,
  DEFAULT_CHROMIUM_PATH,
  ensureChromium,
} from '../../../config/chromium-setup.js';

function machine(files: string[], isRoot: boolean, aptStatus = 0) {
  const present = new Set(files);
  const ran: string[] = [];
  const logged: string[] = [];
  const env: ChromiumSetupEnv = {
    configuredPath: undefined,
    exists: (p) => present.has(p),
    isRoot,
    run: (command, args) => {
      ran.push(`${command} ${args.join(' ')}`);
      if (aptStatus === 0 && args[0] === 'install') present.add(DEFAULT_CHROMIUM_PATH);
      return aptStatus;
    },
    log: (line) => logged.push(line),
  };
  return { env, ran, logged };
}

describe('ensureChromium', () => {
  it('uses /usr/bin/chromium when it is there and runs nothing', () => {
    const m = machine([DEFAULT_CHROMIUM_PATH, '/usr/bin/apt-get'], true);
    expect(ensureChromium(m.env)).toBe(DEFAULT_CHROMIUM_PATH);
    expect(m.ran).toEqual([]);
  });

  it('installs Debian chromium with apt-get when missing, as root, and says so', () => {
    const m = machine(['/usr/bin/apt-get'], true);
    expect(ensureChromium(m.env)).toBe(DEFAULT_CHROMIUM_PATH);
    expect(m.ran).toEqual([
      '/usr/bin/apt-get update -qq',
      '/usr/bin/apt-get install -y -qq --no-install-recommends chromium',
    ]);
    expect(m.logged[0]).toMatch(/installing Debian's chromium/);
  });

  it('refuses with the exact command when not root, or without apt-get, or when apt-get fails', () => {
    expect(() => ensureChromium(machine(['/usr/bin/apt-get'], false).env)).toThrow(
      /missing \(not root, so not installing it\)\. Install it with `sudo apt-get install -y chromium`/,
    );
    expect(() => ensureChromium(machine([], true).env)).toThrow(/set CHROMIUM_PATH/);
    expect(() => ensureChromium(machine(['/usr/bin/apt-get'], true, 100).env)).toThrow(
      /`\/usr\/bin\/apt-get update -qq` failed \(exit 100\)/,
    );
  });

  it('honours CHROMIUM_PATH, and names it when the file is not there', () => {
    const m = machine(['/opt/chrome'], false);
    expect(ensureChromium({ ...m.env, configuredPath: '/opt/chrome' })).toBe('/opt/chrome');
    expect(() => ensureChromium({ ...m.env, configuredPath: '/nope' })).toThrow(/CHROMIUM_PATH is \/nope/);
  });
});
