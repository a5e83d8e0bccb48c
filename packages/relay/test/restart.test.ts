// The relay killed mid-ask and started again: the new run stops the wrapped server the old one left behind,
// withdraws the screen the old question left on the phone (the thread shows it withdrawn, a tap on it is
// refused), and the next ask works. A client that goes away mid-ask has the screen withdrawn and nothing kept.
import fs from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { clientThroughRelay, EVERYTHING, relayArgs, relayFiles, resultText } from './harness.js';
import { expectWithdrawn, rawResult } from './person.js';
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
  // The open ask is written down (owner-only) before its screen is shown, and the screen's id once shown.
  const openAsks = () => JSON.parse(fs.readFileSync(files.state, 'utf8')).open as { screen?: string }[];
  await expect.poll(() => openAsks().map((a) => a.screen)).toEqual([stale.id]);
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
  // The stale screen is withdrawn on the service: the thread shows it withdrawn and a tap on it is refused.
  await expectWithdrawn(paired.person, stale.id);
  expect(openAsks()).toEqual([]);
  expect((await paired.person.messages()).map((m) => m.body).join('\n')).not.toContain('relay restarted');

  // The next ask works as usual, on its own screen.
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
  const open = await paired.person.nextScreen(new Set());
  const relayPid = transport.pid!;
  await client.close();
  expect(await call).toBe('closed');
  await expectWithdrawn(paired.person, open.id);
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

it('an open ask written down without its screen (killed before the screen came back) is closed with a chat line', async () => {
  const paired = await pairedAgent(service.base, 'Everything old state');
  const files = relayFiles(paired.token);
  const ask = { id: 'old-1', server: 'Old Server', message: 'Pick a plan', at: new Date().toISOString() };
  fs.writeFileSync(files.state, JSON.stringify({ open: [ask] }), { mode: 0o600 });
  const { client } = await clientThroughRelay(
    relayArgs({
      mcpUrl: service.mcpUrl,
      tokenFile: files.tokenFile,
      state: files.state,
      server: [process.execPath, EVERYTHING],
    }),
  );
  await expect
    .poll(async () => (await paired.person.messages()).map((m) => m.body).join('\n'))
    .toContain('The relay restarted, so Old Server\'s question is closed ("Pick a plan")');
  expect(JSON.parse(fs.readFileSync(files.state, 'utf8')).open).toEqual([]);
  await client.close();
  fs.rmSync(files.dir, { recursive: true, force: true });
});
