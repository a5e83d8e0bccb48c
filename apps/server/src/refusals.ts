// Which error shape a path speaks, for refusals made before any adapter ran (a foreign Host, a failing
// step of the listener): the tool server's JSON-RPC, OAuth's RFC 6749, `{error, message}` elsewhere.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendHttpError, sendJsonRpcError, sendOAuthError, toOAuthError } from '@screen-service/http-kit';
import { MOUNTS } from '@screen-service/registry/mounts';

/**
 * Answers a refusal made before any adapter ran (a foreign Host, a failing step) in the protocol of the
 * request's path: a JSON-RPC error on the tool server, RFC 6749 on OAuth, `{error, message}` elsewhere.
 */
export function answerByPath(err: unknown, req: IncomingMessage, res: ServerResponse): number {
  const path = (req.url ?? '/').split('?')[0]!.replace(/(.)\/$/, '$1');
  if (path === MOUNTS.mcp) return sendJsonRpcError(res, err).status;
  if (path === MOUNTS.oauth || path.startsWith(`${MOUNTS.oauth}/`)) {
    const wire = toOAuthError(err);
    sendOAuthError(res, wire, err);
    return wire.status;
  }
  return sendHttpError(res, err).status;
}
