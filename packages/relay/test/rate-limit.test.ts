// A relayed form meets the service's per-connection rate limit (a burst of screens, three calls a screen): the
// relay and the agent SDK wait out each 429 and send again, so the form is slowed down, not cancelled.
import fs from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { clientThroughRelay, EVERYTHING, relayArgs, relayFiles, resultText } from './harness.js';
import { answerForm, rawResult } from './person.js';
import { pairedAgent, type Service, startService } from './service.js';

let service: Service;
beforeAll(async () => {
  // A small burst and a quick refill: the limit is met within one form, and waiting it out takes seconds.
  service = await startService({ SVC_MCP_RATE_BURST: '6', SVC_MCP_RATE_PER_MINUTE: '600' });
});
afterAll(async () => {
  await service?.stop();
});

it('a form past the rate limit is paced, and the server receives exactly the answers', async () => {
  const paired = await pairedAgent(service.base, 'Everything paced');
  const files = relayFiles(paired.token);
  const { client } = await clientThroughRelay(
    relayArgs({ mcpUrl: service.mcpUrl, tokenFile: files.tokenFile, server: [process.execPath, EVERYTHING] }),
  );
  const before = await service.refusedForRate();
  const call = client.callTool({ name: 'trigger-elicitation-request', arguments: {} });
  await answerForm(paired.person, new Set(), {
    String: ['Paced'],
    Boolean: [true],
    'String with default': ['-'],
    'String with email format': ['-'],
    'String with uri format': ['-'],
    'String with date format': ['-'],
    Integer: ['9'],
    'Number in range 1-1000': ['-'],
    'Untitled Single Select Enum': ['Skip'],
    'Untitled Multiple Select Enum': [['None']],
    'Titled Single Select Enum': ['Skip'],
    'Titled Multiple Select Enum': [['None']],
    'Legacy Titled Single Select Enum': ['Skip'],
  });
  expect(rawResult(resultText(await call))).toMatchObject({
    action: 'accept',
    content: { name: 'Paced', check: true, integer: 9 },
  });
  // The limit was met on the way (the service refused calls), and nothing was lost to it.
  expect((await service.refusedForRate()) - before).toBeGreaterThan(0);
  await client.close();
  fs.rmSync(files.dir, { recursive: true, force: true });
});
