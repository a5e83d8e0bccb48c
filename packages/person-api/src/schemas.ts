// zod schemas of the person's API: request bodies and queries are validated with them, and the OpenAPI
// document at /openapi.json is generated from the same objects.
import { AGENT_COLORS } from '@screen-service/theme';
import { z } from 'zod';

const id = z.string().min(1).max(100);
const iso = z.string().meta({ format: 'date-time' });
export const colorSchema = z.enum(AGENT_COLORS);

export const credentialsBody = z
  .object({
    email: z.string().max(254).meta({ example: 'ada@example.com' }),
    password: z.string().min(8).max(1024),
    device_token: z.string().max(200).optional().meta({
      description:
        'svc_dv_... from an earlier sign-in on this device: not held back by strangers’ wrong passwords',
    }),
  })
  .meta({ id: 'Credentials' });
export const refreshBody = z.object({ refresh_token: z.string().min(1) }).meta({ id: 'RefreshRequest' });
export const deleteAccountBody = z
  .object({ password: z.string().min(1) })
  .meta({ id: 'DeleteAccountRequest' });

export const sessionTokens = z
  .object({
    access_token: z.string().meta({ description: 'JWT, role svc_user, valid 15 minutes' }),
    token_type: z.literal('bearer'),
    expires_in: z.number().int(),
    refresh_token: z
      .string()
      .meta({ description: 'svc_ar_..., usable once; each refresh returns a new one' }),
    user: z.object({ id, email: z.string() }),
    device_token: z.string().optional().meta({
      description: 'svc_dv_... (sign-in and sign-up): keep it on this device, send it with the next sign-in',
    }),
  })
  .meta({ id: 'SessionTokens' });

const timeZoneFields = {
  time_zone: z.string().nullable().meta({
    description: "IANA zone the person's tables resolve today and now in; null: none reported yet (UTC)",
  }),
  time_zone_pinned: z
    .boolean()
    .meta({ description: "The person chose the zone in settings; devices' reports leave it alone" }),
};
export const me = z.object({ id, email: z.string(), created_at: iso, ...timeZoneFields }).meta({ id: 'Me' });
export const timeZone = z.object(timeZoneFields).meta({ id: 'TimeZone' });
export const timeZoneBody = z
  .object({
    time_zone: z.string().min(1).max(64),
    how: z.enum(['report', 'pin', 'follow']).meta({
      description:
        "report: this device's zone (kept unless the person pinned one); pin: the person's choice; follow: follow the devices again",
    }),
  })
  .meta({ id: 'TimeZoneRequest' });
export const appConfig = z
  .object({
    image_cdn: z
      .string()
      .nullable()
      .meta({ description: 'URL template with {prompt} for `image prompt=` (SVC_IMAGE_CDN); null: none' }),
  })
  .meta({ id: 'AppConfig' });

export const agentView = z
  .object({
    id,
    name: z.string(),
    handle: z.string(),
    color: colorSchema,
    avatar: z.string().nullable(),
    theme: z.record(z.string(), z.unknown()),
    push_muted: z.boolean(),
    kind: z.enum(['hostfw', 'http', 'mcp', 'hosted']),
    status: z.enum(['pending', 'connected', 'offline']),
    is_default: z.boolean(),
    sort: z.number().int(),
    remote_ref: z.string().nullable(),
    connector: z
      .object({
        id,
        name: z.string(),
        kind: z.string(),
        last_seen_at: z.string().nullable(),
        removed_at: z.string().nullable(),
      })
      .nullable(),
    commands: z
      .array(
        z
          .object({ name: z.string(), description: z.string(), args: z.string().optional() })
          .meta({ id: 'Command' }),
      )
      .nullable()
      .meta({ description: "the host's commands for the composer's / menu (cleaned by doc2's rules)" }),
    card: z
      .object({
        name: z.string(),
        skills: z.array(z.object({ name: z.string(), description: z.string().optional() })),
      })
      .nullable()
      .optional()
      .meta({ description: "a bridged agent's card summary (doc3): the remote agent's name and skills" }),
    client_safe: z.boolean(),
    created_at: iso,
    updated_at: iso,
    shared: z.boolean().optional().meta({ description: 'true on an agent someone shared with this person' }),
    shared_by: z.string().optional(),
    first_message: z.string().nullable().optional(),
    presence: z
      .enum(['live', 'paused'])
      .optional()
      .meta({ description: "paused while the owner's agent is not client-safe (shared rows)" }),
    share_why: z
      .array(z.string())
      .nullable()
      .optional()
      .meta({ description: 'the client-safe rules an owned agent breaks; null on a shared row' }),
  })
  .meta({ id: 'Agent' });
