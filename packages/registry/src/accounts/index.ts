// @screen-service/registry/accounts: sign-up, sign-in, sessions and account deletion.
// Every export here is public API.
export {
  ACCESS_TOKEN_TTL_S,
  type Accounts,
  type AccountsOptions,
  type AccountThrottles,
  APP_ROLE,
  type AppPrincipal,
  type CredentialsInput,
  createAccounts,
  defaultAccountThrottles,
  REFRESH_TOKEN_TTL_MS,
  type SessionTokens,
} from './accounts.js';
export { isCommonPassword } from './common-passwords.js';
export { normalizeEmail } from './normalize-email.js';
export type { PasswordHasher } from './password-hasher-port.js';
export { checkTimeZone, createAccountTimeZones, type TimeZoneView } from './time-zone.js';
