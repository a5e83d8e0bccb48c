export {
  type Connectivity,
  connectivity,
  noteNoNetwork,
  noteResponse,
  onConnectivity,
} from './connectivity.js';
export {
  DEVICE_CACHE,
  deviceCacheName,
  keptPhoto,
  keptRead,
  OFFLINE_HEADER,
  readThrough,
} from './device-cache.js';
export { DEVICE_DB, deviceOwner } from './device-db.js';
export { claimDevice, forgetDevice } from './forget.js';
export {
  dismissAnswer,
  type FlushReport,
  flushAnswers,
  isFinalRefusal,
  type NewAnswer,
  type Post,
  photoKey,
  type QueuedAnswer,
  queueAnswer,
  queuedAnswers,
  rememberedToken,
  rememberToken,
  sendAnswer,
  uploadPhoto,
} from './outbox.js';
