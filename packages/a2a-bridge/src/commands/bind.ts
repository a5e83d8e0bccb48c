// `svc-a2a pair` and `add`: bind a remote agent (a card or a webhook) to an agent in the person's app.
import { hostname } from 'node:os';
import { connectUrlOf, createHostClient, type HostClient } from '@screen-service/connect-api/client';
import { BridgeError } from '../errors.js';
import { newWebhookSecret } from '../webhook-signature.js';
import {
  type AgentTarget,
  agentStateFor,
  type BridgeHome,
  checkTargetOptions,
  freeRemoteRef,
  readTarget,
  UsageError,
} from './home.js';

/** Options of `pair` and `add`. */
export interface BindOptions {
  home: BridgeHome;
  card?: string | undefined;
  webhook?: string | undefined;
  name?: string | undefined;
  /** The profile name on the connector (default: from the agent's name). */
  profile?: string | undefined;
  headers: Record<string, string>;
  fetch?: typeof fetch | undefined;
  /** `--allow-endpoint <origin>`: the person confirms a card endpoint on another origin than the card. */
  allowEndpoint?: string | undefined;
  /** The `--dir` given on the command line, repeated in the printed next command (absent: the default). */
  dirFlag?: string | undefined;
}

/** ` --dir '<folder>'` when the command line named a folder, so a printed next command uses it too. */
export function dirArgument(dirFlag: string | undefined): string {
  if (dirFlag === undefined) return '';
  return ` --dir ${/^[\w@%+=:,./-]+$/.test(dirFlag) ? dirFlag : `'${dirFlag.replace(/'/g, `'\\''`)}'`}`;
}

/** What `pair` and `add` print: a few lines, and the webhook secret once. */
export interface BindResult {
  agentId: string;
  text: string;
  secret?: string;
}

// The card summary goes to the service so the app can show it; an older service without the action is fine.
async function reportCard(client: HostClient, ref: string, target: AgentTarget): Promise<string> {
  try {
    await client.card(ref, { name: target.name, skills: target.skills });
    return '';
  } catch (error) {
    return `Note: the service did not take the card summary (${(error as Error).message}).\n`;
  }
}

function describe(
  target: AgentTarget,
  agent: { name: string; handle: string },
  dirFlag: string | undefined,
  secret?: string,
): string {
  const lines = [
    target.kind === 'a2a'
      ? `Paired ${target.name} (A2A ${target.card?.protocolVersion}, ${target.card?.streaming ? 'streaming' : 'polled'}) as "${agent.name}" (@${agent.handle}).`
      : `Paired the webhook ${target.webhookUrl} as "${agent.name}" (@${agent.handle}).`,
  ];
  // Where the person's messages will go, said before any goes (issue 46).
  if (target.card) lines.push(`Messages go to: ${target.card.endpoint}`);
  if (secret) {
    lines.push(
      '',
      'Webhook secret (shown once; the bridge signs every POST with it, header svc-signature):',
      `  ${secret}`,
      '',
    );
  }
  lines.push(`Start serving with: svc-a2a run${dirArgument(dirFlag)}`);
  return `${lines.join('\n')}\n`;
}

/**
 * `pair <code>`: claims the 6-digit code the person read in the app. The first pair creates this
 * machine's connector (its token goes into the owner-only state file); later pairs reuse it.
 *
 * @example
 * ```ts
 * const r = await pairCommand('123456', 'http://localhost:8787', { home, card: 'https://agent.example', headers: {} });
 * ```
 */
export async function pairCommand(
  code: string,
  serviceUrl: string,
  options: BindOptions,
): Promise<BindResult> {
  const digits = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(digits)) {
    throw new UsageError(`the code is the 6 digits the app shows when you add an agent; got "${code}"`);
  }
  const target = await readTarget(options);
  const { state } = options.home;
  const saved = await state.read();
  const connectUrl = connectUrlOf(serviceUrl);
  const reuse = saved.service && saved.service.connectUrl === connectUrl ? saved.service.token : undefined;
  const client = createHostClient({
    url: connectUrl,
    ...(reuse ? { token: reuse } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const ref =
    options.profile ??
    freeRemoteRef(
      target.name,
      Object.values(saved.agents).flatMap((a) => (a.remoteRef ? [a.remoteRef] : [])),
    );
  const paired = await client.pair({ code: digits, remote_ref: ref, host_name: hostname(), kind: 'http' });
  if (paired.connector_token) {
    await state.setService({
      connectUrl,
      token: paired.connector_token,
      connectorId: paired.connector.id,
      name: paired.connector.name,
    });
    client.setToken(paired.connector_token);
  }
  const secret = target.kind === 'webhook' ? newWebhookSecret() : undefined;
  await state.update(paired.agent.id, () =>
    agentStateFor(target, ref, paired.agent.handle, options.headers, secret),
  );
  const note = await reportCard(client, ref, target);
  return {
    agentId: paired.agent.id,
    text: note + describe(target, paired.agent, options.dirFlag, secret),
    ...(secret ? { secret } : {}),
  };
}

/**
 * `add`: another agent on this machine's connector, no code (the app shows it at once).
 *
 * @example
 * ```ts
 * await addCommand({ home, card: 'https://other-agent.example', headers: {} });
 * ```
 */
export async function addCommand(options: BindOptions): Promise<BindResult> {
  checkTargetOptions(options);
  const { state } = options.home;
  const saved = await state.read();
  if (!saved.service) {
    throw new BridgeError(
      'NOT_PAIRED',
      `this machine is not paired yet: add an agent in the app and run svc-a2a pair <code> --card <url>${dirArgument(options.dirFlag)} first`,
    );
  }
  const target = await readTarget(options);
  const client = createHostClient({
    url: saved.service.connectUrl,
    token: saved.service.token,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const ref =
    options.profile ??
    freeRemoteRef(
      target.name,
      Object.values(saved.agents).flatMap((a) => (a.remoteRef ? [a.remoteRef] : [])),
    );
  const added = await client.add({ remote_ref: ref, name: target.name.slice(0, 40) });
  const secret = target.kind === 'webhook' ? newWebhookSecret() : undefined;
  await state.update(added.agent.id, () =>
    agentStateFor(target, ref, added.agent.handle, options.headers, secret),
  );
  const note = await reportCard(client, ref, target);
  return {
    agentId: added.agent.id,
    text:
      note +
      describe(target, added.agent, options.dirFlag, secret).replace(
        /^Paired/,
        added.created ? 'Added' : 'Already added',
      ),
    ...(secret ? { secret } : {}),
  };
}
