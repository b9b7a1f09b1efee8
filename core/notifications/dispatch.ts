import type { IssuerContext } from '../context.ts'

export const OUTBOX_MAX_ATTEMPTS = 8
const OUTBOX_LEASE_MS = 120_000

/**
 * Sends due outbox messages through the notifier, retrying failures with exponential back-off (30 s
 * doubling, at most 8 attempts). Mail never blocks issuing: it is only ever sent from here, after the
 * credential exists. Without a notifier, messages stay in the outbox. Returns how many were sent.
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
      await ctx.storage.transaction((tx) => tx.outbox.markSent(message.id, ctx.clock.now()), { concurrent: true })
      ctx.metrics.mailDelivery('sent')
      sent++
    } catch (error) {
      ctx.metrics.mailDelivery('failed')
      const retryAt = ctx.clock.now() + 30_000 * 2 ** (message.attempts - 1)
      await ctx.storage.transaction((tx) => tx.outbox.markFailed(message.id, error instanceof Error ? error.message : String(error), retryAt), {
        concurrent: true,
      })
    }
  }
  return sent
}
