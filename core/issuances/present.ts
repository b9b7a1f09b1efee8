import * as v from 'valibot'
import { CREDENTIAL_STATUSES, credentialStatus } from '../credentials/status.ts'
import { jwtUrl, shareUrl, verifyUrl } from '../credentials/urls.ts'
import { requirementViewSchema, templateViewEntries, type TemplateView } from '../achievements/present.ts'
import { ISSUE_MODES } from './issuance.ts'
import { claimsViewEntries, type ClaimsView } from './claims-view.ts'
import { shareViewsViewEntries, type ShareViewsView } from './share-views-view.ts'
import type { IssuerConfig } from '../config.ts'
import type { Issuance } from './issuance.ts'
import type { CredentialRecord } from '../credentials/credential-record.ts'
import { reissueDetailEntries, type ReissueDetailFields } from '../reissues/present.ts'

/** The credential pointer of the issuance detail (docs/api.md §2.7). */
export const credentialPointerSchema = v.object({
  id: v.string(),
  format: v.literal('OB3_VC_JWT'),
  status: v.picklist(CREDENTIAL_STATUSES),
  issuedAt: v.string(),
  shareUrl: v.string(),
  verifyUrl: v.string(),
  jwtUrl: v.string(),
})
export type CredentialPointer = v.InferOutput<typeof credentialPointerSchema>

/** The issuance's own status: the credential's, or `pending` while it has none (revoked wins either way). */
export const ISSUANCE_STATUSES = [...CREDENTIAL_STATUSES, 'pending'] as const
export const issuanceStatusSchema = v.picklist(ISSUANCE_STATUSES)
export type IssuanceStatus = v.InferOutput<typeof issuanceStatusSchema>

/** An item of the issuance list (docs/api.md §2.6): `achievementId` and `credentialId` among its fields. */
export const issuanceItemSchema = v.object({
  id: v.number(),
  achievementId: v.number(),
  /** `null` until the credential exists. */
  credentialId: v.nullable(v.string()),
  status: issuanceStatusSchema,
  recipient: v.object({ externalUserId: v.nullable(v.string()), name: v.string(), email: v.string() }),
  mode: v.picklist(ISSUE_MODES),
  createdAt: v.string(),
  expiresAt: v.nullable(v.string()),
  revokedAt: v.nullable(v.string()),
})
export type IssuanceItem = v.InferOutput<typeof issuanceItemSchema>

/** The issuance detail (docs/api.md §2.6): the item's members and what only the detail carries. */
export const issuanceDetailSchema = v.object({
  ...issuanceItemSchema.entries,
  revocationReason: v.nullable(v.string()),
  /** The template as issued: its members as read, `criteria` without its requirements, which are `requirements`. */
  form: v.object({ ...templateViewEntries, criteria: v.object({ narrative: v.string() }), requirements: v.array(requirementViewSchema) }),
  evidences: v.array(v.object({ url: v.nullable(v.string()), name: v.nullable(v.string()), description: v.nullable(v.string()), isPublic: v.boolean() })),
  /** `null` until the credential exists. */
  credential: v.nullable(credentialPointerSchema),
  ...reissueDetailEntries,
  ...claimsViewEntries,
  ...shareViewsViewEntries,
})
export type IssuanceDetail = v.InferOutput<typeof issuanceDetailSchema>

export function issuanceStatus(issuance: Issuance, credential: CredentialRecord | null, now: number): IssuanceStatus {
  if (!credential) return issuance.revokedAt !== null ? 'revoked' : 'pending'
  return credentialStatus({ revokedAt: issuance.revokedAt, validUntil: credential.validUntil }, now)
}

export function credentialPointer(config: IssuerConfig, issuance: Issuance, credential: CredentialRecord, now: number): CredentialPointer {
  return {
    id: credential.id,
    format: 'OB3_VC_JWT',
    status: credentialStatus({ revokedAt: issuance.revokedAt, validUntil: credential.validUntil }, now),
    issuedAt: new Date(credential.issuedAt).toISOString(),
    shareUrl: shareUrl(config, issuance.club, credential.id),
    verifyUrl: verifyUrl(config, issuance.id),
    jwtUrl: jwtUrl(config, credential.id),
  }
}

export function presentIssuanceItem(issuance: Issuance, credential: CredentialRecord | null, now: number): IssuanceItem {
  return {
    id: issuance.id,
    achievementId: issuance.achievementId,
    credentialId: credential?.id ?? null,
    status: issuanceStatus(issuance, credential, now),
    recipient: { ...issuance.recipient },
    mode: issuance.mode,
    createdAt: new Date(issuance.createdAt).toISOString(),
    expiresAt: issuance.expiresAt === null ? null : new Date(issuance.expiresAt).toISOString(),
    revokedAt: issuance.revokedAt === null ? null : new Date(issuance.revokedAt).toISOString(),
  }
}

/**
 * The issuance detail (docs/api.md §2.6): recipient data, the `form` as issued (the snapshot engraved into the
 * credential, never the live template), evidences and the credential pointer (`null` until it exists).
 */
export function presentIssuanceDetail(
  config: IssuerConfig,
  issuance: Issuance,
  snapshot: TemplateView,
  credential: CredentialRecord | null,
  now: number,
  reissue: ReissueDetailFields,
): Omit<IssuanceDetail, keyof ClaimsView | keyof ShareViewsView> {
  // `expiryReminders` is the live template's, never the form's (core/achievements/expiry-reminders.ts).
  const { criteria, expiryReminders: _expiryReminders, ...form } = snapshot
  return {
    ...presentIssuanceItem(issuance, credential, now),
    revocationReason: issuance.revocationReason,
    form: { ...form, criteria: { narrative: criteria.narrative }, requirements: criteria.requirements },
    evidences: issuance.evidences.map((evidence) => ({ ...evidence })),
    credential: credential ? credentialPointer(config, issuance, credential, now) : null,
    ...reissue,
  }
}
