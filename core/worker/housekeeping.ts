import type { IssuerContext } from '../context.ts'
import { CSV_FILE_LIFETIME_MS } from '../csv-uploads/csv-upload.ts'

/** How often the worker purges what has ended: rows that wait for it cost nothing but space. */
const PURGE_MS = 60_000

/**
 * The worker's housekeeping: share page views written, and once a minute expired idempotency keys,
 * ended windows of failed client authentication, ended console sessions and CSV files previewed a day
 * ago and never confirmed purged.
 */
export interface Housekeeping {
  run(): Promise<void>
}

export function createHousekeeping(ctx: IssuerContext): Housekeeping {
  let lastPurge = 0
  return {
    async run() {
      await ctx.shareViews.flush()
      const now = ctx.clock.now()
      if (now - lastPurge <= PURGE_MS) return
      lastPurge = now
      await ctx.storage.transaction(
        async (tx) => {
          await tx.idempotency.purgeExpired(now)
          await tx.clientAuthFailures.purgeEnded(now)
          // A session ends after its idle or absolute limit (core/admins/sessions.ts); `+ 1` because the purge's bounds are strict.
          const { sessionIdleSeconds, sessionAbsoluteSeconds } = ctx.config.adminConsole
          // A storage without the console's stores (core/ports/storage.ts ConsoleStores) has none of these to purge.
          await tx.adminSessions?.purgeEnded(now - sessionIdleSeconds * 1000 + 1, now - sessionAbsoluteSeconds * 1000 + 1)
          await tx.csvUploads?.purgeFiles(now - CSV_FILE_LIFETIME_MS)
        },
        { concurrent: true },
      )
    },
  }
}
