// The errors a store raises when one of the schema's constraints refuses a write: the same code, text and
// field from every store, so a caller (and a person reading the message) cannot tell which store ran.
import { ServiceError } from '../kernel/errors.js';

/** What each store throws when a unique constraint refuses a write; the store only detects the violation. */
export const constraintErrors = {
  /** `users.email` is unique. */
  emailTaken: (email: string) =>
    new ServiceError('EMAIL_TAKEN', `An account with ${email} already exists; sign in instead.`, {
      field: 'email',
    }),
  /** An agent's handle is unique within its account. */
  handleTaken: (handle: string) =>
    new ServiceError('HANDLE_TAKEN', `Another agent already uses the handle "${handle}"; pick another.`, {
      field: 'handle',
    }),
  /** A connection's `remote_ref` names at most one agent. */
  profileAlreadyAdded: (remoteRef: string | null | undefined) =>
    new ServiceError('PROFILE_ALREADY_ADDED', `The profile "${remoteRef}" is already added.`, {
      field: 'remote_ref',
    }),
  /** At most one live grant per agent and holder. */
  liveGrantExists: () =>
    new ServiceError('CONFLICT', 'This person already holds a live grant for this agent.', {
      field: 'user_id',
    }),
  /** A reply's idempotency key is written once. */
  idempotencyKeyUsed: (key: string) =>
    new ServiceError('CONFLICT', `A reply with idempotency key "${key}" was already written.`, {
      field: 'idempotency_key',
    }),
  /** A person's answer key (a phone's queued answer, ADR 0276) is written once per person. */
  answerKeyUsed: (key: string) =>
    new ServiceError('CONFLICT', `An answer with idempotency key "${key}" was already written.`, {
      field: 'idempotency_key',
    }),
  /** A photo upload's idempotency key (ADR 0287) names one photo per person. */
  photoKeyUsed: (key: string) =>
    new ServiceError('CONFLICT', `A photo with idempotency key "${key}" was already uploaded.`, {
      field: 'idempotency-key',
    }),
} as const;
