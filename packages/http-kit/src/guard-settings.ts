// The hardening settings a deployment may change, read from an environment-like record the server hands in
// (the server alone reads the environment): trusted proxies, photo sizes and live streams per account.

/** What {@link readGuardSettings} returns; absent fields keep the service's defaults. */
export interface GuardSettings {
  /** `SVC_TRUST_PROXY`: the proxies whose X-Forwarded-For counts (Express `trust proxy` syntax); none by default. */
  trustProxy?: string;
  /** `SVC_PHOTO_MAX_BYTES`: the largest photo (default 10 MB). */
  photoMaxBytes?: number;
  /** `SVC_PHOTO_QUOTA_BYTES`: what one account's photos may hold (default 500 MB). */
  photoQuotaBytes?: number;
  /** `SVC_STREAMS_PER_ACCOUNT`: live event streams one account may hold open (default 10). */
  streamsPerAccount?: number;
}

const PROXY_LIST = /^[\w.:/, -]+$/;
const NUMBERS = {
  SVC_PHOTO_MAX_BYTES: ['photoMaxBytes', '10485760'],
  SVC_PHOTO_QUOTA_BYTES: ['photoQuotaBytes', '524288000'],
  SVC_STREAMS_PER_ACCOUNT: ['streamsPerAccount', '10'],
} as const;

/**
 * Reads `SVC_TRUST_PROXY`, `SVC_PHOTO_MAX_BYTES`, `SVC_PHOTO_QUOTA_BYTES` and `SVC_STREAMS_PER_ACCOUNT`
 * from `env` (empty counts as unset).
 *
 * @throws {Error} naming the variable and an example value, through `fail` when given.
 * @example
 * ```ts
 * readGuardSettings({ SVC_TRUST_PROXY: 'loopback', SVC_PHOTO_MAX_BYTES: '5000000' });
 * // { trustProxy: 'loopback', photoMaxBytes: 5000000 }
 * ```
 */
export function readGuardSettings(
  env: Record<string, string | undefined>,
  fail: (message: string) => Error = (m) => new Error(m),
): GuardSettings {
  const out: GuardSettings = {};
  const proxy = env.SVC_TRUST_PROXY?.trim();
  if (proxy) {
    if (!PROXY_LIST.test(proxy)) {
      throw fail(
        'SVC_TRUST_PROXY: list the proxies whose X-Forwarded-For counts, comma-separated addresses or CIDRs, for example loopback or 10.0.0.0/8',
      );
    }
    out.trustProxy = proxy;
  }
  for (const [name, [field, example]] of Object.entries(NUMBERS)) {
    const raw = env[name];
    if (raw === undefined || raw === '') continue;
    if (!/^[1-9]\d{0,14}$/.test(raw)) {
      throw fail(`${name}: must be a whole number above 0, for example ${name}=${example}`);
    }
    out[field] = Number(raw);
  }
  return out;
}
