// @screen-service/registry/hosts: pairing codes, connections and their credentials, the host API, sandbox reports.
// Every export here is public API.
export {
  type AccessTokenResolver,
  type ConnectionAuth,
  type ConnectionAuthOptions,
  type ConnectionPrincipal,
  createConnectionAuth,
} from './connection-auth.js';
export { bindApprovedConnection } from './connection-binding.js';
export {
  type ConnectionState,
  connectionState,
  isConnectionLive,
  resolveAccessToken,
} from './connection-live.js';
export {
  type AddInput,
  type CardResult,
  type CommandsResult,
  createHosts,
  type HeartbeatResult,
  HOST_ADDS_PER_MINUTE,
  type HostAgent,
  type Hosts,
  type HostsOptions,
  MAX_TURN_ROWS,
  type SessionResult,
} from './hosts.js';
export {
  createPairing,
  type MintedCode,
  PAIR_FAILURE_WINDOW_MS,
  PAIR_MAX_FAILURES,
  PAIRING_CODE_TTL_MS,
  type PairInput,
  type Pairing,
  type PairingOptions,
  type PairResult,
} from './pairing.js';
export {
  PAIR_FAILURE_WINDOW_MS as CODE_FAILURE_WINDOW_MS,
  PAIR_MAX_FAILURES as CODE_MAX_FAILURES,
  type RedeemCodeInput,
  redeemCode,
} from './redeem-code.js';
export {
  type ClientSafeRule,
  checkClientSafe,
  cleanSandboxReport,
  notClientSafe,
  SANDBOX_REPORT_MAX_BYTES,
  type SandboxReport,
  type SandboxVerdict,
  SHARE_WHY_TEXT,
  type ShareWhy,
  shareWhy,
} from './sandbox-report.js';
