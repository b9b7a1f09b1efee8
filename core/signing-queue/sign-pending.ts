import { appendEvents } from '../events/append.ts'
import { createOb3Builder } from '../credentials/build-ob3.ts'
import { hashedEmailIdentity } from '../credentials/recipient-identity.ts'
import { timeOrderedUuid } from '../credentials/credential-id.ts'
import { statusListUrl } from '../credentials/urls.ts'
import { clubDataIntegrityKeyOwner, clubDid, clubKeyOwner } from '../did-documents/did.ts'
import { allocateStatusIndexes } from '../status-lists/allocate-index.ts'
import { credentialMessage } from '../notifications/credential-mail.ts'
import type { TemplateView } from '../achievements/present.ts'
import type { IssuerContext } from '../context.ts'
import type { Issuance } from '../issuances/issuance.ts'
import type { CredentialRecord } from '../credentials/credential-record.ts'
import { allWritten } from '../util/all-written.ts'
import { groupBy } from '../util/group-by.ts'
import type { UnitOfWork } from '../ports/storage.ts'
import type { ClubEvent } from '../events/event.ts'
import type { NewOutboxMessage } from '../notifications/outbox-message.ts'
import type { SigningJob } from './signing-job.ts'
import { retryDelayMs } from './retry-delay.ts'
import { validUntilOf } from '../credentials/valid-until.ts'
import { lineageOf, lineagesOf, requeueAmended, type JobLineage } from './reissued-jobs.ts'
import { storeVersions } from './store-versions.ts'

/** A claimed job with everything needed to build its credential. */
export interface ClaimedJob {
  job: SigningJob & { statusListId: number; statusListIndex: number }
  issuance: Issuance
  snapshot: TemplateView
  listUrl: string
  /** A new version of the credential the issuance holds, or its first credential (docs/decisions/0046-reissue.md). */
  lineage: JobLineage
}

export interface SignedCredential {
  claimed: ClaimedJob
  record: CredentialRecord
}

/**
 * One round of the signing queue, step by step: claim, sign outside any unit of work, store. The worker
 * overlaps these steps across rounds; this sequential form is for `drain` and scripts. Returns the
 * number of jobs handled.
 */
export async function signPendingCredentials(ctx: IssuerContext, limit = 1000): Promise<number> {
  const claimed = await claimPending(ctx, limit)
  if (claimed.length > 0) await storeSigned(ctx, await signClaimed(ctx, claimed))
  return claimed.length
}

/**
 * Leases up to `limit` signing jobs and reserves a status-list slot for each that has none, in one unit
 * of work (the slot is kept with the job, so a retry after a crash reuses it and none is wasted).
 *
 * The unit is `concurrent` (several workers claim at once): each of its writes is safe without the
 * units' serial order. The claim leases rows no other claim can return (the store's contract), the slot
 * reservations and completions touch only those rows, `takeSlots` never hands out a position twice
 * and `statusLists.insert` only adds a list; everything else here is a read.
 */
export async function claimPending(ctx: IssuerContext, limit: number): Promise<ClaimedJob[]> {
  return ctx.storage.transaction(
    async (tx) => {
      const jobs = await tx.signingJobs.claim(ctx.clock.now(), ctx.config.signingLeaseMs, limit)
      const claimed: ClaimedJob[] = []
      for (const clubJobs of groupBy(jobs, (job) => job.club)) {
        claimed.push(...(await prepareClubJobs(ctx, tx, clubJobs[0]!.club, clubJobs)))
      }
      return claimed
    },
    { concurrent: true },
  )
}

