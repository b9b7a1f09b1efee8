import type { ReissueStore } from '../../core/ports/storage.ts'
import type { CredentialVersion } from '../../core/reissues/reissue-record.ts'
import { type Journal, put, remove } from './journal.ts'
import { copy } from './rows.ts'
import { queuedSigningJob } from './signing-jobs.ts'
import type { State } from './state.ts'

export function createReissueStore(state: State, journal: Journal): ReissueStore {
  const earlierVersions = (credentialId: string): CredentialVersion[] =>
    [...state.credentialVersions.values()].filter((version) => version.id === credentialId).sort((a, b) => b.version - a.version)
  return {
    async amend(club, issuanceId, amendment) {
      const issuance = state.issuances.get(issuanceId)
      if (!issuance || issuance.club !== club || issuance.revokedAt !== null) return false
      put(journal, state.issuances, issuanceId, { ...issuance, ...copy(amendment) })
      return true
    },
    async queueSigning(issuanceId, club) {
      if (state.signingJobs.has(issuanceId)) return
      put(journal, state.signingJobs, issuanceId, queuedSigningJob(issuanceId, club))
    },
    async insert(record) {
      put(journal, state.reissues, ++state.sequences.reissue, copy(record))
    },
    async listByIssuances(club, issuanceIds) {
      const ids = new Set(issuanceIds)
      return [...state.reissues.entries()]
        .sort(([a], [b]) => a - b)
        .map(([, record]) => record)
        .filter((record) => record.club === club && (ids.has(record.issuanceId) || (record.previousIssuanceId !== null && ids.has(record.previousIssuanceId))))
        .map(copy)
    },
    async supersede(next, previousJwt, now) {
      const current = state.credentials.get(next.id)
      if (!current || current.jwt !== previousJwt || current.issuanceId !== next.issuanceId) return 'outdated'
      const lease = state.proofLeases.get(current.id)
      if (current.proof.state === 'pending' && lease && lease.leaseUntil >= now) return 'proving'
      const version = (earlierVersions(current.id)[0]?.version ?? 0) + 1
      put(journal, state.credentialVersions, `${current.id} ${version}`, { ...copy(current), version })
      put(journal, state.credentials, current.id, {
        ...current,
        jwt: next.jwt,
        issuedAt: next.issuedAt,
        validUntil: next.validUntil,
        proof: { state: 'pending' },
      })
      remove(journal, state.proofLeases, current.id)
      return 'superseded'
    },
    async listEarlierVersions(credentialId) {
      return earlierVersions(credentialId).map(copy)
    },
  }
}
