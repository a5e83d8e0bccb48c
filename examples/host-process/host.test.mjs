// Against the real server: the person writes, the host answers with a screen, the person taps, the host replies.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { createHostClient, writeHostState } from '@screen-service/connect-api/client';
import { newPerson, startService } from '../../packages/agent/test/service.ts';
import { LUNCH_LINES, serve } from './host.mjs';

let service;
const stop = new AbortController();
let host;
before(async () => {
  service = await startService();
});
after(async () => {
  stop.abort();
  await host?.done.catch(() => {});
  await service?.stop();
});

test('answers a message with the lunch screen and the tap with a reply', async () => {
  const { code, person } = await newPerson(service.base, 'Lunch bot');
  const client = createHostClient({ url: service.base });
  const paired = await client.pair({ code, remote_ref: 'lunch', host_name: 'kitchen' });
  const statePath = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'svc-host-example-')), 'host.json');
  await writeHostState(statePath, {
    token: paired.connector_token,
    connector_id: paired.connector.id,
    name: paired.connector.name,
    connect_url: client.connectUrl,
  });
  host = await serve(statePath, stop.signal);
  await person.say("I'm hungry");
  const screen = await person.nextScreen(new Set());
  assert.equal(screen.lines, LUNCH_LINES);
  assert.equal(LUNCH_LINES, 'choose@lunch "Lunch?" Soup|Salad|Pizza');
  await person.tap(screen.id, { id: 'lunch', value: 'Pizza' });
  const until = Date.now() + 15_000;
  let bodies = [];
  while (!bodies.includes('Pizza it is. Ordering now.') && Date.now() < until) {
    bodies = (await person.messages()).map((m) => m.body);
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.ok(bodies.includes('Pizza it is. Ordering now.'), `the reply never came: ${JSON.stringify(bodies)}`);
});
