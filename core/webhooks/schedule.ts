/**
 * When a failed delivery is tried again (docs/webhooks.md): the delay after the n-th failed attempt,
 * then up to a fifth more at random so that deliveries that failed together do not return together.
 * The first retries come fast (a receiver that was restarting loses nothing): attempt 2 within 6 s of
 * attempt 1, attempt 3 within 42 s. The delays add up to about 2.8 days (3.3 days with full jitter);
 * the 14th failed attempt gives the delivery up.
 */
export const RETRY_DELAYS_MS = [
  5_000, 30_000, 120_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000, 36_000_000, 36_000_000, 36_000_000, 36_000_000,
] as const

export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1

/** Deliveries given up in a row (none delivered between) after which the endpoint is disabled. */
export const GIVE_UPS_BEFORE_DISABLE = 5

/** When to try again after failed attempt number `attempts` (1-based), or `null` to give up. */
export function nextAttemptAt(now: number, attempts: number, random: () => number): number | null {
  const delay = RETRY_DELAYS_MS[attempts - 1]
  if (delay === undefined) return null
  return now + Math.round(delay * (1 + random() / 5))
}

/** The order claims take due deliveries in (`WebhookDeliveryStore.claimDue`): earliest due first, then lowest id. */
export const earliestDue = (a: { nextAttemptAt: number; id: number }, b: { nextAttemptAt: number; id: number }) =>
  a.nextAttemptAt - b.nextAttemptAt || a.id - b.id
