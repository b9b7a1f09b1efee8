import type { ShareViewStore } from '../../core/ports/storage.ts'
import { type Journal, put } from './journal.ts'
import type { State } from './state.ts'

export function createShareViewStore(state: State, journal: Journal): ShareViewStore {
  return {
    async add(counts) {
      for (const { credentialId, views, lastViewedAt } of counts) {
        const stored = state.shareViews.get(credentialId)
        put(journal, state.shareViews, credentialId, {
          views: (stored?.views ?? 0) + views,
          lastViewedAt: Math.max(stored?.lastViewedAt ?? 0, lastViewedAt),
        })
      }
    },
    async find(credentialId) {
      const stored = state.shareViews.get(credentialId)
      return stored ? { ...stored } : null
    },
  }
}
