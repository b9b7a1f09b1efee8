import { achievementUrl, issuerUrl } from './urls.ts'
import type { TemplateView } from '../achievements/present.ts'
import type { IssuerConfig } from '../config.ts'
import type { Club } from '../clubs/club.ts'
import type { Evidence } from '../issuances/issuance.ts'
import type { IdentityObject } from './recipient-identity.ts'
import { CLUBCRED_CONTEXT } from './clubcred-context.ts'

/**
 * The `@context` of every credential: VC 2.0 and OB 3.0.3 first (OB 3.0 fixes those two), then the OB
 * extensions context that defines `1EdTechJsonSchemaValidator2019` (the `credentialSchema` type; the
 * OB 3.0 examples that carry `credentialSchema` name it too), then clubcred's own terms, embedded. With
 * these every term expands to an absolute IRI, as the 1EdTech validator's JSON-LD check demands.
 */
export const OB3_CONTEXT = [
  'https://www.w3.org/ns/credentials/v2',
  'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json',
  'https://purl.imsglobal.org/spec/ob/v3p0/extensions.json',
  CLUBCRED_CONTEXT,
] as const

export const OB3_SCHEMA = {
  id: 'https://purl.imsglobal.org/spec/ob/v3p0/schema/json/ob_v3p0_achievementcredential_schema.json',
  type: '1EdTechJsonSchemaValidator2019',
} as const

/** What one credential adds to its template's achievement. */
export interface CredentialSubjectInput {
  credentialId: string
  /** Whole seconds, in ms. */
  issuedAt: number
  /** Whole seconds, in ms, or `null`. */
  validUntil: number | null
  identity: IdentityObject
  evidences: Evidence[]
  status: { listUrl: string; index: number }
  /**
   * OB 3.0 `awardedDate` (ms): when a reissued credential was first awarded (docs/decisions/0046-reissue.md);
   * `null` or absent for a first credential, whose `validFrom` is that date.
   */
  awardedAt?: number | null
}

/**
 * A co-issuer as the credential engraves it: as read (docs/api.md §2.3), except that a partner without a
 * url, whose `id` reads `null`, has no `id` at all. JSON-LD expansion refuses an `@id` that is no string ("invalid
 * @id value", JSON-LD 1.1 Processing Algorithms § Expansion), so such a credential could never have its Data Integrity proof; without `id` the
 * co-issuer is a blank node, as the clubcred context and OB 3.0 allow for it (it is no Profile).
 * docs/decisions/0051-one-csv-path-and-no-null-id.md § A co-issuer without a url
 */
function engravedCoIssuer<T extends { id: string | null }>(coIssuer: T): T | Omit<T, 'id'> {
  if (coIssuer.id !== null) return coIssuer
  const { id: _id, ...rest } = coIssuer
  return rest
}

/**
 * Builds the JWT claims of the credentials of one template snapshot (docs/decisions/0014-signed-credential.md):
 * `{ iss, jti, nbf, exp?, vc }` with `vc` a complete OB 3.0 `OpenBadgeCredential`. Signing is
 * the hot path of issuing, so the parts every credential of a batch shares (context, issuer, achievement,
 * schema) are serialized once, and `build` returns the claims as JSON text, ready to sign, splicing in
 * what is the recipient's own. Every value goes through `JSON.stringify`; only the fixed member names are
 * literal.
 */
export function createOb3Builder(config: IssuerConfig, club: Club, did: string, snapshot: TemplateView) {
  const issuer = { id: did, type: ['Profile'], name: club.name, url: issuerUrl(config, club.domain) }
  // docs/api.md §2.11: the achievement carries achievementType, criteria.narrative, tag, alignment and
  // the engraved description "exactly as at issuance"; coIssuers land in x-partnerOrganizations.
  const achievement = {
    id: achievementUrl(config, club.domain, snapshot.id),
    type: ['Achievement'],
    name: snapshot.name,
    description: snapshot.imprintDescription,
    criteria: { narrative: snapshot.criteria.narrative },
    achievementType: snapshot.achievementType,
    tag: snapshot.tag,
    alignment: snapshot.alignment,
    ...(snapshot.image ? { image: { id: snapshot.image, type: 'Image', caption: snapshot.name } } : {}),
    'x-partnerOrganizations': snapshot.coIssuers.map(engravedCoIssuer),
  }
  const iss = JSON.stringify(did)
  const shared = {
    context: JSON.stringify(OB3_CONTEXT),
    issuer: JSON.stringify(issuer),
    name: JSON.stringify(snapshot.name),
    achievement: JSON.stringify(achievement),
    schema: JSON.stringify([OB3_SCHEMA]),
  }

  return function build(input: CredentialSubjectInput): string {
    const id = JSON.stringify(`urn:uuid:${input.credentialId}`)
    const expiry = input.validUntil === null ? null : { exp: input.validUntil / 1000, validUntil: JSON.stringify(isoSeconds(input.validUntil)) }
    const status = JSON.stringify({
      id: `${input.status.listUrl}#${input.status.index}`,
      type: 'BitstringStatusListEntry',
      statusPurpose: 'revocation',
      statusListIndex: String(input.status.index),
      statusListCredential: input.status.listUrl,
    })
    const evidence = input.evidences.filter((item) => item.isPublic).map(toEvidence)
    return (
      `{"iss":${iss},"jti":${id},"nbf":${input.issuedAt / 1000}${expiry ? `,"exp":${expiry.exp}` : ''},` +
      `"vc":{"@context":${shared.context},"id":${id},"type":["VerifiableCredential","OpenBadgeCredential"],` +
      `"issuer":${shared.issuer},"validFrom":${JSON.stringify(isoSeconds(input.issuedAt))}` +
      `${expiry ? `,"validUntil":${expiry.validUntil}` : ''}` +
      `${input.awardedAt != null ? `,"awardedDate":${JSON.stringify(isoSeconds(input.awardedAt))}` : ''},"name":${shared.name},` +
      `"credentialSubject":{"type":["AchievementSubject"],"identifier":[${JSON.stringify(input.identity)}],` +
      `"achievement":${shared.achievement}},"credentialSchema":${shared.schema},"credentialStatus":${status}` +
      `${evidence.length > 0 ? `,"evidence":${JSON.stringify(evidence)}` : ''}}}`
    )
  }
}

/** Only public evidence is engraved (docs/decisions/0013-issuing.md). */
function toEvidence(evidence: Evidence): Record<string, unknown> {
  return {
    ...(evidence.url ? { id: evidence.url } : {}),
    type: ['Evidence'],
    ...(evidence.name ? { name: evidence.name } : {}),
    ...(evidence.description ? { description: evidence.description } : {}),
  }
}

/** ISO 8601 without milliseconds: `validFrom` and `nbf` convert into each other exactly. */
export function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')
}
