// The relay killed mid-ask and started again: the new run stops the wrapped server the old one left behind,
// tells the person the old question is closed (its screen no longer counts), a tap on that stale screen reaches
// no one, and the next ask works. A client that goes away mid-ask has the screen withdrawn and nothing kept.
import fs from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { clientThroughRelay, EVERYTHING, relayArgs, relayFiles, resultText } from './harness.js';
import { rawResult } from './person.js';
import { pairedAgent, type Service, startService } from './service.js';

let service: Service;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service?.stop();
});

it('SIGKILL mid-ask, then a restart on the same state file', async () => {
  const paired = await pairedAgent(service.base, 'Everything restart');
  const files = relayFiles(paired.token);
  const args = relayArgs({
    mcpUrl: service.mcpUrl,
    tokenFile: files.tokenFile,
    state: files.state,
    server: [process.execPath, EVERYTHING],
  });
  const seen = new Set<string>();

  const first = await clientThroughRelay(args);
  const lost = first.client.callTool({ name: 'trigger-elicitation-request', arguments: {} });
  const stale = await paired.person.nextScreen(seen);
  // The open ask is written down (owner-only) before its screen is shown.
  expect(JSON.parse(fs.readFileSync(files.state, 'utf8')).open).toHaveLength(1);
  expect(fs.statSync(files.state).mode & 0o777).toBe(0o600);
  const child = JSON.parse(fs.readFileSync(files.state, 'utf8')).child as { pid: number };
  process.kill(first.transport.pid!, 'SIGKILL');
  const lostCall = lost.then(
    () => 'resolved',
    () => 'rejected',
  );

  // The new run stops the wrapped server the killed one left (it still waits for its answer), which also ends
  // the first client's call.
  const second = await clientThroughRelay(args);
  expect(await lostCall).toBe('rejected');
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  await expect.poll(() => alive(child.pid)).toBe(false);
  await expect
    .poll(async () => (await paired.person.messages()).map((m) => m.body).join('\n'))
    .toMatch(
      /The relay restarted, so Everything Reference Server's question is closed .*Please provide inputs/,
    );
  expect(JSON.parse(fs.readFileSync(files.state, 'utf8')).open).toEqual([]);

  // A tap on the stale screen is taken by the service but answers nothing: the next ask gets its own answer.
  await paired.person.tap(stale.id, { id: 'ask', value: 'Answer' });
  const call = second.client.callTool({ name: 'trigger-elicitation-request', arguments: {} });
  const fresh = await paired.person.nextScreen(seen);
  expect(fresh.id).not.toBe(stale.id);
  await paired.person.tap(fresh.id, { id: 'ask', value: 'Decline' });
  expect(rawResult(resultText(await call))).toEqual({ action: 'decline' });

  await second.client.close();
  fs.rmSync(files.dir, { recursive: true, force: true });
});

it('the client going away mid-ask withdraws the phone screen and leaves nothing open', async () => {
  const paired = await pairedAgent(service.base, 'Everything closing');
  const files = relayFiles(paired.token);
  const args = relayArgs({
    mcpUrl: service.mcpUrl,
    tokenFile: files.tokenFile,
    state: files.state,
    server: [process.execPath, EVERYTHING],
  });
  const { client, transport } = await clientThroughRelay(args);
  const call = client.callTool({ name: 'trigger-elicitation-request', arguments: {} }).catch(() => 'closed');
  await paired.person.nextScreen(new Set());
  const relayPid = transport.pid!;
  await client.close();
  expect(await call).toBe('closed');
  await expect
    .poll(async () => (await paired.person.messages()).map((m) => m.body).join('\n'))
    .toContain('Never mind: Everything Reference Server no longer needs this answer.');
  await expect
    .poll(() => {
      try {
        process.kill(relayPid, 0);
        return true;
      } catch {
        return false;
      }
    })
    .toBe(false);
  expect(JSON.parse(fs.readFileSync(files.state, 'utf8'))).toEqual({ open: [] });
  fs.rmSync(files.dir, { recursive: true, force: true });
});