async function prepareClubJobs(ctx: IssuerContext, tx: UnitOfWork, club: string, jobs: SigningJob[]): Promise<ClaimedJob[]> {
  const issuances = new Map(
    (
      await tx.issuances.findByIds(
        club,
        jobs.map((job) => job.issuanceId),
      )
    ).map((i) => [i.id, i]),
  )
  const lineages = await lineagesOf(tx, club, [...issuances.keys()])
  // A new version keeps its credential's slot: the status list entry is the credential's, not the version's.
  for (const job of jobs) {
    const previous = lineageOf(lineages, job.issuanceId).previous
    if (previous) Object.assign(job, { statusListId: previous.statusListId, statusListIndex: previous.statusListIndex })
  }
  const unslotted = jobs.filter((job) => job.statusListId === null || job.statusListIndex === null)
  const slots = await allocateStatusIndexes(ctx, tx, club, unslotted.length)
  for (const [i, job] of unslotted.entries()) {
    job.statusListId = slots[i]!.listId
    job.statusListIndex = slots[i]!.index
  }
  // In one go, not one write per job.
  if (unslotted.length > 0) {
    await tx.signingJobs.reserveStatusSlots(
      unslotted.map((job) => ({ issuanceId: job.issuanceId, statusListId: job.statusListId!, statusListIndex: job.statusListIndex! })),
    )
  }
  const firstListId = (await tx.statusLists.listByClub(club))[0]?.id
  const snapshots = new Map<number, TemplateView>()
  const listUrls = new Map<number, string>()
  const claimed: ClaimedJob[] = []
  for (const job of jobs as ClaimedJob['job'][]) {
    const issuance = issuances.get(job.issuanceId)
    if (!issuance) {
      await tx.signingJobs.complete(job.issuanceId)
      continue
    }
    let snapshot = snapshots.get(issuance.snapshotId)
    if (!snapshot) {
      snapshot = (await tx.snapshots.findById(issuance.snapshotId))!.view
      snapshots.set(issuance.snapshotId, snapshot)
    }
    // One address per list, not per job: a round's jobs share one or two lists.
    let listUrl = listUrls.get(job.statusListId)
    if (listUrl === undefined) {
      listUrl = statusListUrl(ctx.config, club, { id: job.statusListId, first: job.statusListId === firstListId })
      listUrls.set(job.statusListId, listUrl)
    }
    claimed.push({ job, issuance, snapshot, listUrl, lineage: lineageOf(lineages, issuance.id) })
  }
  return claimed
}

/**
 * Builds and signs the credentials of claimed jobs, one group per club and template snapshot. A group
 * that fails (a key that does not open, say) is released for a later retry; the others go on.
 */
export async function signClaimed(ctx: IssuerContext, claimed: ClaimedJob[]): Promise<SignedCredential[]> {
  const signed: SignedCredential[] = []
  for (const group of groupBy(claimed, (item) => `${item.job.club} ${item.issuance.snapshotId}`)) {
    try {
      // A monotonic timer, not ctx.clock: latency is real time even under a test's fixed clock.
      const started = performance.now()
      signed.push(...(await signGroup(ctx, group)))
      ctx.metrics.signingLatency(performance.now() - started)
    } catch (error) {
      await releaseJobs(ctx, group, error)
    }
  }
  return signed
}

async function signGroup(ctx: IssuerContext, group: ClaimedJob[]): Promise<SignedCredential[]> {
  const clubDomain = group[0]!.job.club
  const club = await ctx.storage.clubs.findByDomain(clubDomain)
  if (!club) throw new Error(`club ${clubDomain} is gone`)
  const did = clubDid(ctx.config, club.domain)
  const key = await ctx.keys.activeKey(clubKeyOwner(club.domain))
  // The Ed25519 key before the first credential its proof will name: made now, it is in the DID
  // document before any proof by it is published (docs/data-integrity.md § Keys).
  if (ctx.dataIntegritySigner) await ctx.keys.activeKey(clubDataIntegrityKeyOwner(club.domain))
  const build = createOb3Builder(ctx.config, club, did, group[0]!.snapshot)
  // JWT times are whole seconds, and validFrom/validUntil must convert into nbf/exp exactly; the ids
  // carry the same moment to the millisecond.
  const signedAt = ctx.clock.now()
  const issuedAt = Math.floor(signedAt / 1000) * 1000
  // One draw of randomness for the group: 16 bytes of salt and 16 for the id of each credential.
  const random = ctx.random.bytes(32 * group.length)
  const records: CredentialRecord[] = []
  const payloads: string[] = []
  for (const [i, { issuance, job, listUrl, lineage }] of group.entries()) {
    const credentialId = lineage.previous?.id ?? timeOrderedUuid(signedAt, random.subarray(32 * i + 16, 32 * i + 32))
    const validUntil = validUntilOf(issuance.expiresAt)
    payloads.push(
      build({
        credentialId,
        issuedAt,
        validUntil,
        identity: hashedEmailIdentity(issuance.recipient.email, random.subarray(32 * i, 32 * i + 16)),
        evidences: issuance.evidences,
        status: { listUrl, index: job.statusListIndex },
        awardedAt: lineage.awardedAt,
      }),
    )
    records.push({
      id: credentialId,
      issuanceId: issuance.id,
      club: club.domain,
      jwt: '',
      issuedAt,
      validUntil,
      statusListId: job.statusListId,
      statusListIndex: job.statusListIndex,
      // Made after the JWT, by the proof round (core/signing-queue/prove-pending.ts).
      proof: { state: 'pending' },
    })
  }
  const jwts = await ctx.signer.signMany(key, { alg: 'ES256', typ: 'JWT', kid: `${did}#${key.kid}` }, payloads)
  return group.map((claimed, i) => ({ claimed, record: { ...records[i]!, jwt: jwts[i]! } }))
}

