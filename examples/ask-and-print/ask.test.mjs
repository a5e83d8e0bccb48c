// Against the real server: the script's questions land in the person's thread and their taps are printed.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { connect } from '@screen-service/agent';
import { pairedAgent, startService } from '../../packages/agent/test/service.ts';
import { askAndPrint } from './ask.mjs';

let service;
before(async () => {
  service = await startService();
});
after(() => service?.stop());

test('asks, prints each answer, and says what it will do', async () => {
  const { token, person } = await pairedAgent(service.base);
  const svc = connect({ url: service.mcpUrl, token });
  const printed = [];
  const run = askAndPrint(svc, (line) => printed.push(line));
  const seen = new Set();
  await person.tap((await person.nextScreen(seen)).id, { id: 'ask', value: 'Pizza' });
  await person.tap((await person.nextScreen(seen)).id, { id: 'ask', value: 4 });
  await run;
  await svc.close();
  assert.deepEqual(printed, ['Lunch: Pizza', 'Hunger: 4/5']);
  const bodies = (await person.messages()).map((m) => m.body);
  assert.ok(bodies.includes('Pizza for a 4/5 hunger. Ordering now.'));
});
