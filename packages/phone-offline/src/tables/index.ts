// @screen-service/phone-offline/tables: this device's copy of the agents' tables (ADR 0250), the store the
// app's tables worker runs, and the messages between the app and that worker. Every export here is public.
export { createPhoneStore, type DatabasePool, fileOf, PHONE_OWNER, type PhoneStore } from './phone-store.js';
export type {
  Answer,
  BootMessage,
  Copied,
  CopyTable,
  Moment,
  Replies,
  ReplyMessage,
  Request,
  RequestMessage,
  TablesWorkerCode,
  Usage,
} from './protocol.js';
