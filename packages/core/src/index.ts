// @screen-service/core: createCore, every use case of the service wired over one Store.
// Every export here is public API.
export {
  type ConnectedAgent,
  type Core,
  type CoreOptions,
  createCore,
  type PushSenderOptions,
} from './create-core.js';