export const agentListItem = agentView
  .extend({
    unread: z.number().int(),
    last_message_at: iso.nullable(),
    last_message: z
      .object({
        sender: z.enum(['agent', 'person']),
        text: z.string().meta({ description: 'one line, at most 120 characters' }),
      })
      .nullable()
      .meta({ description: "the thread's newest row as a one-line preview for the list" }),
  })
  .meta({ id: 'AgentListItem' });
export const agentList = z.object({ agents: z.array(agentListItem) }).meta({ id: 'AgentList' });
export const mintedCode = z
  .object({ code: z.string().regex(/^\d{6}$/), expires_at: iso })
  .meta({ id: 'PairingCode' });

export const createAgentBody = z
  .object({ name: z.string().min(1).max(40), color: colorSchema.optional() })
  .meta({ id: 'CreateAgentRequest' });
export const createdAgent = z
  .object({ agent: agentView, pairing: mintedCode.nullable() })
  .meta({ id: 'CreatedAgent' });
export const updateAgentBody = z
  .object({
    name: z.string().min(1).max(40).optional(),
    color: colorSchema.optional(),
    avatar: z.enum(['svc']).nullable().optional(),
    theme: z.record(z.string(), z.unknown()).optional(),
    push_muted: z.boolean().optional(),
    sort: z.number().int().optional(),
    is_default: z.literal(true).optional(),
  })
  .meta({ id: 'UpdateAgentRequest' });
export const reorderBody = z.object({ ids: z.array(id) }).meta({ id: 'ReorderRequest' });

export const messageView = z
  .object({
    id,
    seq: z.number().int(),
    sender: z.enum(['agent', 'person']),
    kind: z.enum(['text', 'screen', 'tap']),
    body: z.string(),
    meta: z.record(z.string(), z.unknown()),
    screen: z
      .object({ id, lines: z.string(), ops: z.array(z.unknown()), tap_ids: z.array(z.string()) })
      .nullable(),
    photos: z.array(z.string().meta({ description: 'signed link, valid 1 hour' })),
    created_at: iso,
    delivered_at: iso.nullable(),
    handled_at: iso.nullable(),
  })
  .meta({ id: 'Message' });
export const threadPage = z
  .object({ messages: z.array(messageView), next_before: z.number().int().nullable() })
  .meta({ id: 'ThreadPage' });
export const pageQuery = z.object({
  before: z.coerce.number().int().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
});
/** A phone's key for one answer (ADR 0276): sent again with the same key, the first answer comes back. */
const idempotencyKey = z
  .string()
  .regex(/^[A-Za-z0-9._:~-]{1,128}$/)
  .optional()
  .meta({
    description:
      'chosen by the app for this answer (1 to 128 letters, digits or . _ : ~ -), unique per person: a request sent again with the same key answers what the first one wrote and writes nothing (a queued answer resent after a lost response); a key already used for another answer is 409',
  });
export const sayBody = z
  .object({
    text: z.string().min(1).max(4000),
    photo_ids: z.array(id).max(8).optional(),
    idempotency_key: idempotencyKey,
  })
  .meta({ id: 'SendTextRequest' });
export const tapBody = z
  .object({
    screen_id: id,
    event: z
      .object({ id: z.string().min(1), value: z.unknown().optional() })
      .catchall(z.unknown())
      .meta({ description: 'the tapped component id and its value; preset, line and echo are computed' }),
    photo_ids: z.array(id).max(8).optional(),
    device: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/)
      .optional()
      .meta({ description: "this device's id (as presence sends it); named in the answer's receipt" }),
    idempotency_key: idempotencyKey,
  })
  .meta({ id: 'TapRequest' });
export const tapResult = z
  .object({ message: messageView, line: z.string(), echo: z.string() })
  .meta({ id: 'TapResult' });
export const presenceBody = z
  .object({
    open: z.boolean(),
    device: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/)
      .optional()
      .meta({ description: "this device's id; a thread open on any device does not buzz (default `app`)" }),
  })
  .meta({ id: 'Presence' });
