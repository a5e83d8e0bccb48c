// Native agents for a server: the use cases and the runtime over one core, started now and stopped with
// the core (its `stopping` signal). Keeps the server's own composition to one call.

import type { Core } from '@screen-service/core';
import { guide } from '@screen-service/screen-lines';
import { createModelClient, type ModelClientOptions } from './model-client.js';
import { createNativeAgents, type NativeAgents } from './native-agents.js';
import { createNativeRuntime, type NativeRuntime } from './runtime.js';
import type { NativeSettings } from './settings.js';
import { pickStarters } from './starters.js';
import type { TurnLeases } from './turn-leases.js';

/** Options of {@link startNativeAgents} besides the settings. */
export interface NativeStartOptions {
  /** Model client settings the environment does not carry (timeouts, fetch). */
  client?: Partial<ModelClientOptions>;
  /** With several instances on one database: one instance runs each turn (ADR 0227). */
  leases?: TurnLeases;
}

/** What {@link startNativeAgents} gives the server. */
export interface NativeService extends NativeAgents {
  runtime: NativeRuntime;
}

/**
 * @example
 * ```ts
 * const settings = readModelSettings(process.env); // in the server's config module
 * const native = settings ? startNativeAgents(core, settings, (err) => log.error({ err })) : null;
 * ```
 */
export function startNativeAgents(
  core: Core,
  settings: NativeSettings,
  onError: (err: unknown) => void = () => {},
  options: NativeStartOptions = {},
): NativeService {
  const model = createModelClient({
    ...options.client,
    url: settings.url,
    key: settings.key ?? null,
    model: settings.model,
  });
  const runtime = createNativeRuntime({
    core,
    model,
    guide: guide().text,
    limits: settings.limits,
    onError,
    ...(options.leases ? { leases: options.leases } : {}),
  });
  void runtime.start().catch(onError);
  core.stopping.signal.addEventListener('abort', () => runtime.stop(), { once: true });
  const native = createNativeAgents({ core, starters: pickStarters(settings.starters) });
  return {
    runtime,
    offer: native.offer,
    add: native.add,
    instructions: native.instructions,
    setInstructions: native.setInstructions,
  };
}
