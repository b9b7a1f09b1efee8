import { achievementUrl, issuerUrl } from './urls.ts'
import type { TemplateView } from '../achievements/present.ts'
import type { IssuerConfig } from '../config.ts'
import type { Club } from '../clubs/club.ts'
import type { Evidence } from '../issuances/issuance.ts'
import type { IdentityObject } from './recipient-identity.ts'

export const OB3_CONTEXT = [
  'https://www.w3.org/ns/credentials/v2',
  'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json',
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
}

/** The JWT claims of an OB 3.0 VC-JWT (DESIGN §6): `iss`, `jti`, `nbf`, `exp?` and the credential as `vc`. */
export interface CredentialClaims {
  iss: string
  jti: string
  nbf: number
  exp?: number
  vc: Record<string, unknown>
}

/**
 * Builds the credentials of one template snapshot: the parts every credential of a batch shares
 * (issuer, achievement) are built once; `build` adds what is the recipient's own.
 */
export function createOb3Builder(config: IssuerConfig, club: Club, did: string, snapshot: TemplateView) {
  const issuer = { id: did, type: ['Profile'], name: club.name, url: issuerUrl(config, club.domain) }
  // interface-spec §2.11: the achievement carries achievementType, criteria.narrative, tag, alignment and
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
    'x-partnerOrganizations': snapshot.coIssuers,
  }

  return function build(input: CredentialSubjectInput): CredentialClaims {
    const id = `urn:uuid:${input.credentialId}`
    const vc: Record<string, unknown> = {
      '@context': OB3_CONTEXT,
      id,
      type: ['VerifiableCredential', 'OpenBadgeCredential'],
      issuer,
      validFrom: isoSeconds(input.issuedAt),
      ...(input.validUntil !== null ? { validUntil: isoSeconds(input.validUntil) } : {}),
      name: snapshot.name,
      credentialSubject: {
        type: ['AchievementSubject'],
        identifier: [input.identity],
        achievement,
      },
      credentialSchema: [OB3_SCHEMA],
      credentialStatus: {
        id: `${input.status.listUrl}#${input.status.index}`,
        type: 'BitstringStatusListEntry',
        statusPurpose: 'revocation',
        statusListIndex: String(input.status.index),
        statusListCredential: input.status.listUrl,
      },
    }
    const evidence = input.evidences.filter((item) => item.isPublic).map(toEvidence)
    if (evidence.length > 0) vc.evidence = evidence
    const claims: CredentialClaims = { iss: did, jti: id, nbf: input.issuedAt / 1000, vc }
    if (input.validUntil !== null) claims.exp = input.validUntil / 1000
    return claims
  }
}

/** Only public evidence is engraved (DESIGN §5). */
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
