import type { Issuance, NewIssuance } from '../../core/issuances/issuance.ts'
import { StorageConflict } from '../../core/errors.ts'
import type { IssuanceSearch, IssuanceStore, SnapshotStore } from '../../core/ports/storage.ts'
import type { IssuanceStatus } from '../../core/issuances/present.ts'
import { validUntilOf } from '../../core/credentials/valid-until.ts'
import { compareNameKeys, nameKey } from '../../core/issuances/name-key.ts'
import { type Journal, put } from './journal.ts'
import { copy } from './rows.ts'
import type { State } from './state.ts'
import { sameRecipientEmail } from '../../core/issuances/recipient-email.ts'

/** An issuance's status at `now` by the rule of `IssuanceStore.search` (core/ports/storage.ts); `null`: none of the four (unsigned, not queued). */
function statusOf(state: State, issuance: Issuance, now: number): IssuanceStatus | null {
  if (issuance.revokedAt !== null) return 'revoked'
  if (!state.credentialByIssuance.has(issuance.id)) return state.signingJobs.has(issuance.id) ? 'pending' : null
  const validUntil = validUntilOf(issuance.expiresAt)
  return validUntil !== null && validUntil <= now ? 'expired' : 'valid'
}

/** Whether the issuance is the recipient sought. */
function matches(issuance: Issuance, recipient: NonNullable<IssuanceSearch['recipient']>): boolean {
  if (recipient.by === 'email') return sameRecipientEmail(issuance.recipient.email, recipient.value)
  if (recipient.by === 'externalUserId') return issuance.recipient.externalUserId === recipient.value
  return nameKey(issuance.recipient.name).startsWith(nameKey(recipient.value))
}

export function createIssuanceStore(state: State, journal: Journal): IssuanceStore {
  const insert = (issuance: NewIssuance): Issuance => {
    const stored: Issuance = { ...copy(issuance), sequence: ++state.sequences.issuance }
    put(journal, state.issuances, stored.id, stored)
    return copy(stored)
  }
  return {
    async insert(issuance) {
      // The id is the caller's (random); a taken one is a conflict, as the SQLite primary key makes it.
      if (state.issuances.has(issuance.id)) throw new StorageConflict(`issuance ${issuance.id} exists`)
      return insert(issuance)
    },
    async countByStatus(club, now) {
      const counts = { total: 0, pending: 0, revoked: 0, expired: 0 }
      for (const issuance of state.issuances.values()) {
        if (issuance.club !== club) continue
        counts.total++
        const status = statusOf(state, issuance, now)
        if (status === 'revoked' || status === 'pending' || status === 'expired') counts[status]++
      }
      return counts
    },
    async search(club, { limit, afterSequence, achievementId, status, now, recipient, claimed = null, expiresBefore = null }) {
      const found = [...state.issuances.values()].filter(
        (issuance) =>
          issuance.club === club &&
          (claimed === null || state.claims.has(issuance.id) === claimed) &&
          (expiresBefore === null || (statusOf(state, issuance, now) === 'valid' && (validUntilOf(issuance.expiresAt) ?? Infinity) <= expiresBefore)) &&
          (achievementId === null || issuance.achievementId === achievementId) &&
          (recipient === null || matches(issuance, recipient)) &&
          (status === null || statusOf(state, issuance, now) === status),
      )
      const byName = recipient?.by === 'name'
      const order = (a: Issuance, b: Issuance) =>
        (byName ? compareNameKeys(nameKey(a.recipient.name), nameKey(b.recipient.name)) : 0) || b.sequence - a.sequence
      found.sort(order)
      let from = 0
      if (afterSequence !== null) {
        // By name, the position is the name's key too: that of the issuance the cursor names.
        const after = byName
          ? [...state.issuances.values()].find((issuance) => issuance.sequence === afterSequence && issuance.club === club)
          : ({ sequence: afterSequence } as Issuance)
        from = after ? found.findIndex((issuance) => order(issuance, after) > 0) : -1
        if (from < 0) return []
      }
      return found.slice(from, from + limit).map(copy)
    },
    async insertMany(issuances) {
      return issuances.map((issuance) => (state.issuances.has(issuance.id) ? null : insert(issuance)))
    },
    async findById(club, id) {
      const issuance = state.issuances.get(id)
      return issuance && issuance.club === club ? copy(issuance) : null
    },
    async findByIdAcrossClubs(id) {
      const issuance = state.issuances.get(id)
      return issuance ? copy(issuance) : null
    },
    async findByIds(club, ids) {
      return ids
        .map((id) => state.issuances.get(id))
        .filter((issuance) => issuance !== undefined && issuance.club === club)
        .map((issuance) => copy(issuance!))
    },
    async findHeld(club, achievementId, recipients) {
      const ofTemplate = [...state.issuances.values()].filter((issuance) => issuance.club === club && issuance.achievementId === achievementId)
      return recipients.map((recipient) =>
        ofTemplate
          .filter((issuance) =>
            recipient.externalUserId !== null
              ? issuance.recipient.externalUserId === recipient.externalUserId
              : sameRecipientEmail(issuance.recipient.email, recipient.email),
          )
          .map(copy),
      )
    },
    async list(club, { limit, beforeSequence, achievementId }) {
      return [...state.issuances.values()]
        .filter(
          (issuance) =>
            issuance.club === club &&
            (achievementId == null || issuance.achievementId === achievementId) &&
            (beforeSequence === null || issuance.sequence < beforeSequence),
        )
        .sort((a, b) => b.sequence - a.sequence)
        .slice(0, limit)
        .map(copy)
    },
    async revoke(club, id, revokedAt, reason) {
      const issuance = state.issuances.get(id)
      if (!issuance || issuance.club !== club || issuance.revokedAt !== null) return false
      put(journal, state.issuances, id, { ...issuance, revokedAt, revocationReason: reason })
      return true
    },
  }
}

export function createSnapshotStore(state: State, journal: Journal): SnapshotStore {
  return {
    async insert(snapshot) {
      const id = ++state.sequences.snapshot
      put(journal, state.snapshots, id, { ...copy(snapshot), id })
      return id
    },
    async findById(id) {
      const snapshot = state.snapshots.get(id)
      return snapshot ? copy(snapshot) : null
    },
  }
}
