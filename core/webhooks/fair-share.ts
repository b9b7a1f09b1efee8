import { earliestDue } from './schedule.ts'

/** How many deliveries may be in flight (leased) at once, over every sender on the storage. */
export interface ClaimCaps {
  /** Per endpoint (`webhooks.concurrencyPerEndpoint`). */
  perEndpoint: number
  /** Per club, over all its endpoints (`webhooks.concurrencyPerClub`). */
  perClub: number
}

/** An endpoint as a claim sees it: its club, and its deliveries leased now. */
export interface EndpointLoad {
  endpointId: string
  club: string
  leased: number
}

/** A delivery a claim may lease: due, not leased, its endpoint enabled. */
export interface DueDelivery {
  id: number
  endpointId: string
  nextAttemptAt: number
}

/**
 * Which due deliveries a claim leases, in the order it leases them (`WebhookDeliveryStore.claimDue`).
 *
 * Each delivery gets a place in its endpoint's line (the endpoint's leased count, then one more per
 * delivery of it before, earliest due first) and a place in its club's line (the club's leased count,
 * then one more per delivery of the club before, in order of endpoint place). A delivery whose place is
 * at or past a cap is not taken. The rest go lowest club place first, then lowest endpoint place, then
 * earliest due: a free slot goes to the club with the fewest deliveries in flight, within it to the
 * endpoint with the fewest. So a club whose receivers never answer holds at most `perClub` slots, and
 * when the slots are all held (several such clubs at once) another club's due delivery takes one of the
 * first to free, which is within one attempt's timeout, since every attempt ends by then.
 *
 * `endpoints` MUST list every endpoint of a `due` delivery, and every endpoint with deliveries leased
 * (also disabled ones: they count for their club). Returns delivery ids.
 */
export function pickFairly(endpoints: EndpointLoad[], due: DueDelivery[], caps: ClaimCaps, limit: number): number[] {
  const clubOf = new Map<string, string>()
  const clubLeased = new Map<string, number>()
  const endpointLeased = new Map<string, number>()
  for (const { endpointId, club, leased } of endpoints) {
    clubOf.set(endpointId, club)
    endpointLeased.set(endpointId, leased)
    clubLeased.set(club, (clubLeased.get(club) ?? 0) + leased)
  }
  const placed: { delivery: DueDelivery; endpointPlace: number; clubPlace: number }[] = []
  for (const delivery of [...due].sort(earliestDue)) {
    const endpointPlace = endpointLeased.get(delivery.endpointId) ?? 0
    if (endpointPlace >= caps.perEndpoint) continue
    endpointLeased.set(delivery.endpointId, endpointPlace + 1)
    placed.push({ delivery, endpointPlace, clubPlace: 0 })
  }
  placed.sort((a, b) => a.endpointPlace - b.endpointPlace || earliestDue(a.delivery, b.delivery))
  const taken: typeof placed = []
  for (const entry of placed) {
    const club = clubOf.get(entry.delivery.endpointId)!
    const clubPlace = clubLeased.get(club) ?? 0
    if (clubPlace >= caps.perClub) continue
    clubLeased.set(club, clubPlace + 1)
    taken.push({ ...entry, clubPlace })
  }
  return taken
    .sort((a, b) => a.clubPlace - b.clubPlace || a.endpointPlace - b.endpointPlace || earliestDue(a.delivery, b.delivery))
    .slice(0, limit)
    .map((entry) => entry.delivery.id)
}
