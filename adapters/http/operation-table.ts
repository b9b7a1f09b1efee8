import * as v from 'valibot'
import { templateCreateSchema, templatePatchSchema } from '../../core/achievements/schema.ts'
import { v1FormCreateSchema, v1FormPatchSchema } from '../../core/achievements/v1-form.ts'
import { legacyFormSchema } from '../../core/achievements/legacy-form.ts'
import { designCreateSchema, designPatchSchema } from '../../core/designs/schema.ts'
import { issueRequestSchema, v1IssueRequestSchema } from '../../core/issuances/schema.ts'
import { revokeRequestSchema } from '../../core/issuances/revoke.ts'
import { revokeManyRequestSchema, revokeManyResultSchema } from '../../core/issuances/revoke-many.ts'
import { notifyRequestSchema } from '../../core/issuances/notify.ts'
import { PUBLIC_PATHS, WELL_KNOWN } from '../../core/public-paths.ts'
import { templateViewSchema } from '../../core/achievements/present.ts'
import { v1FormSchema } from '../../core/achievements/v1-form.ts'
import { clubRootSchema } from '../../core/clubs/read-root.ts'
import { designViewSchema } from '../../core/designs/present.ts'
import { didDocumentSchema } from '../../core/did-documents/did-document.ts'
import { securedStatusListSchema } from '../../core/status-lists/credential.ts'
import { eventViewSchema } from '../../core/events/present.ts'
import { batchResultSchema } from '../../core/issuances/batch-result.ts'
import { issuanceDetailSchema, issuanceItemSchema } from '../../core/issuances/present.ts'
import { credentialViewSchema } from '../../core/issuances/read.ts'
import { jsonLdCredentialSchema } from '../../core/credentials/json-ld-form.ts'
import { v1BatchResultSchema, v1IssuanceViewSchema } from '../../core/issuances/v1.ts'
import { pageSchema } from '../../core/lists/cursor.ts'
import { tokenResponseSchema } from '../../core/tokens/issue.ts'
import { verdictSchema } from '../../core/verification/verify-issuance.ts'
import { credentialResponseSchema } from '../../core/wallets/issue-credential.ts'
import { authorizationServerMetadataSchema, credentialIssuerMetadataSchema } from '../../core/wallets/metadata.ts'
import { nonceResponseSchema } from '../../core/wallets/nonce.ts'
import { credentialOfferSchema } from '../../core/wallets/offer.ts'
import { walletTokenResponseSchema } from '../../core/wallets/redeem-code.ts'
import { JSON_LD_MEDIA_TYPES, JWT_MEDIA_TYPES } from './json-ld-negotiation.ts'
import * as achievements from './routes/achievements.ts'
import * as club from './routes/club.ts'
import * as designs from './routes/designs.ts'
import * as files from './routes/files.ts'
import * as issuances from './routes/issuances.ts'
import * as reissues from './routes/reissues.ts'
import { bulkReissueRequestSchema, reissueRequestSchema } from '../../core/reissues/schema.ts'
import { bulkReissueResultSchema } from '../../core/reissues/reissue.ts'
import * as issuanceActions from './routes/issuance-actions.ts'
import * as legacy from './routes/legacy.ts'
import * as meta from './routes/meta.ts'
import * as oauth from './routes/oauth.ts'
import * as publicSurface from './routes/public.ts'
import * as v1 from './routes/v1.ts'
import * as wallet from './routes/wallet.ts'
import { dataOf } from './responses.ts'
import { legacyFormCreatedSchema } from './legacy-error.ts'
import { openApiDocumentSchema } from './openapi/document-shape.ts'
import type { Operation } from './operation.ts'

const AS_JSON = 'application/json'

