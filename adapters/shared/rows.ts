import type { AchievementTemplate, Requirement, RequirementType, TemplateType } from '../../core/achievements/template.ts'
import type { ApiClient } from '../../core/clients/api-client.ts'
import type { Club } from '../../core/clubs/club.ts'
import type { Design, DesignKind } from '../../core/designs/design.ts'
import type { Issuance, IssueMode } from '../../core/issuances/issuance.ts'
import type { CredentialProof, CredentialRecord } from '../../core/credentials/credential-record.ts'
import type {
  ApiKeyRecord,
  ClientAuthFailureWindow,
  ClubEvent,
  IdempotencyRecord,
  OutboxMessage,
  SigningJob,
  StatusList,
  StoredKey,
  WebhookDelivery,
  WebhookEndpoint,
} from '../../core/ports/storage.ts'
import { bool, json, nullableNum, nullableStr, num, str, type SqlRow } from './sql-values.ts'
import { keyAlgorithm } from '../../core/keys/key-algorithm.ts'

// Row mappers of the SQL adapters: both name tables and columns alike, and the readers take either
// driver's values (sql-values.ts), so one mapper serves both. Rows leave as plain objects.

export const toRequirement = (row: SqlRow): Requirement => ({
  id: num(row.id),
  type: nullableStr(row.type) as RequirementType | null,
  description: nullableStr(row.description),
  url: nullableStr(row.url),
  order: num(row.sort_order),
})

export const toTemplate = (row: SqlRow, requirements: Requirement[]): AchievementTemplate => ({
  id: num(row.id),
  club: str(row.club),
  name: str(row.name),
  nameEn: nullableStr(row.name_en),
  type: str(row.type) as TemplateType,
  description: str(row.description),
  descriptionEn: nullableStr(row.description_en),
  imprintDescription: str(row.imprint_description),
  imprintDescriptionEn: nullableStr(row.imprint_description_en),
  tag: json(row.tag),
  requirements,
  program: row.program === null ? null : json(row.program),
  coIssuers: json(row.co_issuers),
  prefix: nullableStr(row.prefix),
  courseBeginAt: nullableStr(row.course_begin_at),
  courseEndAt: nullableStr(row.course_end_at),
  badgeDesignId: nullableNum(row.badge_design_id),
  certificateDesignId: nullableNum(row.certificate_design_id),
  expiryReminders: json(row.expiry_reminders),
  issuedCount: num(row.issued_count),
  createdAt: num(row.created_at),
  updatedAt: num(row.updated_at),
})

export const toClientAuthFailureWindow = (row: SqlRow): ClientAuthFailureWindow => ({
  clientId: str(row.client_id),
  failures: num(row.failures),
  endsAt: num(row.ends_at),
})

export const toApiClient = (row: SqlRow): ApiClient => ({
  id: str(row.id),
  club: str(row.club),
  secretHash: str(row.secret_hash),
  scopes: json(row.scopes),
  secretSetAt: num(row.secret_set_at),
  createdAt: num(row.created_at),
})

export const toApiKey = (row: SqlRow): ApiKeyRecord => ({
  id: str(row.id),
  club: str(row.club),
  secretHash: str(row.secret_hash),
  createdAt: num(row.created_at),
  revokedAt: nullableNum(row.revoked_at),
})

export const toClub = (row: SqlRow): Club => ({
  domain: str(row.domain),
  name: str(row.name),
  canIssue: bool(row.can_issue),
  issuerVerified: bool(row.issuer_verified),
  createdAt: num(row.created_at),
})

export const toCredential = (row: SqlRow): CredentialRecord => ({
  id: str(row.id),
  issuanceId: num(row.issuance_id),
  club: str(row.club),
  jwt: str(row.jwt),
  issuedAt: num(row.issued_at),
  validUntil: nullableNum(row.valid_until),
  statusListId: num(row.status_list_id),
  statusListIndex: num(row.status_list_index),
  proof: proofOfColumn(nullableStr(row.proof)),
})

/** The `proof` column of a credential signed before clubcred made proofs (`CredentialProof` `none`). */
export const NO_PROOF_COLUMN = ''

/** The `proof` column's three values as the record's states: NULL is `pending`, `''` is `none`, else `made`. */
export function proofOfColumn(value: string | null): CredentialProof {
  if (value === null) return { state: 'pending' }
  return value === NO_PROOF_COLUMN ? { state: 'none' } : { state: 'made', json: value }
}

/** The `proof` column of a record's proof: `proofOfColumn` backwards. */
export function proofColumn(proof: CredentialProof): string | null {
  if (proof.state === 'pending') return null
  return proof.state === 'none' ? NO_PROOF_COLUMN : proof.json
}

