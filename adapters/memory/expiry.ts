import type { ExpiryStore, SweepPosition } from '../../core/ports/storage.ts'
import { validUntilOf } from '../../core/credentials/valid-until.ts'
import { type Journal, put } from './journal.ts'
import { copy } from './rows.ts'
import type { State } from './state.ts'

/** Whether position `a` comes after `b`: a later time, or the same time and a higher sequence. */
const after = (a: SweepPosition, b: SweepPosition) => a.at > b.at || (a.at === b.at && a.sequence > b.sequence)

export function createExpiryStore(state: State, journal: Journal): ExpiryStore {
  return {
    async position(sweep) {
      const position = state.sweeps.get(sweep)
      return position ? copy(position) : null
    },
    async advance(sweep, position) {
      const stored = state.sweeps.get(sweep)
      if (!stored || after(position, stored)) put(journal, state.sweeps, sweep, copy(position))
    },
    async listIssuedAfter(afterSequence, limit) {
      return [...state.issuances.values()]
        .filter((issuance) => issuance.sequence > afterSequence)
        .sort((a, b) => a.sequence - b.sequence)
        .slice(0, limit)
        .map(copy)
    },
    async listValidUntil(from, until, limit) {
      return [...state.issuances.values()]
        .flatMap((issuance) => {
          const at = validUntilOf(issuance.expiresAt)
          return issuance.revokedAt === null && at !== null && at <= until && after({ at, sequence: issuance.sequence }, from) ? [{ at, issuance }] : []
        })
        .sort((a, b) => a.at - b.at || a.issuance.sequence - b.issuance.sequence)
        .slice(0, limit)
        .map(({ issuance }) => copy(issuance))
    },
    async recordNotice(issuanceId, notice, at) {
      const notices = state.notices.get(issuanceId) ?? new Map<string, number>()
      if (notices.has(notice)) return false
      put(journal, state.notices, issuanceId, new Map([...notices, [notice, at]]))
      return true
    },
    async listNotices(issuanceId) {
      return [...(state.notices.get(issuanceId) ?? new Map<string, number>())].map(([notice, at]) => ({ notice, at })).sort((a, b) => a.at - b.at)
    },
    async listTemplatesWithReminders() {
      return [...state.achievements.values()]
        .filter((template) => template.expiryReminders.length > 0)
        .sort((a, b) => a.id - b.id)
        .map(({ id, club, expiryReminders }) => ({ id, club, expiryReminders: [...expiryReminders] }))
    },
  }
}
