// The set-up the offline browser tests share: the real service behind a network gate (the phone reaches it
// only through the gate), Chromium with its own profile, the switch between online and offline, a person
// signed up with an agent paired over MCP (`pairInApp`), and a picture to send.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { type Chromium, launchChromium } from './chromium.js';
import { connectMcpAgent, type McpAgent } from './mcp-agent.js';
import { freePort, networkGate } from './network-gate.js';
import { pairInApp } from './pair-in-app.js';
import { type ServiceOptions, startService } from './server.js';

/** The service, its gate and the browser of one offline test file. */
export interface OfflinePhone {
  service: Awaited<ReturnType<typeof startService>>;
  /** The service as the phone reaches it: through the gate. */
  url: string;
  /** The service itself, as the AI app reaches it (not through the phone's network). */
  direct: string;
  /** The browser now (a restart gives a new one on the same profile). */
  readonly browser: Chromium;
  /** The phone goes offline (or back): the browser's own offline state, and the gate for everything else. */
  network(on: boolean): Promise<void>;
  /** Closes the browser and starts it again on the same profile, as a phone's browser restarts. */
  restartBrowser(): Promise<void>;
  close(): Promise<void>;
}

/** Starts the service behind a gate (its links name the gate) and Chromium with a profile named `name`. */
export async function startOfflinePhone(name: string, options: ServiceOptions = {}): Promise<OfflinePhone> {
  const profile = mkdtempSync(join(tmpdir(), `svc-${name}-`));
  const port = await freePort();
  const gate = networkGate(port);
  const url = `http://127.0.0.1:${await gate.listen()}`;
  const service = await startService({ port, baseUrl: url }, options);
  let browser = await launchChromium({ dir: profile });
  return {
    service,
    url,
    direct: `http://127.0.0.1:${port}`,
    get browser() {
      return browser;
    },
    async network(on) {
      gate.set(on);
      await browser.context.setOffline(!on);
    },
    async restartBrowser() {
      await browser.close();
      browser = await launchChromium({ dir: profile });
    },
    async close() {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
      await service.dispose();
      await gate.close();
    },
  };
}

/**
 * Signs a person up on `page` (through the gate), adds an agent named `agentName`, pairs it over MCP as the AI
 * app would (reaching the service directly) and opens its thread: the agent and the thread's URL.
 */
export async function signUpAndPair(
  phone: OfflinePhone,
  page: Page,
  who: { email: string; agentName: string },
): Promise<{ agent: McpAgent; threadUrl: string }> {
  const token = await pairInApp(page, phone.url, who.email, who.agentName, phone.direct);
  const agent = await connectMcpAgent(phone.direct, token);
  await page.getByRole('link', { name: 'Open the thread' }).click();
  return { agent, threadUrl: page.url() };
}

/** A small picture with colour (a screenshot shows it); each `shade` is other bytes. */
export function picture(shade = 40): Buffer {
  const png = new PNG({ width: 96, height: 64 });
  for (let i = 0; i < png.data.length; i += 4) png.data.set([shade, 120 + ((i / 4) % 96), 200, 255], i);
  return PNG.sync.write(png);
}
