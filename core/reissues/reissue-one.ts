import { appendEvents } from '../events/append.ts'
import { ProblemError, validationFailed } from '../errors.ts'
import { presentTemplate } from '../achievements/present.ts'
import { requireTemplate } from '../achievements/require.ts'
import { badgeImageOf } from '../achievements/design-refs.ts'
import { requireClub } from '../clubs/require.ts'
import { withFreshIssuanceId } from '../issuances/issuance-id.ts'
import { requireIssuance } from '../issuances/read.ts'
import type { IssuerContext } from '../context.ts'
import type { UnitOfWork } from '../ports/storage.ts'
import type { ClubEvent } from '../events/event.ts'
import type { Issuance } from '../issuances/issuance.ts'
import type { IssuanceAmendment } from './reissue-record.ts'
import type { ReissueRequest } from './schema.ts'
import { firstAwardedAt } from './versions.ts'
import { sameRecipientEmail } from '../issuances/recipient-email.ts'

/** What a reissue did: the issuance that now holds the credential, and the one it left where it moved. */
export interface Reissued {
  issuanceId: number
  previousIssuanceId: number | null
}

/**
 * A reissue in a unit of work (docs/decisions/0046-reissue.md). The same recipient (neither `email` nor
 * `externalUserId` changed) gets a new version of the same credential: the issuance is amended and a
 * signing job queued, which signs the version (or, while the issuance is pending, its first credential)
 * from the amended issuance. Another recipient gets a new issuance, and the old one is revoked with
 * reason `reissued`. Everything, the `issuance.reissued` event included, is written in the caller's unit,
 * so an accepted reissue is never lost and never half done; how the worker makes one version of it
 * only, crash or not, is core/signing-queue/sign-pending.ts.
 */
export async function reissueIn(ctx: IssuerContext, tx: UnitOfWork, club: string, id: number, request: ReissueRequest, now: number): Promise<Reissued> {
  const issuance = await requireIssuance(tx, club, id)
  if (issuance.revokedAt !== null) throw new ProblemError('issuance-revoked', { detail: `The issuance ${id} is revoked; issue it anew instead.` })
  const amendment = await amendmentOf(ctx, tx, issuance, request, now)
  const moved = movesRecipient(issuance, request)
  const events: Omit<ClubEvent, 'id'>[] = []
  let result: Reissued
  if (!moved) {
    await tx.reissues.amend(club, id, amendment)
    await tx.reissues.queueSigning(id, club)
    await tx.reissues.insert({ club, issuanceId: id, previousIssuanceId: null, reason: request.reason ?? null, awardedAt: null, reissuedAt: now })
    result = { issuanceId: id, previousIssuanceId: null }
  } else {
    const credential = await tx.credentials.findByIssuance(id)
    const awardedAt = credential ? await firstAwardedAt(tx, credential) : null
    const created = await withFreshIssuanceId(ctx.random, (newId) =>
      tx.issuances.insert({ ...amendment, id: newId, club, achievementId: issuance.achievementId, createdAt: now, revokedAt: null, revocationReason: null }),
    )
    await tx.issuances.revoke(club, id, now, 'reissued')
    // A pending issuance moved elsewhere needs no credential of its own: its job goes with it.
    if (!credential) await tx.signingJobs.complete(id)
    await tx.reissues.queueSigning(created.id, club)
    await tx.reissues.insert({ club, issuanceId: created.id, previousIssuanceId: id, reason: request.reason ?? null, awardedAt, reissuedAt: now })
    events.push({ club, type: 'issuance.revoked', subject: { type: 'issuance', id: String(id) }, occurredAt: now })
    result = { issuanceId: created.id, previousIssuanceId: id }
  }
  events.push({
    club,
    type: 'issuance.reissued',
    subject: { type: 'issuance', id: String(result.issuanceId) },
    occurredAt: now,
    ...(result.previousIssuanceId !== null ? { previousIssuanceId: String(result.previousIssuanceId) } : {}),
  })
  await appendEvents(tx, events)
  return result
}

/** A changed `email` (by `sameRecipientEmail`, as the already-issued check compares) or `externalUserId` is another recipient. */
function movesRecipient(issuance: Issuance, request: ReissueRequest): boolean {
  const email = request.email !== undefined && !sameRecipientEmail(request.email, issuance.recipient.email)
  const externalUserId = request.externalUserId !== undefined && request.externalUserId !== issuance.recipient.externalUserId
  return email || externalUserId
}

async function amendmentOf(ctx: IssuerContext, tx: UnitOfWork, issuance: Issuance, request: ReissueRequest, now: number): Promise<IssuanceAmendment> {
  const expiresAt = request.expiresAt === undefined ? issuance.expiresAt : request.expiresAt
  if (request.expiresAt !== undefined && request.expiresAt !== null && request.expiresAt <= now) {
    throw validationFailed([{ message: 'expires-at-in-past', path: 'expiresAt' }])
  }
  return {
    recipient: {
      externalUserId: request.externalUserId ?? issuance.recipient.externalUserId,
      name: request.name?.trim() ?? issuance.recipient.name,
      email: request.email ?? issuance.recipient.email,
    },
    evidences:
      request.evidences?.map((evidence) => ({
        url: evidence.url ?? null,
        name: evidence.name ?? null,
        description: evidence.description ?? null,
        isPublic: evidence.isPublic,
      })) ?? issuance.evidences,
    expiresAt,
    snapshotId: request.template === 'current' ? await currentSnapshot(ctx, tx, issuance, now) : issuance.snapshotId,
    mode: request.mode,
  }
}

/** The template as it is now, stored as a snapshot for this issuance. */
async function currentSnapshot(ctx: IssuerContext, tx: UnitOfWork, issuance: Issuance, now: number): Promise<number> {
  const club = await requireClub(tx, issuance.club)
  const template = await requireTemplate(tx, issuance.club, issuance.achievementId)
  return tx.snapshots.insert({
    club: issuance.club,
    achievementId: template.id,
    view: presentTemplate(ctx.config, club, template, await badgeImageOf(tx, template)),
    createdAt: now,
  })
}