export const readBody = z.object({ seq: z.number().int().min(0) }).meta({ id: 'ReadMark' });
export const photoCreated = z.object({ id, url: z.string() }).meta({ id: 'PhotoCreated' });
export const photoQuery = z.object({ exp: z.string().optional(), sig: z.string().optional() });

export const connectionView = z
  .object({
    id,
    name: z.string(),
    kind: z.string(),
    via: z
      .enum(['pairing', 'oauth'])
      .meta({ description: 'paired with a code, or approved through sign-in' }),
    created_at: iso,
    last_seen_at: iso.nullable(),
    revoked_at: iso.nullable(),
    agents: z.array(
      z.object({
        id,
        name: z.string(),
        handle: z.string(),
        remote_ref: z.string().nullable().meta({ description: "the host's profile name" }),
      }),
    ),
  })
  .meta({ id: 'Connection' });
export const connectionList = z
  .object({ connections: z.array(connectionView) })
  .meta({ id: 'ConnectionList' });

export const oauthRequestView = z
  .object({
    id,
    status: z.enum(['pending', 'approved', 'denied', 'expired', 'finished']),
    client: z.object({ name: z.string(), uri: z.string().nullable(), logo_uri: z.string().nullable() }),
    redirect: z.object({ uri: z.string(), host: z.string() }),
    expires_at: iso,
    agent: z.object({ id, name: z.string() }).nullable(),
  })
  .meta({ id: 'OAuthRequest', description: 'An app asking to sign in (from the consent page link)' });
export const oauthDecisionBody = z
  .object({
    decision: z.enum(['allow', 'deny']),
    agent_id: id.optional().meta({ description: 'allow as this existing agent' }),
    agent_name: z
      .string()
      .trim()
      .min(1)
      .max(40)
      .optional()
      .meta({ description: "name of the new agent; default the app's name" }),
  })
  .strict()
  .meta({ id: 'OAuthDecision' });

export const errorBody = z
  .object({
    error: z.string().meta({ description: 'stable snake_case code' }),
    message: z.string(),
    field: z.string().optional(),
    details: z.unknown().optional().meta({ description: 'what the rule found, as data' }),
  })
  .meta({ id: 'Error' });

// Types of the wire, for clients (apps/web imports these type-only) and for the use cases above.
export type Credentials = z.input<typeof credentialsBody>;
export type SessionTokens = z.output<typeof sessionTokens>;
export type Me = z.output<typeof me>;
export type AppConfig = z.output<typeof appConfig>;
export type Agent = z.output<typeof agentView>;
export type AgentListItem = z.output<typeof agentListItem>;
export type AgentColor = z.output<typeof colorSchema>;
export type PairingCode = z.output<typeof mintedCode>;
export type CreatedAgent = z.output<typeof createdAgent>;
export type CreateAgentInput = z.input<typeof createAgentBody>;
export type UpdateAgentInput = z.input<typeof updateAgentBody>;
export type Message = z.output<typeof messageView>;
export type ThreadPage = z.output<typeof threadPage>;
export type SendTextInput = z.input<typeof sayBody>;
export type TapInput = z.input<typeof tapBody>;
export type TapResult = z.output<typeof tapResult>;
export type PhotoCreated = z.output<typeof photoCreated>;
export type Connection = z.output<typeof connectionView>;
export type OAuthRequestView = z.output<typeof oauthRequestView>;
export type OAuthDecisionInput = z.output<typeof oauthDecisionBody>;
export type ErrorBody = z.output<typeof errorBody>;

// Web Push (issue 17): the settings page's status and one device's subscription.
export const pushSubscriptionView = z
  .object({
    id,
    device: z.string().nullable(),
    service: z.string().meta({ description: "the push service's host" }),
    created_at: z.string(),
  })
  .meta({ id: 'PushSubscription' });
export const pushSettings = z
  .object({
    quiet_hours: z
      .object({ start: z.string(), end: z.string() })
      .nullable()
      .meta({ description: 'local times HH:MM in the account time zone; null: no quiet hours' }),
    allow_urgent: z.boolean().meta({ description: 'an ask the agent marks urgent buzzes in quiet hours' }),
    plain_per_hour: z
      .number()
      .int()
      .meta({ description: 'buzzes that need no answer per agent per hour (0: every one)' }),
  })
  .meta({ id: 'PushSettings' });
