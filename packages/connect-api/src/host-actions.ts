// The host API's actions beyond `pair` (doc2): `add`, `heartbeat`, `commands`, `session`. Each verifies the
// connector token, passes the body's fields to the registry's host use cases and returns their answer.
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

export function isHostAction(action: unknown): action is HostAction {
  return HOST_ACTIONS.includes(action as HostAction);
}

/**
 * Runs one host action for the caller of `req` and returns the answer body.
 *
 * @example
 * ```ts
 * if (isHostAction(body.action)) res.json(await runHostAction(deps, req, body));
 * ```
 */
export async function runHostAction(
  deps: HostActionDeps | undefined,
  req: Request,
  body: Record<string, unknown>,
): Promise<unknown> {
  if (!deps) {
    throw new ServiceError('INVALID_INPUT', `This server does not serve "${String(body.action)}" yet.`, {
      field: 'action',
    });
  }
  const p = await deps.hostAuth.verify(req.headers.authorization);
  switch (body.action as HostAction) {
    case 'add':
      return deps.hosts.add(p, { remote_ref: body.remote_ref, name: body.name, color: body.color });
    case 'heartbeat':
      return deps.hosts.heartbeat(p, { sandbox: body.sandbox });
    case 'commands':
      if (!('commands' in body)) {
        throw new ServiceError(
          'INVALID_INPUT',
          'commands is required: a list of {name, description, args?} or null.',
          {
            field: 'commands',
          },
        );
      }
      return deps.hosts.commands(p, { remote_ref: body.remote_ref, commands: body.commands });
    case 'card':
      if (!('card' in body)) {
        throw new ServiceError(
          'INVALID_INPUT',
          'card is required: {name, skills: [{name, description?}]} or null.',
          {
            field: 'card',
          },
        );
      }
      return deps.hosts.card(p, { remote_ref: body.remote_ref, card: body.card });
    case 'session':
      return deps.hosts.session(p);
  }
}
