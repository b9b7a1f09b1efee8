import type { ActivityStore } from '../../core/ports/storage.ts'
import { validUntilOf } from '../../core/credentials/valid-until.ts'
import type { State } from './state.ts'

export function createActivityStore(state: State): ActivityStore {
  return {
    async weekly(club, from, weekMs, weeks) {
      const counts = { issued: Array<number>(weeks).fill(0), claimed: Array<number>(weeks).fill(0), expiring: Array<number>(weeks).fill(0) }
      const add = (series: number[], at: number | null) => {
        if (at === null || at < from) return
        const week = Math.floor((at - from) / weekMs)
        if (week < weeks) series[week]!++
      }
      for (const issuance of state.issuances.values()) {
        if (issuance.club !== club) continue
        add(counts.issued, issuance.createdAt)
        if (issuance.revokedAt === null) add(counts.expiring, validUntilOf(issuance.expiresAt))
        const first = state.claims.get(issuance.id)?.[0]
        if (first) add(counts.claimed, first.at)
      }
      return counts
    },
  }
}
