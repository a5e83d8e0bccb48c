// Public API of @screen-service/agent: every export here is public and named.
export { type ConnectOptions, connect, type Screen, type ShowOptions, type Svc } from './client.js';
export {
  AbortedError,
  AuthError,
  ClosedError,
  ConnectionError,
  DeadlinePassedError,
  InvalidArgumentError,
  type LocalCode,
  RateLimitedError,
  ScreenServiceError,
  type ServiceCode,
  ServiceRefusedError,
  UnexpectedAnswerError,
} from './errors.js';
export {
  createMcpTransport,
  type McpTransportOptions,
  type TokenSource,
  type ToolTransport,
} from './mcp-transport.js';
export {
  type PutRow,
  type QueryOptions,
  type Table,
  type Tables,
  type TablesCallResult,
  TableWriteError,
} from './tables.js';
export type {
  Answer,
  AskAnswer,
  AskOptions,
  Cell,
  ColumnTypes,
  Deadline,
  Escalation,
  FieldTypes,
  FormAnswer,
  FormFields,
  PhotoAnswer,
  Row,
  ShownScreen,
  TableColumns,
  Thread,
} from './types.js';
