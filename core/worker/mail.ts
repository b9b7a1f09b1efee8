import { dispatchOutbox } from '../notifications/dispatch.ts'
import { mailRequestedResends } from '../issuances/notify.ts'
import type { IssuerContext } from '../context.ts'
import { createExpirySweeps } from './expiry-sweep.ts'

/** The worker's mail: resends asked for, expiry notices, and the outbox sent. */
export interface MailRounds {
  /** One round; `sweep` sweeps for expiry now rather than at its pace. Returns the messages it handled. */
  run(options: { sweep: boolean }): Promise<number>
}

export function createMailRounds(ctx: IssuerContext): MailRounds {
  const expiry = createExpirySweeps(ctx)
  return {
    async run({ sweep }) {
      // Resends asked for before their credential existed go to the outbox first, to be sent in this round.
      const resent = await mailRequestedResends(ctx)
      // Expiry reminders and `issuance.expired` before the mail, so that a reminder goes out this round.
      const swept = await expiry.run(ctx.clock.now(), sweep)
      return resent + swept + (await dispatchOutbox(ctx))
    },
  }
}
