// A host's sandbox report per profile (doc2 "Shared-agent resources") and the five client-safe rules
// (doc2 "Client-safe"): the host computes them, and the service re-checks the report it received.
import { ServiceError } from '../kernel/errors.js';
import type { AgentRecord } from '../model/records.js';

/** The report a host sends with each heartbeat, per profile; every field is optional on the wire. */
export interface SandboxReport {
  terminal?: 'off' | 'container' | 'remote' | 'local';
  files?: 'off' | 'sandbox' | 'host';
  reach?: string[];
  memory?: 'off' | 'per-user' | 'shared';
  runner?: 'api' | 'cli-agent';
  profile?: string;
  extra_keys?: number;
}

/** The five rules, by the name the verdict lists when one is broken. */
export type ClientSafeRule = 'profile' | 'sandbox' | 'reach' | 'memory' | 'runner';

/** The service's verdict on one report. */
export interface SandboxVerdict {
  client_safe: boolean;
  /** The rules the report breaks (empty when safe). */
  broken: ClientSafeRule[];
}

/** At most this much JSON per profile's report is stored. */
export const SANDBOX_REPORT_MAX_BYTES = 2048;

const TERMINALS = ['off', 'container', 'remote', 'local'];
const FILES = ['off', 'sandbox', 'host'];
const MEMORIES = ['off', 'per-user', 'shared'];
const RUNNERS = ['api', 'cli-agent'];

/**
 * Keeps the report's known keys with well-typed values (unknown words are kept as sent so the verdict can
 * name the rule they break). A report that is not an object, or is over 2 KB, is refused.
 *
 * @example
 * ```ts
 * cleanSandboxReport({ terminal: 'off', files: 'off', reach: [], memory: 'off', runner: 'api', profile: 'own', extra_keys: 0, x: 1 });
 * // the same without `x`
 * ```
 */
export function cleanSandboxReport(value: unknown, field = 'sandbox'): SandboxReport {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ServiceError(
      'INVALID_INPUT',
      `${field} must be an object like {"terminal":"off","files":"off","reach":[],"memory":"off","runner":"api","profile":"own","extra_keys":0}.`,
      { field: 'sandbox' },
    );
  }
  if (Buffer.byteLength(JSON.stringify(value), 'utf8') > SANDBOX_REPORT_MAX_BYTES) {
    throw new ServiceError('INVALID_INPUT', `${field} must be at most 2 KB of JSON.`, { field: 'sandbox' });
  }
  const v = value as Record<string, unknown>;
  const out: SandboxReport = {};
  const word = (k: 'terminal' | 'files' | 'memory' | 'runner' | 'profile') => {
    if (typeof v[k] === 'string') (out as Record<string, unknown>)[k] = (v[k] as string).slice(0, 64);
  };
  word('terminal');
  word('files');
  word('memory');
  word('runner');
  word('profile');
  if (Array.isArray(v.reach))
    out.reach = v.reach.filter((r): r is string => typeof r === 'string').map((r) => r.slice(0, 64));
  if (typeof v.extra_keys === 'number' && Number.isInteger(v.extra_keys) && v.extra_keys >= 0)
    out.extra_keys = v.extra_keys;
  return out;
}

/**
 * The five rules of doc2: own profile with no extra keys; terminal `off`/`container`/`remote` and files
 * `off`/`sandbox`; no reach into the rest of the host; memory `off`; runner `api`. A missing or unknown
 * value breaks its rule (safe must be shown, never assumed).
 *
 * @example
 * ```ts
 * checkClientSafe({ terminal: 'local', files: 'host', reach: [], memory: 'off', runner: 'api', profile: 'own', extra_keys: 0 });
 * // { client_safe: false, broken: ['sandbox'] }
 * ```
 */
