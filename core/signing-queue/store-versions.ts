import type { UnitOfWork } from '../ports/storage.ts'
import type { CredentialRecord } from '../credentials/credential-record.ts'
import type { JobLineage } from './reissued-jobs.ts'
import { retryDelayMs } from './retry-delay.ts'

/** A signed version as sign-pending.ts hands it over (its `SignedCredential`, named here without importing it back). */
interface SignedVersion {
  claimed: { lineage: JobLineage; job: { attempts: number } }
  record: CredentialRecord
}

/**
 * Stores signed new versions of credentials (docs/decisions/0046-reissue.md), each over the version it
 * was built on: a job run twice (its lease ran out) finds that version gone and stores nothing, so one
 * reissue makes one version. A version whose credential the proof round holds is put back (`later`),
 * its job released to be signed again once the proof of the version before it is stored.
 */
export async function storeVersions(tx: UnitOfWork, versions: SignedVersion[], now: number): Promise<{ stored: number[]; later: Set<number> }> {
  const stored: number[] = []
  const later = new Set<number>()
  for (const { claimed, record } of versions) {
    const outcome = await tx.reissues.supersede(record, claimed.lineage.previous!.jwt, now)
    if (outcome === 'superseded') stored.push(record.issuanceId)
    if (outcome === 'proving') {
      later.add(record.issuanceId)
      await tx.signingJobs.release(record.issuanceId, 'the proof round holds the version before this one', now + retryDelayMs(claimed.job.attempts))
    }
  }
  return { stored, later }
}
