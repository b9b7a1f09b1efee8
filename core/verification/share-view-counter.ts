import type { StoragePort } from '../ports/storage.ts'
import type { Clock } from '../ports/clock.ts'
import { isPersonViewing } from './link-preview-agents.ts'

/**
 * Share page views counted in memory and written in batches (docs/decisions/0047-claims-and-expiry.md
 * § Share views): a view is never a write on the page's own path. The counts of a node are written at
 * most `flushMs` after their first view (a timer), by every worker round, and when the issuer closes;
 * a node that dies loses at most those seconds of counts. Writes add to the stored counts, so nodes
 * flushing at once each add their own.
 */
export interface ShareViewCounter {
  /** Counts a view of the credential's share page, unless `userAgent` is a link preview or a robot. */
  count(credentialId: string, userAgent: string | null): void
  /** Writes the counts held so far; returns how many credentials' counts it wrote. */
  flush(): Promise<number>
}

interface Held {
  views: number
  lastViewedAt: number
}

export function createShareViewCounter(
  { storage, clock }: { storage: StoragePort; clock: Clock },
  { flushMs = 5000, maxHeld = 10_000 }: { flushMs?: number; maxHeld?: number } = {},
): ShareViewCounter {
  let held = new Map<string, Held>()
  let timer: ReturnType<typeof setTimeout> | null = null
  let flushing: Promise<number> = Promise.resolve(0)

  async function write(batch: Map<string, Held>): Promise<number> {
    if (batch.size === 0) return 0
    const counts = [...batch].map(([credentialId, { views, lastViewedAt }]) => ({ credentialId, views, lastViewedAt }))
    try {
      // Each row one adding upsert: safe beside any other unit, so it takes no lock.
      await storage.transaction((tx) => tx.shareViews.add(counts), { concurrent: true })
      return counts.length
    } catch (error) {
      // Kept for the next flush rather than lost: the storage may be back by then.
      for (const [credentialId, counted] of batch) merge(credentialId, counted)
      throw error
    }
  }

  function merge(credentialId: string, counted: Held): void {
    const current = held.get(credentialId)
    held.set(credentialId, {
      views: (current?.views ?? 0) + counted.views,
      lastViewedAt: Math.max(current?.lastViewedAt ?? 0, counted.lastViewedAt),
    })
  }

  function flush(): Promise<number> {
    if (timer) clearTimeout(timer)
    timer = null
    const batch = held
    held = new Map()
    // One flush after another, so that a failed batch merged back is not overtaken.
    flushing = flushing.catch(() => 0).then(() => write(batch))
    return flushing
  }

  return {
    count(credentialId, userAgent) {
      if (!isPersonViewing(userAgent)) return
      merge(credentialId, { views: 1, lastViewedAt: clock.now() })
      if (held.size >= maxHeld) {
        flush().catch(() => {})
      } else if (!timer) {
        timer = setTimeout(() => void flush().catch(() => {}), flushMs)
        // A pending flush does not keep a process alive that has nothing else to do.
        ;(timer as { unref?: () => void }).unref?.()
      }
    },
    flush,
  }
}
