// Shared set-up of the runtime tests: a core on a real SQLite file, a scripted model server, the runtime.

import type { MessageRecord, UserRecord } from '@screen-service/registry/model';
import { guide } from '@screen-service/screen-lines';
import { createTestCore, seedUser, type TestCore } from '@screen-service/test-kit';
import { createModelClient } from '../src/model-client.js';
import { createNativeAgents, type NativeAgents } from '../src/native-agents.js';
import { createNativeRuntime, type NativeRuntime } from '../src/runtime.js';
import { STARTERS } from '../src/starters.js';
import { type ModelServer, type ModelServerOptions, startModelServer } from '../src/testing.js';
import type { TurnLeases } from '../src/turn-leases.js';
import type { ModelLimits } from '../src/usage.js';

export interface Rig {
  core: TestCore;
  user: UserRecord;
  model: ModelServer;
  runtime: NativeRuntime;
  native: NativeAgents;
  /** Timers the runtime asked for (run them by hand). */
  timers: { ms: number; run: () => void }[];
  /** Adds a blank native agent and returns its id. */
  blank(instructions?: string): Promise<string>;
  /** The person sends a text and the runtime settles. */
  say(agentId: string, text: string): Promise<string>;
  /** Every row of the thread, oldest first. */
  rows(agentId: string): Promise<MessageRecord[]>;
  close(): Promise<void>;
}

export async function createRig(
  options: { limits?: ModelLimits; server?: ModelServerOptions; attempts?: number; leases?: TurnLeases } = {},
): Promise<Rig> {
  const core = createTestCore();
  const user = await seedUser(core.store);
  const model = await startModelServer(options.server);
  const timers: Rig['timers'] = [];
  // Unexpected runtime errors fail the test at close (the runtime itself only reports them).
  const errors: unknown[] = [];
  const client = createModelClient({
    url: model.url,
    key: 'sk-test',
    model: 'test-model',
    timeoutMs: 5_000,
    attempts: options.attempts ?? 2,
    backoffMs: 1,
  });
  const runtime = createNativeRuntime({
    core,
    model: client,
    guide: guide().text,
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.leases ? { leases: options.leases } : {}),
    schedule(run, ms) {
      const t = { ms, run };
      timers.push(t);
      return () => {
        const i = timers.indexOf(t);
        if (i >= 0) timers.splice(i, 1);
      };
    },
    onError(err) {
      errors.push(err);
    },
  });
  await runtime.start();
  const native = createNativeAgents({ core, starters: STARTERS });
  const rows = async (agentId: string) =>
    (await core.store.threads.page({ agentId, userId: user.id, limit: 500 })).reverse();
  return {
    core,
    user,
    model,
    runtime,
    native,
    timers,
    async blank(instructions = 'You are a test agent.') {
      return (await native.add(user.id, { name: 'Tester', instructions })).id;
    },
    async say(agentId, text) {
      const m = await core.threads.say(user.id, agentId, { text });
      await settle(runtime);
      return m.id;
    },
    rows,
    async close() {
      runtime.stop();
      await model.close();
      core.close();
      if (errors.length > 0) throw errors[0];
    },
  };
}

/** Waits until the runtime has no turn running (events reach it asynchronously, so look twice). */
export async function settle(runtime: NativeRuntime): Promise<void> {
  for (let i = 0; i < 3; i++) {
    await new Promise((r) => setTimeout(r, 15));
    await runtime.idle();
  }
}
