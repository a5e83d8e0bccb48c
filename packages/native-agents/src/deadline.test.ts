// A native agent's screen deadline (issue 40, ADR 0305): the model writes a fenced `deadline` block after its
// screen, the runtime carries it to the host API's reply as `svc_show` takes it, the core decides it on its
// clock, and the model's next turn reads the default as one it did not get from the person.
import { afterEach, describe, expect, it } from 'vitest';
import { createRig, type Rig, settle } from '../test/setup.js';
import { splitScreen } from './prompt.js';

let rig: Rig;
afterEach(async () => {
  await rig.close();
});

const lastUser = (n = rig.model.requests.length - 1) => rig.model.requests[n]!.messages.at(-1)!.content;
const SCREEN = '```svc\nchoose@lunch "Lunch?" Soup|Salad\n```';

describe('a native agent sets a deadline on its screen', () => {
  it('the default lands once at the deadline, and the model reads it as decided by default', async () => {
    rig = await createRig();
    const agentId = await rig.blank();
    rig.model.script(
      `Pick one.\n${SCREEN}\n\`\`\`deadline\n{"in": "10m", "default": {"lunch": "Soup"}}\n\`\`\``,
      'Soup it is, then.',
    );
    await rig.say(agentId, 'lunch?');
    const screen = (await rig.rows(agentId)).find((r) => r.kind === 'screen')!;
    // The block is the deadline, not words: the person reads the prose and the screen only.
    expect(screen.meta.text).toBe('Pick one.');
    expect(screen.meta.deadline).toMatchObject({ defaults: [{ id: 'lunch', value: 'Soup' }] });

    rig.core.advance(10 * 60_000 - 1);
    expect(await rig.core.deadlines.sweep()).toEqual([]);
    rig.core.advance(1);
    expect((await rig.core.deadlines.sweep()).map((s) => s.step)).toEqual(['deadline']);
    expect(await rig.core.deadlines.sweep()).toEqual([]);
    await settle(rig.runtime);

    const decided = (await rig.rows(agentId)).filter((r) => r.kind === 'tap');
    expect(decided).toHaveLength(1);
    expect(decided[0]!.meta).toMatchObject({ decided_by: 'default', step: 'deadline', value: 'Soup' });
    expect(rig.model.requests).toHaveLength(2);
    // The tap line and its event, then who decided: not the person.
    expect(lastUser()).toMatch(
      /^\[svc\] lunch choose choice=Soup\n\{.*\} \(decided by default: nobody answered by the deadline\)$/,
    );
    expect((await rig.rows(agentId)).at(-1)!.body).toBe('Soup it is, then.');

    const late = await rig.core.threads
      .tap(rig.user.id, agentId, { screen_id: screen.screenId, event: { id: 'lunch', value: 'Salad' } })
      .then(
        () => null,
        (e: Error) => e.message,
      );
    expect(late).toMatch(/expired at .*: Soup was chosen by default/);
  });

  it('a bare duration lets the screen expire with no default', async () => {
    rig = await createRig();
    const agentId = await rig.blank();
    rig.model.script(`${SCREEN}\n\`\`\`deadline\n5m\n\`\`\``, 'Too late for lunch.');
    await rig.say(agentId, 'lunch?');
    const screen = (await rig.rows(agentId)).find((r) => r.kind === 'screen')!;
    expect(screen.meta.deadline).toMatchObject({ defaults: [] });
    rig.core.advance(5 * 60_000);
    expect((await rig.core.deadlines.sweep()).map((s) => s.step)).toEqual(['deadline']);
    await settle(rig.runtime);
    const expired = (await rig.rows(agentId)).find((r) => r.kind === 'tap')!;
    expect(expired.meta).toMatchObject({ decided_by: 'default', value: 'expired' });
  });

  it('a deadline the core refuses: the screen is shown without it and the model is told why', async () => {
    rig = await createRig();
    const agentId = await rig.blank();
    rig.model.script(
      `${SCREEN}\n\`\`\`deadline\n{"in": "10m", "default": {"lunch": "Pizza"}}\n\`\`\``,
      'Noted.',
    );
    await rig.say(agentId, 'lunch?');
    const screen = (await rig.rows(agentId)).find((r) => r.kind === 'screen')!;
    expect(screen.body).toBe('choose@lunch "Lunch?" Soup|Salad');
    expect(screen.meta.deadline).toBeUndefined();
    // One screen: the refused reply wrote nothing.
    expect((await rig.rows(agentId)).filter((r) => r.sender === 'agent')).toHaveLength(1);
    await rig.say(agentId, 'and?');
    expect(lastUser()).toMatch(/^\[svc\] Your deadline was not set: deadline\.default\.lunch: .*"Pizza"/);
  });

  it('a deadline without a screen, or one that is not JSON, is not set and the model is told', async () => {
    rig = await createRig();
    const agentId = await rig.blank();
    rig.model.script(
      'No screen today.\n```deadline\n{"in": "10m"}\n```',
      `${SCREEN}\n\`\`\`deadline\n{in: 10m}\n\`\`\``,
      'Fine.',
    );
    await rig.say(agentId, 'hi');
    expect((await rig.rows(agentId)).at(-1)!.body).toBe('No screen today.');
    await rig.say(agentId, 'lunch?');
    expect(lastUser()).toMatch(/^\[svc\] Your deadline was not set: a deadline goes with a screen\./);
    const screen = (await rig.rows(agentId)).find((r) => r.kind === 'screen')!;
    expect(screen.meta.deadline).toBeUndefined();
    await rig.say(agentId, 'so?');
    expect(lastUser()).toMatch(/^\[svc\] Your deadline was not set: it is not JSON/);
  });
});

describe('splitScreen and the deadline block', () => {
  it('takes the last deadline block out of the words, beside the screen', () => {
    expect(splitScreen(`Hi\n${SCREEN}\n\`\`\`Deadline\n{"in": "1h"}\n\`\`\`\nBye`)).toEqual({
      prose: 'Hi\nBye',
      lines: 'choose@lunch "Lunch?" Soup|Salad',
      deadline: '{"in": "1h"}',
    });
    expect(splitScreen('Hi').deadline).toBeNull();
  });
});