export const toDesign = (row: SqlRow): Design => ({
  id: num(row.id),
  club: str(row.club),
  kind: str(row.kind) as DesignKind,
  name: str(row.name),
  image: nullableStr(row.image),
  layout: row.layout === null ? null : json(row.layout),
  createdAt: num(row.created_at),
  updatedAt: num(row.updated_at),
})

export const toClubEvent = (row: SqlRow): ClubEvent => ({
  id: num(row.id),
  club: str(row.club),
  type: str(row.type) as ClubEvent['type'],
  subject: { type: str(row.subject_type) as ClubEvent['subject']['type'], id: str(row.subject_id) },
  occurredAt: num(row.occurred_at),
  // Only where it is set, so that the other events come back as they went in.
  ...(row.previous_issuance_id != null ? { previousIssuanceId: str(row.previous_issuance_id) } : {}),
})

export const toIdempotencyRecord = (row: SqlRow): IdempotencyRecord => ({
  scope: str(row.scope),
  key: str(row.key),
  requestHash: str(row.request_hash),
  response: row.response_status === null ? null : { status: num(row.response_status), body: str(row.response_body) },
  createdAt: num(row.created_at),
  expiresAt: num(row.expires_at),
})

export const toIssuance = (row: SqlRow): Issuance => ({
  id: num(row.id),
  sequence: num(row.seq),
  club: str(row.club),
  achievementId: num(row.achievement_id),
  snapshotId: num(row.snapshot_id),
  recipient: { externalUserId: nullableStr(row.external_user_id), name: str(row.recipient_name), email: str(row.recipient_email) },
  evidences: json(row.evidences),
  mode: str(row.mode) as IssueMode,
  expiresAt: nullableNum(row.expires_at),
  createdAt: num(row.created_at),
  revokedAt: nullableNum(row.revoked_at),
  revocationReason: nullableStr(row.revocation_reason),
})

export const toStoredKey = (row: SqlRow): StoredKey => ({
  kid: str(row.kid),
  owner: str(row.owner),
  alg: keyAlgorithm(str(row.alg)),
  publicJwk: json(row.public_jwk),
  sealedPrivateKey: str(row.sealed_private_key),
  active: bool(row.active),
  createdAt: num(row.created_at),
})

export const toOutboxMessage = (row: SqlRow): OutboxMessage => ({
  id: num(row.id),
  club: str(row.club),
  issuanceId: num(row.issuance_id),
  to: str(row.recipient),
  subject: str(row.subject),
  text: str(row.text_body),
  html: str(row.html_body),
  attempts: num(row.attempts),
  nextAttemptAt: num(row.next_attempt_at),
  sentAt: nullableNum(row.sent_at),
  lastError: nullableStr(row.last_error),
  createdAt: num(row.created_at),
})

export const toStatusList = (row: SqlRow): StatusList => ({
  id: num(row.id),
  club: str(row.club),
  purpose: 'revocation',
  size: num(row.size),
  seed: str(row.seed),
  allocated: num(row.allocated),
  createdAt: num(row.created_at),
})

export const toSigningJob = (row: SqlRow): SigningJob => ({
  issuanceId: num(row.issuance_id),
  club: str(row.club),
  statusListId: nullableNum(row.status_list_id),
  statusListIndex: nullableNum(row.status_list_index),
  attempts: num(row.attempts),
  leaseUntil: nullableNum(row.lease_until),
  lastError: nullableStr(row.last_error),
})

export const toWebhookEndpoint = (row: SqlRow): WebhookEndpoint => ({
  id: str(row.id),
  club: str(row.club),
  url: str(row.url),
  events: row.events === null ? null : (JSON.parse(str(row.events)) as string[]),
  sealedSecret: str(row.sealed_secret),
  previousSealedSecret: nullableStr(row.previous_sealed_secret),
  previousSecretUntil: nullableNum(row.previous_secret_until),
  enabled: bool(row.enabled),
  consecutiveGiveUps: num(row.consecutive_give_ups),
  createdAt: num(row.created_at),
})

export const toWebhookDelivery = (row: SqlRow): WebhookDelivery => ({
  id: num(row.id),
  endpointId: str(row.endpoint_id),
  club: str(row.club),
  eventId: num(row.event_id),
  payload: str(row.payload),
  attempts: num(row.attempts),
  nextAttemptAt: num(row.next_attempt_at),
  leaseUntil: nullableNum(row.lease_until),
  deliveredAt: nullableNum(row.delivered_at),
  givenUpAt: nullableNum(row.given_up_at),
  lastStatus: nullableNum(row.last_status),
  lastError: nullableStr(row.last_error),
  createdAt: num(row.created_at),
})
