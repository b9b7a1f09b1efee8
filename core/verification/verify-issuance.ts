import { compactVerify, decodeJwt, decodeProtectedHeader, type JWTPayload } from 'jose'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import * as v from 'valibot'
import { CREDENTIAL_STATUSES, credentialStatus } from '../credentials/status.ts'
import { jwtClaimsSchema } from '../issuances/read.ts'
import { clubDid, clubKeyOwner } from '../did-documents/did.ts'
import type { IssuerContext } from '../context.ts'
import type { CredentialRecord } from '../credentials/credential-record.ts'
import type { VerificationVerdict } from '../ports/metrics.ts'

/** The public verdict of docs/api.md §2.11; `statusCode` 404 (with `status` and `payload` null) when there is no credential. */
export const verdictSchema = v.object({
  statusCode: v.number(),
  isValid: v.boolean(),
  status: v.nullable(v.picklist(CREDENTIAL_STATUSES)),
  issuerVerified: v.boolean(),
  payload: v.nullable(jwtClaimsSchema),
})
export type Verdict = v.InferOutput<typeof verdictSchema>

const NOT_FOUND: Verdict = { statusCode: 404, isValid: false, status: null, issuerVerified: false, payload: null }

/**
 * Verifies an issuance's credential for anyone (docs/api.md §4.11). `isValid` is a real verification of the
 * stored JWT: ES256 signature by a key of the club's DID document named by the header's `kid`, and
 * claims consistent with the credential (iss, jti, nbf, exp against vc). `status` is computed now
 * (revoked, else expired, else valid). `issuerVerified` is the club's attestation, independent of both.
 * Only what the credential itself holds is returned: no recipient name or e-mail.
 */
export function createIssuanceVerifier(ctx: IssuerContext, { cacheSize = 10_000 } = {}) {
  // A JWT never changes, so its signature verdict can be kept; keyed by the credential and the JWT's
  // digest, so that a JWT altered in storage is verified afresh, and so that a genuine JWT copied into
  // another credential's row is checked against that credential (its claims name the wrong one).
  // Status is never cached.
  const signatureVerdicts = new Map<string, boolean>()

  async function signatureHolds(credential: CredentialRecord): Promise<boolean> {
    const digest = bytesToHex(sha256(new TextEncoder().encode(credential.jwt)))
    const key = `${credential.club} ${credential.id} ${digest}`
    let verdict = signatureVerdicts.get(key)
    if (verdict === undefined) {
      verdict = await verifyJwt(ctx, credential)
      if (signatureVerdicts.size >= cacheSize) signatureVerdicts.delete(signatureVerdicts.keys().next().value as string)
      signatureVerdicts.set(key, verdict)
    }
    return verdict
  }

  return async function verify(issuanceId: number): Promise<Verdict> {
    const verdict = await verifyOnce(issuanceId)
    ctx.metrics.verification(verdictLabel(verdict))
    return verdict
  }

  async function verifyOnce(issuanceId: number): Promise<Verdict> {
    const issuance = Number.isSafeInteger(issuanceId) && issuanceId > 0 ? await ctx.storage.issuances.findByIdAcrossClubs(issuanceId) : null
    const credential = issuance ? await ctx.storage.credentials.findByIssuance(issuance.id) : null
    const club = issuance ? await ctx.storage.clubs.findByDomain(issuance.club) : null
    if (!issuance || !credential || !club) return NOT_FOUND
    const payload = decodedOrNull(credential.jwt)
    return {
      statusCode: 200,
      isValid: payload !== null && (await signatureHolds(credential)),
      status: credentialStatus({ revokedAt: issuance.revokedAt, validUntil: credential.validUntil }, ctx.clock.now()),
      issuerVerified: club.issuerVerified,
      payload,
    }
  }
}

async function verifyJwt(ctx: IssuerContext, credential: CredentialRecord): Promise<boolean> {
  try {
    const did = clubDid(ctx.config, credential.club)
    const header = decodeProtectedHeader(credential.jwt)
    if (header.alg !== 'ES256' || typeof header.kid !== 'string' || !header.kid.startsWith(`${did}#`)) return false
    const key = await ctx.keys.verificationKey(clubKeyOwner(credential.club), header.kid.slice(did.length + 1))
    if (!key) return false
    const { payload } = await compactVerify(credential.jwt, key, { algorithms: ['ES256'] })
    return claimsConsistent(JSON.parse(new TextDecoder().decode(payload)), did, credential)
  } catch {
    return false
  }
}

/** The JWT's claims, or `null` when it does not decode (a verdict, not an error). */
function decodedOrNull(jwt: string): JWTPayload | null {
  try {
    return decodeJwt(jwt)
  } catch {
    return null
  }
}

/** The members of a credential JWT's `vc` that `claimsConsistent` compares; none is trusted to be there. */
interface SignedVc {
  id?: unknown
  issuer?: unknown
  validFrom?: unknown
  validUntil?: unknown
}

/** docs/decisions/0014-signed-credential.md: the JWT claims mirror the credential, and the credential is the one stored for the issuance. */
function claimsConsistent(claims: JWTPayload, did: string, credential: CredentialRecord): boolean {
  const vc = claims.vc as SignedVc | undefined
  if (!vc || typeof vc !== 'object') return false
  const id = `urn:uuid:${credential.id}`
  const issuer = typeof vc.issuer === 'object' && vc.issuer !== null ? ((vc.issuer as { id?: unknown }).id ?? vc.issuer) : vc.issuer
  const validUntil = vc.validUntil === undefined ? undefined : Date.parse(String(vc.validUntil)) / 1000
  return (
    claims.iss === did &&
    issuer === did &&
    claims.jti === id &&
    vc.id === id &&
    claims.nbf === Date.parse(String(vc.validFrom)) / 1000 &&
    claims.exp === validUntil
  )
}

/** The verdict in one word, for the metrics: the status when the signature holds. */
function verdictLabel(verdict: Verdict): VerificationVerdict {
  if (verdict.statusCode === 404) return 'not-found'
  if (!verdict.isValid || verdict.status === null) return 'invalid'
  return verdict.status
}
