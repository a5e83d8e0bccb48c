// A route answer that is already JSON text: the router sends it as it is instead of serializing an object.

/**
 * JSON text a handler built itself (e.g. the thread page from serialized pieces, ADR 0212). The router
 * answers it with the same headers as `res.json` would (`application/json; charset=utf-8`, ETag), and in
 * `checkResponses` mode parses it and checks it against the route's response schema like any answer.
 *
 * @example
 * ```ts
 * handler: async ({ services, user, params }) => new JsonText(await services.threads.pageText(user.userId, params.agentId)),
 * ```
 */
export class JsonText {
  constructor(readonly text: string) {}
}
