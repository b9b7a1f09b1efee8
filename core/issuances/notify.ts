import * as v from 'valibot'
import type { IssuerContext } from '../context.ts'
import { parseInput } from '../validation/parse-input.ts'
import { ProblemError } from '../errors.ts'
import { credentialMessage } from '../notifications/credential-mail.ts'
import { readIssuance, requireIssuance } from './read.ts'
import type { IssuanceDetail } from './present.ts'

/** At most this many resends of one issuance within `RESEND_WINDOW_MS` (docs/decisions/0045-resend-and-bulk-revoke.md). */
export const RESEND_LIMIT = 3
export const RESEND_WINDOW_MS = 24 * 60 * 60 * 1000

/** The body of a resend: none, or an empty object (a member is 422 `unknown-field`). */
export const notifyRequestSchema = v.strictObject({}, 'unknown-field')

/**
 * Mails the recipient again (docs/api.md §4.7a): the mail `mode: "email"` sends, with the share link and
 * the wallet links, to the address on the issuance. Before the credential exists the request is kept
 * and the worker mails it once the credential does (`mailRequestedResends`). A revoked issuance is 409
 * `issuance-revoked`; a fourth request within 24 hours is 429 `rate-limited`, with the seconds until
 * the oldest of the three leaves the window.
 *
 * The limit holds across nodes: the requests are counted and the new one stored in one unit of the
 * club, and units of one club never interleave (core/ports/storage.ts, UnitOptions.club).
 */
export async function notifyIssuance(ctx: IssuerContext, club: string, id: number, input?: unknown): Promise<IssuanceDetail> {
  if (input !== undefined) parseInput(notifyRequestSchema, input)
  const now = ctx.clock.now()
  return ctx.storage.transaction(
    async (tx) => {
      const issuance = await requireIssuance(tx, club, id)
      if (issuance.revokedAt !== null) throw new ProblemError('issuance-revoked', { detail: `Issuance ${id} is revoked; nothing is mailed.` })
      const recent = await tx.resends.listSince(club, id, now - RESEND_WINDOW_MS)
      if (recent.length >= RESEND_LIMIT) {
        const freesAt = recent[recent.length - RESEND_LIMIT]!.requestedAt + RESEND_WINDOW_MS
        throw new ProblemError('rate-limited', {
          detail: `Issuance ${id} was mailed again ${RESEND_LIMIT} times within 24 hours.`,
          extra: { retryAfter: Math.max(1, Math.ceil((freesAt - now) / 1000)) },
        })
      }
      const credential = await tx.credentials.findByIssuance(id)
      if (credential) {
        const snapshot = (await tx.snapshots.findById(issuance.snapshotId))!.view
        await tx.outbox.enqueueMany([credentialMessage(ctx, snapshot, issuance, credential.id, now)])
      }
      // A pending issuance of `mode: "email"` gets its first mail once signed: that mail answers the request too.
      const answered = credential !== null || issuance.mode === 'email'
      await tx.resends.insert({ club, issuanceId: id, requestedAt: now, mailedAt: answered ? now : null })
      return readIssuance(ctx, club, id, tx)
    },
    { club },
  )
}

/**
 * The worker's part of a resend asked for before the credential existed: each such request whose
 * credential now exists is mailed once (the storage marks it mailed for one caller only, also across
 * nodes), unless the issuance was revoked meanwhile. Returns how many it put in the outbox.
 */
export async function mailRequestedResends(ctx: IssuerContext, limit = 50): Promise<number> {
  const requests = await ctx.storage.resends.listMailable(limit)
  let mailed = 0
  for (const request of requests) {
    const now = ctx.clock.now()
    const queued = await ctx.storage.transaction(
      async (tx) => {
        if (!(await tx.resends.markMailed(request.id, now))) return false
        const issuance = await tx.issuances.findById(request.club, request.issuanceId)
        const credential = await tx.credentials.findByIssuance(request.issuanceId)
        if (!issuance || issuance.revokedAt !== null || !credential) return false
        const snapshot = (await tx.snapshots.findById(issuance.snapshotId))!.view
        await tx.outbox.enqueueMany([credentialMessage(ctx, snapshot, issuance, credential.id, now)])
        return true
      },
      { club: request.club },
    )
    if (queued) mailed++
  }
  return mailed
}
