import type { CredentialRecord } from '../../core/credentials/credential-record.ts'
import type { CredentialStore } from '../../core/ports/storage.ts'
import { type Journal, put, remove } from './journal.ts'
import { copy } from './rows.ts'
import type { State } from './state.ts'

export function createCredentialStore(state: State, journal: Journal): CredentialStore {
  return {
    async insertMany(credentials) {
      const stored: number[] = []
      for (const credential of credentials) {
        if (state.credentials.has(credential.id) || state.credentialByIssuance.has(credential.issuanceId)) continue
        put(journal, state.credentials, credential.id, copy(credential))
        put(journal, state.credentialByIssuance, credential.issuanceId, credential.id)
        stored.push(credential.issuanceId)
      }
      return stored
    },
    async findById(id) {
      const credential = state.credentials.get(id)
      return credential ? copy(credential) : null
    },
    async findByIssuance(issuanceId) {
      const id = state.credentialByIssuance.get(issuanceId)
      return id === undefined ? null : copy(state.credentials.get(id)!)
    },
    async findByIssuances(issuanceIds) {
      return [...new Set(issuanceIds)].flatMap((issuanceId) => {
        const id = state.credentialByIssuance.get(issuanceId)
        return id === undefined ? [] : [copy(state.credentials.get(id)!)]
      })
    },
    async listRevokedIndexes(statusListId) {
      return [...state.credentials.values()]
        .filter((credential) => credential.statusListId === statusListId && state.issuances.get(credential.issuanceId)?.revokedAt != null)
        .map((credential) => credential.statusListIndex)
    },
    async claimUnproven(now, leaseMs, limit) {
      // Insertion order is the order the rounds stored them: oldest first. A lease holds up to and
      // including its `leaseUntil`, as a signing job's does.
      const claimed: { credential: CredentialRecord; attempts: number }[] = []
      for (const credential of state.credentials.values()) {
        if (claimed.length === limit) break
        if (credential.proof.state !== 'pending') continue
        const lease = state.proofLeases.get(credential.id)
        if (lease && lease.leaseUntil >= now) continue
        const attempts = (lease?.attempts ?? 0) + 1
        put(journal, state.proofLeases, credential.id, { leaseUntil: now + leaseMs, attempts, error: lease?.error ?? null })
        claimed.push({ credential: copy(credential), attempts })
      }
      return claimed
    },
    async releaseUnproven(ids, error, retryAt) {
      for (const id of ids) {
        if (state.credentials.get(id)?.proof.state !== 'pending') continue
        const lease = state.proofLeases.get(id)
        put(journal, state.proofLeases, id, { leaseUntil: retryAt - 1, attempts: lease?.attempts ?? 0, error })
      }
    },
    async storeProofs(proofs) {
      let stored = 0
      for (const { id, proof } of proofs) {
        const credential = state.credentials.get(id)
        if (credential?.proof.state !== 'pending') continue
        put(journal, state.credentials, id, { ...credential, proof })
        remove(journal, state.proofLeases, id)
        stored++
      }
      return stored
    },
  }
}
