import type { Issuance } from '../issuances/issuance.ts'
import type { CredentialRecord } from '../credentials/credential-record.ts'
import type { UnitOfWork } from '../ports/storage.ts'
import { firstAwardedAt } from '../reissues/versions.ts'
import { groupBy } from '../util/group-by.ts'

/**
 * What a job signs besides its issuance (docs/decisions/0046-reissue.md): `previous`, the credential the
 * issuance holds, when the job signs a new version of it (reissued with the same recipient), and
 * `awardedAt`, the `awardedDate` to engrave, for a version or for the first credential of a re-route.
 */
export interface JobLineage {
  previous: CredentialRecord | null
  awardedAt: number | null
}

const FIRST_ISSUE: JobLineage = { previous: null, awardedAt: null }

/** The lineage of each of a club's jobs, by issuance id: two reads for the round, a few more per version. */
export async function lineagesOf(tx: UnitOfWork, club: string, issuanceIds: number[]): Promise<Map<number, JobLineage>> {
  const lineages = new Map<number, JobLineage>()
  if (issuanceIds.length === 0) return lineages
  const credentials = await tx.credentials.findByIssuances(issuanceIds)
  const reroutes = await tx.reissues.listByIssuances(club, issuanceIds)
  for (const credential of credentials) {
    lineages.set(credential.issuanceId, { previous: credential, awardedAt: await firstAwardedAt(tx, credential) })
  }
  for (const record of reroutes) {
    if (record.previousIssuanceId === null || lineages.has(record.issuanceId) || !issuanceIds.includes(record.issuanceId)) continue
    lineages.set(record.issuanceId, { previous: null, awardedAt: record.awardedAt })
  }
  return lineages
}

export const lineageOf = (lineages: Map<number, JobLineage>, issuanceId: number): JobLineage => lineages.get(issuanceId) ?? FIRST_ISSUE

/** What a reissue amends, as a comparable text: equal texts, nothing amended in between. */
const engraved = (issuance: Issuance): string =>
  JSON.stringify([issuance.recipient, issuance.evidences, issuance.expiresAt, issuance.snapshotId, issuance.mode])

/**
 * Queues the issuances signed from values a reissue has amended since the job was claimed, so that the
 * reissue gets its version: called in the unit that removes their jobs, after removing them. Every order
 * of that unit and a reissue's is covered: a reissue committed before this read is seen here; one that
 * commits after it found the job still there only if it queued while this unit held the job's row,
 * which its `queueSigning` waits for and then inserts anew.
 */
export async function requeueAmended(tx: UnitOfWork, signed: Issuance[]): Promise<void> {
  for (const group of groupBy(signed, (issuance) => issuance.club)) {
    const club = group[0]!.club
    const now = new Map(
      (
        await tx.issuances.findByIds(
          club,
          group.map((issuance) => issuance.id),
        )
      ).map((issuance) => [issuance.id, issuance]),
    )
    for (const issuance of group) {
      const current = now.get(issuance.id)
      if (current && current.revokedAt === null && engraved(current) !== engraved(issuance)) await tx.reissues.queueSigning(issuance.id, club)
    }
  }
}
