// Against the real server: the tool runs only when the person taps Approve; Deny reaches the model as denied.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { connect } from '@screen-service/agent';
import { pairedAgent, startService } from '../../packages/agent/test/service.ts';
import { deployTool, runWithPhoneApproval, scriptedModel } from './approve.mjs';

let service;
before(async () => {
  service = await startService();
});
after(() => service?.stop());

for (const [tap, expected, ran] of [
  [true, 'Deployed v2.4.0 to production.', ['v2.4.0@production']],
  [false, 'You denied the deploy, so nothing changed.', []],
]) {
  test(`the person taps ${tap ? 'Approve' : 'Deny'}`, async () => {
    const { token, person } = await pairedAgent(service.base);
    const svc = connect({ url: service.mcpUrl, token });
    const deployed = [];
    const run = runWithPhoneApproval({
      svc,
      model: scriptedModel(),
      tools: { deploy: deployTool(deployed) },
      prompt: 'Ship v2.4.0 to production.',
    });
    const screen = await person.nextScreen(new Set());
    assert.equal(
      screen.lines,
      'confirm@ask "Allow deploy: {\\"version\\":\\"v2.4.0\\",\\"environment\\":\\"production\\"}?" Approve|Deny',
    );
    await person.tap(screen.id, { id: 'ask', value: tap });
    assert.equal(await run, expected);
    assert.deepEqual(deployed, ran);
    await svc.close();
  });
}
