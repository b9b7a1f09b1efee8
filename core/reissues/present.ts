import * as v from 'valibot'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import { isoSeconds } from '../credentials/build-ob3.ts'
import type { Issuance } from '../issuances/issuance.ts'
import type { CredentialRecord } from '../credentials/credential-record.ts'
import type { ReissueStore } from './reissue-store.ts'

/** One version of the issuance's credential on its detail (docs/api.md §4.17). */
export const credentialVersionSchema = v.object({
  /** The version's `validFrom`: the newest version has the latest. */
  validFrom: v.string(),
  issuedAt: v.string(),
  /** The SHA-256 of the version's JWT (its compact form's bytes), in hex: which JWT a holder has. */
  jwtSha256: v.string(),
})

/**
 * What reissues add to the issuance detail (docs/api.md §4.17), kept in a file of its own: the
 * credential's versions, newest first (`[]` while pending), and the issuances a re-route links.
 */
export const reissueDetailEntries = {
  versions: v.array(credentialVersionSchema),
  /** The issuance this one was re-routed to, or `null`. */
  replacedBy: v.nullable(v.number()),
  /** The issuance this one was re-routed from, or `null`. */
  replaces: v.nullable(v.number()),
}
export type ReissueDetailFields = { [K in keyof typeof reissueDetailEntries]: v.InferOutput<(typeof reissueDetailEntries)[K]> }

const versionOf = (credential: CredentialRecord) => ({
  validFrom: isoSeconds(credential.issuedAt),
  issuedAt: new Date(credential.issuedAt).toISOString(),
  jwtSha256: bytesToHex(sha256(new TextEncoder().encode(credential.jwt))),
})

/** The reissue members of an issuance's detail. */
export async function reissueDetailFields(
  stores: { reissues: ReissueStore },
  issuance: Issuance,
  credential: CredentialRecord | null,
): Promise<ReissueDetailFields> {
  const earlier = credential ? await stores.reissues.listEarlierVersions(credential.id) : []
  const records = await stores.reissues.listByIssuances(issuance.club, [issuance.id])
  return {
    versions: credential ? [credential, ...earlier].map(versionOf) : [],
    replacedBy: records.find((record) => record.previousIssuanceId === issuance.id)?.issuanceId ?? null,
    replaces: records.find((record) => record.issuanceId === issuance.id && record.previousIssuanceId !== null)?.previousIssuanceId ?? null,
  }
}
