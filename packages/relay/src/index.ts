// Public API of @screen-service/relay: every export here is public and named.
export type { AnswerMode, ClientAsker } from './answer-policy.js';
export { RelayError, type RelayErrorCode } from './errors.js';
export { createFileJournal, createMemoryJournal, type Journal, type OpenAsk } from './journal.js';
export type { ElicitAnswer } from './phone-ask.js';
export { createRelay, type Relay, type RelayOptions } from './relay.js';
export { RELAY_EXIT, RELAY_HELP, type RelayCliIo, readRelayArgs, runRelayCli } from './relay-cli.js';
export {
  type Choice,
  contentProblems,
  type Field,
  type FieldValue,
  fieldProblem,
  readRequestedSchema,
  sensitiveFields,
} from './requested-schema.js';
export { type ScreenWatch, watchScreens } from './screen-watch.js';
