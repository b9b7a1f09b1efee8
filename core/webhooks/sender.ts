import { attemptDelivery } from './send.ts'
import type { IssuerContext } from '../context.ts'

export interface WebhookSender {
  start(): void
  stop(): Promise<void>
  /** Sends until no delivery is due now and none is in flight: for tests, scripts and the bench. */
  drain(): Promise<number>
}

/**
 * Sends due deliveries beside the signing loop, never inside it: an attempt may take `timeoutMs`, and
 * signing must not wait for a receiver. Up to `capacity` attempts run at once, each started as soon as
 * a slot frees; the claim limits each endpoint to `concurrencyPerEndpoint` of them, so one slow
 * receiver holds only its own slots. The lease outlasts an attempt, so a dead sender's deliveries are
 * claimed again (at least once) only after it could no longer be sending them.
 */
export function createWebhookSender(
  ctx: IssuerContext,
  { capacity = 64, pollMs = 1000, onError = (e: unknown) => console.error('clubcred: webhook round failed:', e) } = {},
): WebhookSender {
  const inFlight = new Set<Promise<void>>()
  const leaseMs = 2 * ctx.config.webhooks.timeoutMs
  let stopping = false
  let running: Promise<void> | null = null

  /** Claims what fits in the free slots and starts each attempt; returns how many it started. */
  async function fill(): Promise<number> {
    const transport = ctx.webhookTransport
    const free = capacity - inFlight.size
    if (!transport || free <= 0) return 0
    const claimed = await ctx.storage.transaction((tx) =>
      tx.webhookDeliveries.claimDue(ctx.clock.now(), leaseMs, free, ctx.config.webhooks.concurrencyPerEndpoint),
    )
    for (const delivery of claimed) {
      const attempt: Promise<void> = attemptDelivery(ctx, transport, delivery)
        .catch(onError)
        .finally(() => inFlight.delete(attempt))
      inFlight.add(attempt)
    }
    return claimed.length
  }

  const nextDone = (timeoutMs: number) => Promise.race([...inFlight, new Promise<void>((resolve) => setTimeout(resolve, timeoutMs))])

  async function loop(): Promise<void> {
    while (!stopping) {
      try {
        if ((await fill()) === 0) await nextDone(pollMs)
      } catch (error) {
        onError(error)
        await nextDone(pollMs)
      }
    }
    await Promise.all(inFlight)
  }

  return {
    start() {
      if (running || !ctx.webhookTransport) return
      stopping = false
      running = loop().finally(() => (running = null))
    },
    async stop() {
      stopping = true
      await running
    },
    async drain() {
      let sent = 0
      for (;;) {
        const started = await fill()
        sent += started
        if (started === 0 && inFlight.size === 0) return sent
        if (started === 0) await nextDone(pollMs)
      }
    },
  }
}
