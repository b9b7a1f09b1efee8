import { attemptDelivery, recordOutcomes, type DeliveryOutcome } from './send.ts'
import type { IssuerContext } from '../context.ts'

export interface WebhookSender {
  start(): void
  stop(): Promise<void>
  /** Sends until no delivery is due now and none is in flight: for tests, scripts and the bench. */
  drain(): Promise<number>
}

/**
 * Sends due deliveries beside the signing loop, never inside it: an attempt may take `timeoutMs`, and
 * signing must not wait for a receiver.
 *
 * Attempts run concurrently, up to `capacity`; the claim limits each endpoint to
 * `concurrencyPerEndpoint` of them and each club to `concurrencyPerClub`, and gives free slots to the
 * club with the fewest in flight (`pickFairly`): a club's slow receivers cannot hold every slot, and when
 * several clubs' do, another club's delivery takes a slot as soon as one frees, within one attempt's
 * timeout. The storage work is
 * one writer of rounds: each round is one unit of work that stores every outcome that ended since the
 * last round and claims deliveries for the slots they freed. On SQLite a unit is a synced commit, so a
 * burst of answers costs a few commits, not two each. When a unit fails, its outcomes are lost with it
 * and their deliveries, still leased, are sent again after the lease, which outlasts an attempt: at
 * least once, as promised, also when a sender dies.
 */
export function createWebhookSender(
  ctx: IssuerContext,
  { capacity = 64, pollMs = 1000, onError = (e: unknown) => console.error('clubcred: webhook round failed:', e) } = {},
): WebhookSender {
  const leaseMs = 2 * ctx.config.webhooks.timeoutMs
  /** Attempts sent whose outcome has not ended yet. */
  let sending = 0
  /** Outcomes ended and not stored yet. */
  let ended: DeliveryOutcome[] = []
  let wake: (() => void) | null = null
  let stopping = false
  let running: Promise<void> | null = null

  /** Waits for an attempt to end, `stop()`, or `ms`. */
  const idle = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => wake?.(), ms)
      wake = () => {
        clearTimeout(timer)
        wake = null
        resolve()
      }
    })

  function send(delivery: Parameters<typeof attemptDelivery>[2]): void {
    sending++
    attemptDelivery(ctx, ctx.webhookTransport!, delivery)
      .then((outcome) => void (outcome && ended.push(outcome)))
      .catch(onError)
      .finally(() => {
        sending--
        wake?.()
      })
  }

  /** Stores the ended outcomes and, unless `claim` is false, claims for the free slots; returns how many it claimed. */
  async function round(claim: boolean): Promise<number> {
    const outcomes = ended
    ended = []
    const free = claim && ctx.webhookTransport ? capacity - sending : 0
    if (outcomes.length === 0 && free <= 0) return 0
    const now = ctx.clock.now()
    const { concurrencyPerEndpoint: perEndpoint, concurrencyPerClub: perClub } = ctx.config.webhooks
    const { claimed, recorded } = await ctx.storage.transaction(async (tx) => ({
      recorded: outcomes.length > 0 ? await recordOutcomes(tx, outcomes) : [],
      claimed: free > 0 ? await tx.webhookDeliveries.claimDue(now, leaseMs, free, { perEndpoint, perClub }) : [],
    }))
    for (const outcome of recorded) ctx.metrics.webhookDelivery(outcome)
    for (const delivery of claimed) send(delivery)
    return claimed.length
  }

  async function guardedRound(claim: boolean): Promise<number> {
    try {
      return await round(claim)
    } catch (error) {
      onError(error)
      return 0
    }
  }

  async function loop(): Promise<void> {
    while (!stopping) {
      await guardedRound(true)
      if (ended.length === 0 && !stopping) await idle(pollMs)
    }
    // Stopping: claim nothing more, let the attempts in flight end, and store their outcomes.
    while (sending > 0) await idle(pollMs)
    await guardedRound(false)
  }

  return {
    start() {
      if (running || !ctx.webhookTransport) return
      stopping = false
      running = loop().finally(() => (running = null))
    },
    async stop() {
      stopping = true
      wake?.()
      await running
    },
    async drain() {
      let sent = 0
      for (;;) {
        const claimed = await round(true)
        sent += claimed
        if (claimed === 0 && sending === 0 && ended.length === 0) return sent
        if (ended.length === 0 && sending > 0) await idle(pollMs)
      }
    },
  }
}
