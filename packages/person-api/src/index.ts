// @screen-service/person-api: the person's API (what the phone app calls) as a handler on Node's own request
// objects, also usable as Express middleware (ADR 0303).
// Every export here is public API.
export { createJsonFallbacks } from './fallbacks.js';
export { type PersonRequest, queryOf, sendRead } from './http-answers.js';
export { JsonText } from './json-text.js';
export {
  addNativeBody,
  instructionsBody,
  nativeInstructions,
  nativeOffer,
  nativeStarter,
} from './native-schemas.js';
export { buildOpenApi } from './openapi.js';
export {
  API_PREFIX,
  defineRoute,
  type Method,
  type PathParamNames,
  type RouteAuth,
  type RouteContext,
  type RouteDef,
  type RouteSpec,
} from './route.js';
export {
  createPersonRouter,
  JSON_BODY_LIMIT,
  type PersonHandler,
  type PersonRouterOptions,
  ResponseMismatchError,
  STREAMS_PER_ACCOUNT,
} from './router.js';
export { personRoutes } from './routes/index.js';
export type {
  Agent,
  AgentColor,
  AgentListItem,
  AppConfig,
  Connection,
  CreateAgentInput,
  CreatedAgent,
  Credentials,
  ErrorBody,
  Me,
  Message,
  OAuthDecisionInput,
  OAuthRequestView,
  PairingCode,
  PhotoCreated,
  SendTextInput,
  SessionTokens,
  TapInput,
  TapResult,
  ThreadPage,
  UpdateAgentInput,
} from './schemas.js';
export * as schemas from './schemas.js';
export {
  type AppConfigOptions,
  type NativeAgentsPort,
  type NativeInstructionsView,
  type NativeStarterView,
  type PersonApiServices,
  type PersonOAuth,
  personApiServices,
} from './services.js';
export {
  deleteAgentQuery,
  type GivenTable,
  type GiveTableRequest,
  givenTable,
  giveTableBody,
  type RelayTable,
  relayTable,
  relayTableList,
  replicaAnswer,
  replicaBody,
  type TablesReplica,
  tableRefBody,
} from './tables-schemas.js';
export {
  openThreadStream,
  STREAM_KEEPALIVE_MS,
  STREAM_MAX_BUFFERED_BYTES,
  type ThreadStreamOptions,
} from './thread-stream.js';
