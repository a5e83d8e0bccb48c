// Test harness: a bridge over a memory service link and temp-dir state, pointed at one test agent.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { guide } from '@screen-service/screen-lines';
import { type Bridge, type BridgeOptions, createBridge } from '../src/bridge.js';
import { type AgentCardInfo, fetchAgentCard } from '../src/card.js';
import { Outbox } from '../src/outbox.js';
import { MemoryServiceLink } from '../src/service-link.js';
import { StateFile } from '../src/state-file.js';

/** The real channel guide of screen-lines, as the bridge sends it. */
export const GUIDE = { text: guide().text, version: guide().version };

export interface Harness {
  dir: string;
  link: MemoryServiceLink;
  state: StateFile;
  outbox: Outbox;
  bridge: Bridge;
  card: AgentCardInfo;
  agent: { agentId: string; card: AgentCardInfo };
  cleanup(): Promise<void>;
}

export async function makeHarness(cardUrl: string, extra: Partial<BridgeOptions> = {}): Promise<Harness> {
  const dir = await mkdtemp(join(tmpdir(), 'a2a-bridge-'));
  const link = new MemoryServiceLink();
  const state = new StateFile(join(dir, 'state.json'));
  const outbox = new Outbox(join(dir, 'outbox'));
  const bridge = createBridge({
    link,
    state,
    outbox,
    pollInitialMs: 20,
    pollMaxMs: 200,
    ...extra,
  });
  const card = await fetchAgentCard(cardUrl);
  const agentId = `agent-${Math.random().toString(36).slice(2, 8)}`;
  return {
    dir,
    link,
    state,
    outbox,
    bridge,
    card,
    agent: { agentId, card },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}
