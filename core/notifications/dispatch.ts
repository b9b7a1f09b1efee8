import type { IssuerContext } from '../context.ts'
import { appendEvent } from '../events/append.ts'
import { NotificationRefused } from '../ports/notifier.ts'
import type { OutboxMessage } from './outbox-message.ts'

export const OUTBOX_MAX_ATTEMPTS = 8
const OUTBOX_LEASE_MS = 120_000
/** The retry time of a message given up: never due again (`claimDue` compares times, nothing else). */
const NEVER = Number.MAX_SAFE_INTEGER

/**
 * Sends due outbox messages through the notifier, retrying failures with exponential back-off (30 s
 * doubling, at most 8 attempts). Mail never blocks issuing: it is only ever sent from here, after the
 * credential exists. Without a notifier, messages stay in the outbox. Returns how many were sent.
 *
 * Each outcome is told in the club's feed and to webhooks (docs/api.md §6), in the unit that records it:
 * `issuance.notified` when the server accepted the message, `issuance.notification_failed` when it
 * refused it for good (`NotificationRefused`) or the last attempt failed. A message is recorded sent
 * once, so its event is appended once.
 */
export async function dispatchOutbox(ctx: IssuerContext, limit = 50): Promise<number> {
  const notifier = ctx.notifier
  if (!notifier) return 0
  const now = ctx.clock.now()
  // Concurrent: the claim alone is the unit's write, and no two claims return one message.
  const messages = await ctx.storage.transaction((tx) => tx.outbox.claimDue(now, OUTBOX_LEASE_MS, limit, OUTBOX_MAX_ATTEMPTS), { concurrent: true })
  let sent = 0
  for (const message of messages) {
    try {
      await notifier.send({ to: message.to, subject: message.subject, text: message.text, html: message.html })
    } catch (error) {
      ctx.metrics.mailDelivery('failed')
      await recordFailure(ctx, message, error)
      continue
    }
    // Concurrent: writes to the row this worker's claim returned, and an event appended.
    await ctx.storage.transaction(
      async (tx) => {
        const at = ctx.clock.now()
        await tx.outbox.markSent(message.id, at)
        await appendEvent(tx, { club: message.club, type: 'issuance.notified', subject: { type: 'issuance', id: String(message.issuanceId) }, occurredAt: at })
      },
      { concurrent: true },
    )
    ctx.metrics.mailDelivery('sent')
    sent++
  }
  return sent
}

async function recordFailure(ctx: IssuerContext, message: OutboxMessage, error: unknown): Promise<void> {
  const givenUp = error instanceof NotificationRefused || message.attempts >= OUTBOX_MAX_ATTEMPTS
  const at = ctx.clock.now()
  const retryAt = givenUp ? NEVER : at + 30_000 * 2 ** (message.attempts - 1)
  await ctx.storage.transaction(
    async (tx) => {
      await tx.outbox.markFailed(message.id, error instanceof Error ? error.message : String(error), retryAt)
      if (givenUp) {
        await appendEvent(tx, {
          club: message.club,
          type: 'issuance.notification_failed',
          subject: { type: 'issuance', id: String(message.issuanceId) },
          occurredAt: at,
        })
      }
    },
    { concurrent: true },
  )
}
