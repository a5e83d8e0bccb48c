// @screen-service/core/sharing: shared agents: templates, invites, grants, claims and revoke.
// Every export here is public API.
export {
  type ClaimResult,
  createRevokedGrantsJob,
  createShares,
  type GivenGrantView,
  type GrantInput,
  type InviteCreated,
  type InvitePlan,
  type InvitePreview,
  REVOKED_GRANT_RETENTION_MS,
  readAnswers,
  type Shares,
  type SharesOptions,
  type TemplateInput,
  type TemplateItemInput,
  type TemplateView,
} from './shares.js';
