import { credentialStatus, type CredentialStatus } from '../credentials/status.ts'
import { jwtUrl, shareUrl, verifyUrl } from '../credentials/urls.ts'
import type { TemplateView } from '../achievements/present.ts'
import type { IssuerConfig } from '../config.ts'
import type { CredentialRecord, Issuance } from './issuance.ts'

/** The credential pointer of the issuance detail (spec §2.7). */
export interface CredentialPointer {
  id: string
  format: 'OB3_VC_JWT'
  status: CredentialStatus
  issuedAt: string
  shareUrl: string
  verifyUrl: string
  jwtUrl: string
}

/** The issuance's own status: the credential's, or `pending` while it has none (revoked wins either way). */
export type IssuanceStatus = CredentialStatus | 'pending'

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

/** An item of the issuance list (spec §2.6): `achievementId` and `credentialId` among its fields. */
export function presentIssuanceItem(issuance: Issuance, credential: CredentialRecord | null, now: number) {
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
 * The issuance detail (spec §2.6): recipient data, the `form` as issued (the snapshot engraved into the
 * credential, never the live template), evidences and the credential pointer (`null` until it exists).
 */
export function presentIssuanceDetail(config: IssuerConfig, issuance: Issuance, snapshot: TemplateView, credential: CredentialRecord | null, now: number) {
  const { criteria, ...form } = snapshot
  return {
    ...presentIssuanceItem(issuance, credential, now),
    revocationReason: issuance.revocationReason,
    form: { ...form, criteria: { narrative: criteria.narrative }, requirements: criteria.requirements },
    evidences: issuance.evidences.map((evidence) => ({ ...evidence })),
    credential: credential ? credentialPointer(config, issuance, credential, now) : null,
  }
}

export type IssuanceItem = ReturnType<typeof presentIssuanceItem>
export type IssuanceDetail = ReturnType<typeof presentIssuanceDetail>