export const pushSettingsBody = z
  .object({
    quiet_hours: z.object({ start: z.string(), end: z.string() }).nullable().optional(),
    allow_urgent: z.boolean().optional(),
    plain_per_hour: z.number().int().optional(),
  })
  .meta({ id: 'PushSettingsRequest' });
export const activeBody = z
  .object({ active: z.boolean(), device: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/) })
  .meta({ id: 'ActiveRequest', description: 'the app is in front of the person on this device (or not)' });
export const pushStatus = z
  .object({
    configured: z.boolean().meta({ description: 'false: the operator set no VAPID keys; nothing is sent' }),
    public_key: z.string().nullable().meta({ description: 'VAPID public key for pushManager.subscribe' }),
    subscriptions: z.array(pushSubscriptionView),
    settings: pushSettings,
  })
  .meta({ id: 'PushStatus' });
export const pushSubscribeBody = z
  .object({
    endpoint: z.string().min(1).max(2048),
    keys: z.object({ p256dh: z.string().min(1), auth: z.string().min(1) }),
    device: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/)
      .optional(),
  })
  .meta({ id: 'PushSubscribeRequest', description: 'PushSubscription.toJSON() plus the device id' });
export const pushAnswerBody = z
  .object({
    token: z.string().min(1).max(128).meta({ description: 'the answer token the push carried (svc_nt_...)' }),
    screen_id: z.string().min(1).max(128),
    value: z
      .union([z.string().max(1000), z.number(), z.boolean()])
      .meta({ description: "one of the values of the notification's actions" }),
  })
  .meta({ id: 'PushAnswerRequest', description: "What a notification's action sends (issue 39)" });
export const pushAnswerResult = z
  .object({
    screen_id: z.string(),
    value: z.union([z.string(), z.number(), z.boolean()]),
    sent: z.string().meta({ description: 'what the notification now says, "Sent: <value>"' }),
    line: z.string().meta({ description: 'the tap line the agent reads' }),
    at: z.string(),
  })
  .meta({ id: 'PushAnswerResult' });
export const pushUnsubscribeBody = z
  .object({ endpoint: z.string().min(1).max(2048) })
  .meta({ id: 'PushUnsubscribeRequest' });

export const invitePreview = z
  .object({
    title: z.string(),
    shared_by: z.string(),
    first_name: z.string().nullable(),
    agents: z.array(z.object({ name: z.string(), color: colorSchema })),
    claimable: z.boolean(),
    expires_at: iso.meta({ description: 'The link works until then (7 days after it was made)' }),
  })
  .meta({ id: 'InvitePreview' });
export const claimResult = z
  .object({
    granted: z.array(z.object({ agent_id: id, name: z.string() })),
    skipped: z.array(z.object({ agent_id: id, name: z.string(), share_why: z.array(z.string()) })),
  })
  .meta({ id: 'ClaimResult' });
export const givenGrant = z
  .object({
    id,
    agent: z.object({ id, name: z.string(), handle: z.string() }),
    user: z.object({ id, email: z.string(), first_name: z.string().nullable() }),
    shared_by: z.string(),
    template: z.string().nullable(),
    granted_at: iso,
    revoked_at: iso.nullable(),
  })
  .meta({ id: 'GivenGrant' });
export const revokedGrant = givenGrant
  .extend({ user: z.object({ id, first_name: z.string().nullable() }) })
  .meta({ id: 'RevokedGrant' });
export const givenGrants = z.object({ grants: z.array(givenGrant) }).meta({ id: 'GivenGrants' });
export const revokeGrantBody = z.object({ agent_id: id, user_id: id }).meta({ id: 'RevokeGrantRequest' });
export const createInviteBody = z
  .object({
    agent_id: id,
    first_name: z.string().max(40).optional().meta({ description: 'the name the invite greets' }),
    first_message: z
      .string()
      .max(2000)
      .optional()
      .meta({ description: "the first message of the person's thread (Screen Lines allowed)" }),
  })
  .meta({ id: 'CreateInviteRequest' });
export const inviteCreated = z
  .object({
    invite_id: id,
    link: z.string().meta({ description: 'the invite link, shown once (only its hash is kept)' }),
    template: z.string(),
  })
  .meta({ id: 'InviteCreated' });
