// Native agents (the service runs them on the operator's model): the offer, add one, read and edit its
// instructions. Without a configured model the offer is empty and the rest answer not found.
import { ServiceError } from '@screen-service/registry/kernel';
import * as n from '../native-schemas.js';
import { defineRoute } from '../route.js';
import { agentView } from '../schemas.js';
import type { PersonApiServices } from '../services.js';

function nativeOn(services: PersonApiServices) {
  if (!services.native) {
    throw new ServiceError(
      'NOT_FOUND',
      'Native agents are off on this service: its operator has not configured a model (SVC_MODEL_URL).',
    );
  }
  return services.native;
}

export const nativeRoutes = [
  defineRoute({
    method: 'get',
    path: '/native',
    summary: 'What native agents the service offers: the starters, or nothing when no model is configured',
    auth: 'user',
    response: n.nativeOffer,
    handler: ({ services }) =>
      services.native ? { available: true, ...services.native.offer() } : { available: false, starters: [] },
  }),
  defineRoute({
    method: 'post',
    path: '/native/agents',
    summary: 'Add a native agent: a starter (with its look, first message and tables), or a blank one',
    auth: 'user',
    body: n.addNativeBody,
    response: agentView,
    status: 201,
    handler: ({ services, user, body }) => nativeOn(services).add(user.userId, body),
  }),
  defineRoute({
    method: 'get',
    path: '/agents/:agentId/instructions',
    summary: "A native agent's instructions (its system prompt)",
    auth: 'user',
    response: n.nativeInstructions,
    handler: ({ services, user, params }) => nativeOn(services).instructions(user.userId, params.agentId),
  }),
  defineRoute({
    method: 'put',
    path: '/agents/:agentId/instructions',
    summary: "Replace a native agent's instructions; its next turn uses them",
    auth: 'user',
    body: n.instructionsBody,
    response: n.nativeInstructions,
    handler: ({ services, user, params, body }) =>
      nativeOn(services).setInstructions(user.userId, params.agentId, body.instructions),
  }),
];
