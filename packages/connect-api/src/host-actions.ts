// The host API's actions beyond `pair` (doc2): `add`, `heartbeat`, `commands`, `card`, `session`. Each
// verifies the connector token, passes the body's fields to the registry's host use cases and returns their answer.
import { type ActionHandler, bearerToken } from '@screen-service/http-kit';
import type { ConnectionAuth, Hosts } from '@screen-service/registry/hosts';
import { ServiceError } from '@screen-service/registry/kernel';
import type { Request } from 'express';

/** What the host actions need from the core. */
export interface HostActionDeps {
  hosts: Hosts;
  /** Connector tokens only (`core.hostAuth`). */
  hostAuth: ConnectionAuth;
}

/** The actions this module answers. */
export const HOST_ACTIONS = ['add', 'heartbeat', 'commands', 'card', 'session'] as const;
export type HostAction = (typeof HOST_ACTIONS)[number];

/** The body must hold `field` (null counts): doc2 clears a list with null, never by leaving it out. */
function required(body: Record<string, unknown>, field: string, shape: string): void {
  if (!(field in body)) {
    throw new ServiceError('INVALID_INPUT', `${field} is required: ${shape} or null.`, { field });
  }
}

/**
 * The host actions as entries of the endpoint's action table, each for the caller of its connector token.
 *
 * @example
 * ```ts
 * createActionEndpoint({ spelling: 'host', actions: { pair, ...hostActions({ hosts, hostAuth }) } });
 * ```
 */
export function hostActions(deps: HostActionDeps): Record<HostAction, ActionHandler<undefined, Request>> {
  const caller = (req: Request) => deps.hostAuth.verify(bearerToken(req.headers.authorization));
  const { hosts } = deps;
  return {
    add: async ({ req, body }) =>
      hosts.add(await caller(req), { remote_ref: body.remote_ref, name: body.name, color: body.color }),
    heartbeat: async ({ req, body }) => hosts.heartbeat(await caller(req), { sandbox: body.sandbox }),
    commands: async ({ req, body }) => {
      const p = await caller(req);
      required(body, 'commands', 'a list of {name, description, args?}');
      return hosts.commands(p, { remote_ref: body.remote_ref, commands: body.commands });
    },
    card: async ({ req, body }) => {
      const p = await caller(req);
      required(body, 'card', '{name, skills: [{name, description?}]}');
      return hosts.card(p, { remote_ref: body.remote_ref, card: body.card });
    },
    session: async ({ req }) => hosts.session(await caller(req)),
  };
}
