// Against the real server: each interrupt becomes a screen, and the graph resumes with the person's taps.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { connect } from '@screen-service/agent';
import { pairedAgent, startService } from '../../packages/agent/test/service.ts';
import { lunchGraph, runWithPerson } from './graph.mjs';

let service;
before(async () => {
  service = await startService();
});
after(() => service?.stop());

test('the graph stops at each interrupt and resumes with the answer from the phone', async () => {
  const { token, person } = await pairedAgent(service.base);
  const svc = connect({ url: service.mcpUrl, token });
  const run = runWithPerson(svc, lunchGraph(), 'thread-1');
  const seen = new Set();
  const dish = await person.nextScreen(seen);
  assert.equal(dish.lines, 'choose@ask "Lunch?" Soup|Salad');
  await person.tap(dish.id, { id: 'ask', value: 'Salad' });
  const servings = await person.nextScreen(seen);
  assert.equal(servings.lines, 'ask@ask "How many Salad?" type=number');
  await person.tap(servings.id, { id: 'ask', value: 2 });
  const state = await run;
  assert.equal(state.receipt, '2 x Salad');
  await svc.close();
});