export function checkClientSafe(report: SandboxReport): SandboxVerdict {
  const broken: ClientSafeRule[] = [];
  if (report.profile !== 'own' || report.extra_keys !== 0) broken.push('profile');
  const terminalOk = ['off', 'container', 'remote'].includes(report.terminal ?? '');
  const filesOk = ['off', 'sandbox'].includes(report.files ?? '');
  if (!terminalOk || !filesOk || !TERMINALS.includes(report.terminal!) || !FILES.includes(report.files!))
    broken.push('sandbox');
  if (!Array.isArray(report.reach) || report.reach.length > 0) broken.push('reach');
  if (report.memory !== 'off' || !MEMORIES.includes(report.memory)) broken.push('memory');
  if (report.runner !== 'api' || !RUNNERS.includes(report.runner)) broken.push('runner');
  return { client_safe: broken.length === 0, broken };
}

/** Why an agent cannot be shared: one of the five rules, or no sandbox report at all. */
export type ShareWhy = ClientSafeRule | 'no_report';

/** What each reason means, for messages and the CLI's refusal. */
export const SHARE_WHY_TEXT: Readonly<Record<ShareWhy, string>> = Object.freeze({
  profile: 'own profile with no extra keys',
  sandbox: 'terminal off/container/remote and files off/sandbox',
  reach: 'no reach into the rest of the host',
  memory: 'memory off',
  runner: 'runner api',
  no_report: 'the host sends a sandbox report',
});

/** The rules an owned agent breaks (empty when safe); `no_report` when its host sent none. */
export function shareWhy(agent: AgentRecord): ShareWhy[] {
  const report = agent.sandbox as Record<string, unknown> | null;
  if (!report) return ['no_report'];
  return agent.clientSafe ? [] : checkClientSafe(report).broken;
}

const RUN_HOST = '`runHost({ sandbox: (profile) => report })` of @screen-service/connect-api/client';

/**
 * What the owner must do about an agent whose host sent no sandbox report, by the kind of agent it is:
 * which setting or flag makes it report, or, for a kind that cannot be client-safe, what to share instead.
 */
export function noReportAdvice(agent: Pick<AgentRecord, 'kind' | 'card'>): string {
  if (agent.kind === 'hosted') {
    return (
      'A native agent runs on the service, which keeps its tables in your account and answers only your own thread, so it cannot be shared; share an agent served by a host instead (`svc host run-echo`, or a host of yours with ' +
      RUN_HOST +
      ').'
    );
  }
  if (agent.kind === 'mcp') {
    return (
      'An MCP agent is the tool client itself (Claude Code, Cursor, ...): the service cannot see its terminal, files or memory, so it cannot be shared; serve the agent from a host that reports its sandbox (' +
      RUN_HOST +
      ') and share that one.'
    );
  }
  if (agent.card) {
    return (
      "An A2A agent bridged by svc-a2a cannot be shared: the bridge cannot see the remote agent's terminal, files or memory, and it answers only your own thread; serve the agent from a host that reports its sandbox (" +
      RUN_HOST +
      ') and share that one.'
    );
  }
  return (
    'Its host sends no sandbox report: `svc host run-echo` sends one (an echo has no terminal, files, reach or memory); a host of yours passes ' +
    RUN_HOST +
    '. Then wait for its next heartbeat (at most a minute) and try again.'
  );
}

/** `NOT_CLIENT_SAFE` naming the broken rules and what to do (field: the agent's handle). */
export function notClientSafe(agent: AgentRecord, why = shareWhy(agent)): ServiceError {
  const rules = (why.length > 0 ? why : (['no_report'] as ShareWhy[]))
    .map((w) => `${w} (${SHARE_WHY_TEXT[w]})`)
    .join(', ');
  const todo =
    why.includes('no_report') || why.length === 0
      ? noReportAdvice(agent)
      : 'Fix the host profile, wait for its next heartbeat, then try again.';
  return new ServiceError(
    'NOT_CLIENT_SAFE',
    `${agent.name} (${agent.handle}) is not client-safe; failed rule: ${rules}. ${todo}`,
    { field: agent.handle, details: { share_why: why } },
  );
}