const CLUB = '{base}/v2/clubs/{clubDomain}'
/** The JWT form of the credential and the status list, under each JWT media type (`jwtMediaType`; `text/plain` unless another is asked for). */
const JWT_ANSWER = Object.fromEntries(JWT_MEDIA_TYPES.map((mediaType) => [mediaType, v.string()]))
/** The status list in its two forms, chosen by `Accept` (`jsonLdMediaType`): the VC-JWT, or JSON-LD under any JSON-LD media type. */
const STATUS_LIST_ANSWER = {
  ...JWT_ANSWER,
  ...Object.fromEntries(JSON_LD_MEDIA_TYPES.map((mediaType) => [mediaType, securedStatusListSchema])),
}
const RECIPIENTS_NOTE = 'Each recipients[] entry is checked on its own against the Recipient schema; failures are'

/**
 * Every operation of the HTTP face, once: the router serves this table and enforces each `scope` from
 * it (`router.ts`), and the OpenAPI document is generated from it (`openapi/document.ts`). Scopes are
 * docs/decisions/0003-scopes-per-operation.md. The order is the document's.
 */
export const OPERATIONS: readonly Operation[] = [
  {
    method: 'POST',
    path: '{auth}/token',
    auth: 'client',
    handle: oauth.issueToken,
    answer: { [AS_JSON]: tokenResponseSchema },
    errorShape: 'oauth',
    summary: 'Get an access token (client credentials grant)',
    tag: 'oauth',
    body: oauth.tokenFormSchema,
    bodyType: 'application/x-www-form-urlencoded',
  },
  {
    method: 'GET',
    path: `${CLUB}/`,
    scope: 'clubs:read',
    handle: club.readClubRoot,
    answer: { [AS_JSON]: dataOf(clubRootSchema) },
    summary: 'Read the club root',
    tag: 'clubs',
  },

  {
    method: 'GET',
    path: `${CLUB}/achievements`,
    scope: 'achievements:read',
    handle: achievements.listTemplates,
    answer: { [AS_JSON]: pageSchema(templateViewSchema) },
    summary: 'List templates',
    tag: 'achievements',
    query: ['limit', 'cursor'],
  },
  {
    method: 'POST',
    path: `${CLUB}/achievements`,
    scope: 'achievements:manage',
    handle: achievements.createTemplate,
    answer: { [AS_JSON]: dataOf(templateViewSchema) },
    summary: 'Create a template',
    tag: 'achievements',
    body: templateCreateSchema,
    status: 201,
  },
  {
    method: 'GET',
    path: `${CLUB}/achievements/{id}`,
    scope: 'achievements:read',
    handle: achievements.readTemplate,
    answer: { [AS_JSON]: dataOf(templateViewSchema) },
    summary: 'Read a template',
    tag: 'achievements',
  },
  {
    method: 'PATCH',
    path: `${CLUB}/achievements/{id}`,
    scope: 'achievements:manage',
    handle: achievements.patchTemplate,
    answer: { [AS_JSON]: dataOf(templateViewSchema) },
    summary: 'Patch a template',
    tag: 'achievements',
    body: templatePatchSchema,
  },

  {
    method: 'POST',
    path: `${CLUB}/issuances`,
    scope: 'issuance:write',
    handle: issuances.issue,
    answer: { [AS_JSON]: batchResultSchema },
    summary: 'Issue a template to recipients (batch)',
    tag: 'issuances',
    idempotent: true,
    body: issueRequestSchema,
    bodyNote: `${RECIPIENTS_NOTE} batch items, not request errors.`,
  },
  {
    method: 'POST',
    path: `${CLUB}/issuances/{id}/revoke`,
    scope: 'issuance:revoke',
    handle: issuances.revoke,
    answer: { [AS_JSON]: dataOf(issuanceDetailSchema) },
    summary: 'Revoke an issuance',
    tag: 'issuances',
    idempotent: true,
    body: revokeRequestSchema,
    bodyOptional: true,
  },
  {
    method: 'POST',
    path: `${CLUB}/issuances/{id}/reissue`,
    scope: 'issuance:write',
    handle: reissues.reissue,
    answer: { [AS_JSON]: dataOf(issuanceDetailSchema) },
    summary: 'Reissue an issuance: a new version for its recipient, or a new issuance for another',
    tag: 'issuances',
    idempotent: true,
    body: reissueRequestSchema,
    bodyOptional: true,
  },
  {
    method: 'POST',
    path: `${CLUB}/issuances/reissue`,
    scope: 'issuance:write',
    handle: reissues.reissueMany,
    answer: { [AS_JSON]: bulkReissueResultSchema },
    summary: 'Reissue many issuances with one expiry (a renewal)',
    tag: 'issuances',
    idempotent: true,
    body: bulkReissueRequestSchema,
  },
  {
    method: 'POST',
    path: `${CLUB}/issuances/revoke`,
    scope: 'issuance:revoke',
    handle: issuanceActions.revokeMany,
    answer: { [AS_JSON]: revokeManyResultSchema },
    summary: 'Revoke many issuances at once (up to 1,000)',
    tag: 'issuances',
    idempotent: true,
    body: revokeManyRequestSchema,
    bodyNote: 'An id not found (also of another club) or already revoked is an item of the result, not a request error.',
  },
  {
    method: 'POST',
    path: `${CLUB}/issuances/{id}/notify`,
    scope: 'issuance:write',
    handle: issuanceActions.notify,
    answer: { [AS_JSON]: dataOf(issuanceDetailSchema) },
    summary: 'Mail the recipient again (at most 3 times in 24 hours)',
    tag: 'issuances',
    status: 202,
    body: notifyRequestSchema,
    bodyOptional: true,
  },
  {
    method: 'GET',
    path: `${CLUB}/issuances`,
    scope: 'issuance:read',
    handle: issuances.listIssuances,
    answer: { [AS_JSON]: pageSchema(issuanceItemSchema) },
    summary: 'List issuances',
    tag: 'issuances',
    query: ['limit', 'cursor', 'achievementId', 'status', 'claimed'],
  },
  {
    method: 'GET',
    path: `${CLUB}/issuances/{id}`,
    scope: 'issuance:read',
    handle: issuances.readIssuance,
    answer: { [AS_JSON]: dataOf(issuanceDetailSchema) },
    summary: 'Read an issuance',
    tag: 'issuances',
  },
  {
    method: 'GET',
    path: `${CLUB}/issuances/{id}/credential`,
    scope: 'issuance:read',
    handle: issuances.readCredential,
    answer: { [AS_JSON]: dataOf(credentialViewSchema) },
    summary: 'Read the signed credential',
    tag: 'issuances',
  },
  {
    method: 'GET',
    path: `${CLUB}/issuances/{id}/file`,
    scope: 'issuance:read',
    handle: files.downloadFile,
    answer: { 'application/pdf': null, 'image/png': null, 'image/svg+xml': null },
    conditional: true,
    summary: 'Download the certificate or baked badge',
    tag: 'issuances',
    query: ['format'],
  },
  {
    method: 'GET',
    path: `${CLUB}/events`,
    scope: 'events:read',
    handle: issuances.listEvents,
    answer: { [AS_JSON]: pageSchema(eventViewSchema) },
    summary: 'Read the event feed',
    tag: 'events',
    query: ['limit', 'cursor'],
  },

  {
    method: 'GET',
    path: `${CLUB}/designs`,
    scope: 'designs:read',
    handle: designs.listDesigns,
    answer: { [AS_JSON]: pageSchema(designViewSchema) },
    summary: 'List designs',
    tag: 'designs',
    query: ['limit', 'cursor'],
  },
  {
    method: 'POST',
    path: `${CLUB}/designs`,
    scope: 'designs:manage',
    handle: designs.createDesign,
    answer: { [AS_JSON]: dataOf(designViewSchema) },
    summary: 'Create a design',
    tag: 'designs',
    body: designCreateSchema,
    status: 201,
  },
  {
    method: 'GET',
    path: `${CLUB}/designs/{id}`,
    scope: 'designs:read',
    handle: designs.readDesign,
    answer: { [AS_JSON]: dataOf(designViewSchema) },
    summary: 'Read a design',
    tag: 'designs',
  },
  {
    method: 'PATCH',
    path: `${CLUB}/designs/{id}`,
    scope: 'designs:manage',
    handle: designs.patchDesign,
    answer: { [AS_JSON]: dataOf(designViewSchema) },
    summary: 'Patch a design',
    tag: 'designs',
    body: designPatchSchema,
  },

  {
    method: 'GET',
    path: `{public}${PUBLIC_PATHS.verify}`,
    auth: 'public',
    handle: publicSurface.verify,
    answer: { [AS_JSON]: verdictSchema },
    notFoundAnswers: true,
    summary: 'Verify a credential (verdict)',
    tag: 'verification',
  },
  {
    method: 'GET',
    path: `{public}${PUBLIC_PATHS.credential}`,
    auth: 'public',
    handle: publicSurface.credential,
    answer: {
      ...JWT_ANSWER,
      ...Object.fromEntries(JSON_LD_MEDIA_TYPES.map((mediaType) => [mediaType, jsonLdCredentialSchema])),
    },
    conditional: true,
    vary: 'Accept',
    summary:
      'The credential: its signed JWT (text/plain, or application/vc+jwt or application/jwt when Accept names it), or its JSON-LD form with a Data Integrity proof when Accept prefers a JSON-LD type',
    tag: 'verification',
  },
  {
    method: 'GET',
    path: `{public}${PUBLIC_PATHS.didDocument}`,
    auth: 'public',
    handle: publicSurface.didDocument,
    answer: { 'application/did+json': didDocumentSchema },
    conditional: true,
    summary: 'The club DID document (did:web)',
    tag: 'verification',
  },
  {
    method: 'GET',
    path: `{public}${PUBLIC_PATHS.firstStatusList}`,
    auth: 'public',
    handle: publicSurface.firstStatusList,
    answer: STATUS_LIST_ANSWER,
    conditional: true,
    summary: "The club's first revocation list (Bitstring Status List: VC-JWT, or JSON-LD with a Data Integrity proof by Accept)",
    tag: 'verification',
  },
  {
    method: 'GET',
    path: `{public}${PUBLIC_PATHS.statusList}`,
    auth: 'public',
    handle: publicSurface.laterStatusList,
    answer: STATUS_LIST_ANSWER,
    conditional: true,
    summary: 'A later revocation list of the club',
    tag: 'verification',
  },
  {
    method: 'GET',
    path: `{public}${PUBLIC_PATHS.image}`,
    auth: 'public',
    handle: publicSurface.image,
    answer: { 'image/png': null, 'image/svg+xml': null },
    conditional: true,
    summary: 'An image by content hash (badge images, logos)',
    tag: 'verification',
  },
  {
    method: 'GET',
    path: `{public}${PUBLIC_PATHS.skill}`,
    auth: 'public',
    handle: publicSurface.skill,
    answer: { [AS_JSON]: publicSurface.skillSchema },
    conditional: true,
    summary: 'The skill a tag names (alignment target)',
    tag: 'verification',
  },

  {
    method: 'GET',
    path: `${WELL_KNOWN.credentialIssuer}{public}${PUBLIC_PATHS.issuer}`,
    auth: 'public',
    handle: wallet.credentialIssuerMetadata,
    answer: { [AS_JSON]: credentialIssuerMetadataSchema },
    summary: "The club's OID4VCI credential issuer metadata",
    tag: 'wallets',
  },
  {
    method: 'GET',
    path: `${WELL_KNOWN.authorizationServer}{public}${PUBLIC_PATHS.issuer}`,
    auth: 'public',
    handle: wallet.authorizationServerMetadata,
    answer: { [AS_JSON]: authorizationServerMetadataSchema },
    summary: "The club's authorization server metadata (RFC 8414), for its wallet token endpoint",
    tag: 'wallets',
  },
  {
    method: 'GET',
    path: `{public}${PUBLIC_PATHS.credentialOffer}`,
    auth: 'public',
    handle: wallet.credentialOffer,
    answer: { [AS_JSON]: credentialOfferSchema },
    summary: 'The OID4VCI credential offer of a credential (a fresh pre-authorized code each time)',
    tag: 'wallets',
  },
  {
    method: 'POST',
    path: `{public}${PUBLIC_PATHS.walletToken}`,
    auth: 'public',
    handle: wallet.token,
    answer: { [AS_JSON]: walletTokenResponseSchema },
    errorShape: 'oauth',
    summary: 'Redeem a pre-authorized code for a wallet access token',
    tag: 'wallets',
    body: wallet.walletTokenFormSchema,
    bodyType: 'application/x-www-form-urlencoded',
  },
  {
    method: 'POST',
    path: `{public}${PUBLIC_PATHS.walletNonce}`,
    auth: 'public',
    handle: wallet.nonce,
    answer: { [AS_JSON]: nonceResponseSchema },
    summary: 'A fresh c_nonce',
    tag: 'wallets',
    body: wallet.nonceRequestSchema,
    bodyOptional: true,
  },
  {
    method: 'POST',
    path: `{public}${PUBLIC_PATHS.walletCredential}`,
    auth: 'public',
    handle: wallet.credential,
    answer: { [AS_JSON]: credentialResponseSchema },
    errorShape: 'credential',
    summary: 'The signed credential for a wallet access token (Authorization: Bearer)',
    tag: 'wallets',
    body: wallet.credentialRequestSchema,
  },
  {
    method: 'GET',
    path: `{public}${PUBLIC_PATHS.lcwRequest}`,
    auth: 'public',
    handle: wallet.lcwRequest,
    status: 303,
    answer: {},
    summary: 'Learner Credential Wallet: redirect to a fresh request for the wallet (lcw.app/request.html)',
    tag: 'wallets',
  },
  {
    method: 'POST',
    path: `{public}${PUBLIC_PATHS.lcwExchange}`,
    auth: 'public',
    handle: wallet.lcwExchange,
    answer: { [AS_JSON]: jsonLdCredentialSchema },
    summary: "Learner Credential Wallet: the wallet's DID Authentication in, the credential's JSON-LD form out (once)",
    tag: 'wallets',
    body: wallet.lcwPresentationSchema,
  },

  {
    method: 'GET',
    path: '{base}/v1/forms/{id}',
    scope: 'achievements:read',
    handle: v1.readForm,
    answer: { [AS_JSON]: v1FormSchema },
    summary: 'Read a form (v1)',
    tag: 'v1',
  },
  {
    method: 'POST',
    path: '{base}/v1/forms',
    scope: 'achievements:manage',
    handle: v1.createForm,
    answer: { [AS_JSON]: v1FormSchema },
    summary: 'Create a form (v1)',
    tag: 'v1',
    body: v1FormCreateSchema,
    status: 201,
  },
  {
    method: 'PATCH',
    path: '{base}/v1/forms/{id}',
    scope: 'achievements:manage',
    handle: v1.patchForm,
    answer: { [AS_JSON]: v1FormSchema },
    summary: 'Patch a form (v1)',
    tag: 'v1',
    body: v1FormPatchSchema,
  },
  {
    method: 'POST',
    path: '{base}/v1/achievements',
    scope: 'issuance:write',
    handle: v1.bulkIssue,
    answer: { [AS_JSON]: v1BatchResultSchema },
    summary: 'Bulk issue (v1)',
    tag: 'v1',
    idempotent: true,
    body: v1IssueRequestSchema,
    bodyNote: `${RECIPIENTS_NOTE} failed[] items, not request errors.`,
  },
  {
    method: 'GET',
    path: '{base}/v1/achievements/{id}',
    scope: 'issuance:read',
    handle: v1.readIssuance,
    answer: { [AS_JSON]: v1IssuanceViewSchema },
    summary: 'Read an issuance (v1)',
    tag: 'v1',
  },

  {
    method: 'POST',
    path: '{legacy}/open-api/achievements/forms',
    auth: 'api-key',
    handle: legacy.createLegacyForm,
    answer: { [AS_JSON]: legacyFormCreatedSchema },
    errorShape: 'legacy',
    summary: 'Create a form (legacy)',
    tag: 'legacy',
    body: legacyFormSchema,
    status: 201,
  },
  {
    method: 'GET',
    path: '{base}/openapi.json',
    auth: 'public',
    handle: meta.serveOpenApi,
    answer: { [AS_JSON]: openApiDocumentSchema },
    summary: 'This document',
    tag: 'meta',
  },
]
