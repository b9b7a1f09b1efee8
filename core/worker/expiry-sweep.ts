import { sweepExpiry } from '../issuances/expiry-sweep.ts'
import type { IssuerContext } from '../context.ts'

/**
 * How often a running worker sweeps for expiry reminders and expired credentials: a notice may come
 * this much after its time, and the sweeps' few indexed reads cost nothing at this pace.
 */
const EXPIRY_SWEEP_MS = 10_000

/** The worker's expiry sweeps (core/issuances/expiry-sweep.ts): reminders queued and `issuance.expired` emitted. */
export interface ExpirySweeps {
  /** Sweeps when `force`, or when the last sweep is `EXPIRY_SWEEP_MS` old. Returns the notices it made. */
  run(now: number, force: boolean): Promise<number>
}

export function createExpirySweeps(ctx: IssuerContext): ExpirySweeps {
  let lastSweep = -Infinity
  return {
    async run(now, force) {
      if (!force && now - lastSweep < EXPIRY_SWEEP_MS) return 0
      lastSweep = now
      return sweepExpiry(ctx)
    },
  }
}
