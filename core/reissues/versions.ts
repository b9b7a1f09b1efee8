import type { Stores } from '../ports/storage.ts'
import type { CredentialRecord } from '../credentials/credential-record.ts'

/**
 * When the credential was first awarded (ms): its first version's `validFrom`, or, for a credential a
 * re-route made, the `awardedAt` the re-route recorded (OB 3.0 `awardedDate`, docs/decisions/0046-reissue.md).
 */
export async function firstAwardedAt(stores: Stores, credential: CredentialRecord): Promise<number> {
  const earlier = await stores.reissues.listEarlierVersions(credential.id)
  const first = earlier.at(-1) ?? credential
  const reroute = (await stores.reissues.listByIssuances(credential.club, [credential.issuanceId])).find(
    (record) => record.issuanceId === credential.issuanceId && record.awardedAt !== null,
  )
  return reroute?.awardedAt ?? first.issuedAt
}
