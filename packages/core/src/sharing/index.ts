// @screen-service/core/sharing: shared agents: templates, invites, grants, claims and revoke.
// Every export here is public API.
export { readAnswers } from './invite-answers.js';
export {
  createRevokedGrantsJob,
  purgeRevokedGrants,
  REVOKED_GRANT_RETENTION_MS,
  requireShareable,
  writeGrant,
  writeTemplate,
} from './share-writes.js';
export {
  type ClaimResult,
  createShares,
  type GivenGrantView,
  type GrantInput,
  INVITE_TTL_MS,
  type InviteCreated,
  type InvitePlan,
  type InvitePreview,
  type RevokedGrantView,
  type Shares,
  type SharesOptions,
  type TemplateInput,
  type TemplateItemInput,
  type TemplateView,
} from './shares.js';
