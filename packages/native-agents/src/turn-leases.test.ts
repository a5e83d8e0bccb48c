// Two runtimes over one store and one notifier stand for two instances: both hear every person row. With
// shared turn leases one of them runs each turn (one model call, one answer); the other looks again later.
import { guide } from '@screen-service/screen-lines';
import { afterEach, describe, expect, it } from 'vitest';
import { createRig, type Rig, settle } from '../test/setup.js';
import { createModelClient } from './model-client.js';
import { createNativeRuntime, type NativeRuntime } from './runtime.js';
import type { TurnLeases } from './turn-leases.js';

/** Leases in memory (what PostgreSQL's svc_turn_leases does across processes). */
function memoryLeases(): TurnLeases & { claims: number; refused: number } {
  const held = new Map<string, string>();
  const leases = {
    claims: 0,
    refused: 0,
    async claim(agentId: string, holder: string) {
      leases.claims += 1;
      const now = held.get(agentId);
      if (now !== undefined && now !== holder) {
        leases.refused += 1;
        return false;
      }
      held.set(agentId, holder);
      return true;
    },
    async release(agentId: string, holder: string) {
      if (held.get(agentId) === holder) held.delete(agentId);
    },
  };
  return leases;
}

let rig: Rig;
let other: NativeRuntime | undefined;
afterEach(async () => {
  other?.stop();
  other = undefined;
  await rig.close();
});

describe('native turns with leases (several instances)', () => {
  it('two runtimes hearing the same row: one model call, one answer, the other runtime is refused', async () => {
    const leases = memoryLeases();
    rig = await createRig({ leases });
    const retries: number[] = [];
    other = createNativeRuntime({
      core: rig.core,
      model: createModelClient({ url: rig.model.url, key: 'sk-test', model: 'test-model', backoffMs: 1 }),
      guide: guide().text,
      leases,
      holder: 'other',
      schedule(_run, ms) {
        retries.push(ms);
        return () => {};
      },
    });
    await other.start();
    const agentId = await rig.blank();
    let release!: () => void;
    rig.model.script({ text: 'Only once.', after: new Promise<void>((r) => (release = r)) });
    await rig.core.threads.say(rig.user.id, agentId, { text: 'hello' });
    await expect.poll(() => rig.model.requests.length).toBe(1);
    // The other runtime heard the row too and was refused the lease (it looks again when it would lapse).
    await expect.poll(() => leases.refused).toBe(1);
    expect([...retries, ...rig.timers.map((t) => t.ms)]).toEqual([60_000]);
    release();
    await settle(rig.runtime);
    await settle(other);
    expect(rig.model.requests).toHaveLength(1);
    const answers = (await rig.rows(agentId)).filter((r) => r.sender === 'agent');
    expect(answers.map((r) => r.body)).toEqual(['Only once.']);
  });

  it('without leases (one process) nothing is claimed', async () => {
    rig = await createRig();
    const agentId = await rig.blank();
    await rig.say(agentId, 'hi');
    expect(rig.model.requests).toHaveLength(1);
  });
});
