// A refusal from one of the service's APIs: the HTTP status, the server's stable error code, its sentence.
// The person's API sends `{error, message}`, the OAuth endpoints `{error, error_description}`; status 0 is a
// network failure.
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
