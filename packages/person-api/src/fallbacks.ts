// The service's last two handlers: a JSON 404 for any unknown path, and the one error contract for
// anything that escaped a router (a body parser's failure included), for every adapter mounted before.
import { sendHttpError } from '@screen-service/http-kit';
import { ServiceError } from '@screen-service/registry/kernel';
import type { ErrorRequestHandler, RequestHandler } from 'express';

/**
 * `[notFound, onError]`, to mount after every router. 5xx answers go to `log` (never their message to the
 * caller); an error after the answer began closes the connection instead of writing a second answer.
 *
 * @example
 * ```ts
 * app.use(...createJsonFallbacks((err, path) => logger.error({ err, path }, 'request failed')));
 * ```
 */
export function createJsonFallbacks(
  log: (err: unknown, path: string) => void,
): [RequestHandler, ErrorRequestHandler] {
  const notFound: RequestHandler = (req, res) => {
    sendHttpError(res, new ServiceError('NOT_FOUND', `No route for ${req.method} ${req.path}`));
  };
  const onError: ErrorRequestHandler = (err, req, res, _next) => {
    if (sendHttpError(res, err).status >= 500) log(err, req.path);
  };
  return [notFound, onError];
}