/**
 * Stores signed credentials in one unit of work, each all-or-nothing with its `issuance.credential_issued`
 * event, issued count, notification and job removal. The storage refuses a second credential for an
 * issuance, so a job run twice (a lease that ran out) keeps the first credential and drops ours.
 *
 * The unit is `concurrent`: it checks nothing before it writes (the credential's uniqueness is the
 * storage's), its counts are increments, and its other writes are appends or the removal of its own
 * jobs; so it need not wait for a batch being accepted, nor another worker for it.
 */
export async function storeSigned(ctx: IssuerContext, signed: SignedCredential[]): Promise<void> {
  if (signed.length === 0) return
  const now = ctx.clock.now()
  const stored = await ctx.storage.transaction(
    async (tx) => {
      const issuedPerTemplate = new Map<number, number>()
      // One multi-row write per table instead of one statement per row. A credential refused
      // (a job run twice) is skipped with its event and message; every job is completed either way.
      const [fresh, versions] = [signed.filter(({ claimed }) => !claimed.lineage.previous), signed.filter(({ claimed }) => claimed.lineage.previous)]
      const storedIds = new Set(await tx.credentials.insertMany(fresh.map(({ record }) => record)))
      // A version goes in only over the version it was built on; one the proof round holds waits for a later round.
      const { stored: storedVersions, later } = await storeVersions(tx, versions, now)
      for (const id of storedVersions) storedIds.add(id)
      const events: Omit<ClubEvent, 'id'>[] = []
      const messages: NewOutboxMessage[] = []
      for (const { claimed, record } of signed) {
        const { issuance } = claimed
        if (!storedIds.has(issuance.id)) continue
        events.push({
          club: issuance.club,
          type: 'issuance.credential_issued',
          subject: { type: 'issuance', id: String(issuance.id) },
          occurredAt: now,
        })
        if (!claimed.lineage.previous) issuedPerTemplate.set(issuance.achievementId, (issuedPerTemplate.get(issuance.achievementId) ?? 0) + 1)
        if (issuance.mode === 'email') messages.push(credentialMessage(ctx, claimed.snapshot, issuance, record.id, now))
      }
      // None of these writes reads what another writes: issued together, a networked storage pipelines
      // them (one round trip for the lot instead of one each). The events last: a storage that orders
      // them by club holds the club's feed for them until the commit, which a batch being accepted for
      // the club waits on; the other writes are done by then. The counts in template order, so that two
      // workers take the templates' rows in one order.
      await allWritten([
        messages.length > 0 ? tx.outbox.enqueueMany(messages) : null,
        tx.signingJobs.completeMany(signed.flatMap(({ claimed }) => (later.has(claimed.issuance.id) ? [] : [claimed.issuance.id]))),
        ...[...issuedPerTemplate].sort(([a], [b]) => a - b).map(([templateId, count]) => tx.achievements.incrementIssuedCount(templateId, count)),
        appendEvents(tx, events),
      ])
      await requeueAmended(
        tx,
        signed.flatMap(({ claimed }) => (later.has(claimed.issuance.id) ? [] : [claimed.issuance])),
      )
      return [...issuedPerTemplate.values()].reduce((sum, count) => sum + count, 0) + storedVersions.length
    },
    { concurrent: true },
  )
  // Counted once committed: a unit that rolls back signed nothing.
  ctx.metrics.credentialsSigned(stored)
}

/** Puts the jobs of a failed group back, to be retried with exponential back-off (`retryDelayMs`). */
async function releaseJobs(ctx: IssuerContext, group: ClaimedJob[], error: unknown): Promise<void> {
  const message = error instanceof Error ? error.message : String(error)
  const now = ctx.clock.now()
  await ctx.storage.transaction(
    async (tx) => {
      for (const { job } of group) {
        await tx.signingJobs.release(job.issuanceId, message, now + retryDelayMs(job.attempts))
      }
    },
    { concurrent: true },
  )
}
