import { StorageConflict } from '../errors.ts'
import { createOb3Builder, type CredentialClaims } from '../credentials/build-ob3.ts'
import { hashedEmailIdentity } from '../credentials/recipient-identity.ts'
import { shareUrl, statusListUrl } from '../credentials/urls.ts'
import { clubDid, clubKeyOwner } from '../issuers/did.ts'
import { allocateStatusIndex } from '../status-lists/allocate-index.ts'
import { composeCredentialEmail } from '../notifications/compose.ts'
import type { TemplateView } from '../achievements/present.ts'
import type { Club } from '../clubs/club.ts'
import type { IssuerContext } from '../context.ts'
import type { CredentialRecord, Issuance } from '../issuances/issuance.ts'
import type { SigningJob, UnitOfWork } from '../ports/storage.ts'

/** How long a worker holds claimed jobs; a crashed worker's jobs are taken up again after it. */
export const SIGNING_LEASE_MS = 60_000

interface ClaimedJob {
  job: SigningJob & { statusListId: number; statusListIndex: number }
  issuance: Issuance
  snapshot: TemplateView
  listUrl: string
}

interface SignedCredential {
  claimed: ClaimedJob
  record: CredentialRecord
}

/**
 * One round of the signing queue: claims up to `limit` jobs, signs their credentials outside any unit of
 * work, and stores them. Each credential is all-or-nothing (credential, `issuance.credential_issued`
 * event, issued count, notification and job removal together), and the storage refuses a second
 * credential for one issuance, so a job run twice after a crash yields one credential. Returns the
 * number of jobs it finished.
 */
export async function signPendingCredentials(ctx: IssuerContext, limit = 1000): Promise<number> {
  const claimed = await ctx.storage.transaction((tx) => claimJobs(ctx, tx, limit))
  if (claimed.length === 0) return 0

  const signed: SignedCredential[] = []
  for (const group of groupBy(claimed, (item) => `${item.job.club} ${item.issuance.snapshotId}`)) {
    try {
      signed.push(...(await signGroup(ctx, group)))
    } catch (error) {
      await releaseJobs(ctx, group, error)
    }
  }
  await ctx.storage.transaction((tx) => storeCredentials(ctx, tx, signed))
  return claimed.length
}

async function claimJobs(ctx: IssuerContext, tx: UnitOfWork, limit: number): Promise<ClaimedJob[]> {
  const now = ctx.clock.now()
  const jobs = await tx.signingJobs.claim(now, SIGNING_LEASE_MS, limit)
  const snapshots = new Map<number, TemplateView>()
  const firstList = new Map<string, number | undefined>()
  const claimed: ClaimedJob[] = []
  for (const job of jobs) {
    const issuance = await tx.issuances.findById(job.club, job.issuanceId)
    if (!issuance) {
      await tx.signingJobs.complete(job.issuanceId)
      continue
    }
    if (job.statusListId === null || job.statusListIndex === null) {
      const slot = await allocateStatusIndex(ctx, tx, job.club)
      await tx.signingJobs.reserveStatusSlot(job.issuanceId, slot.listId, slot.index)
      job.statusListId = slot.listId
      job.statusListIndex = slot.index
    }
    let snapshot = snapshots.get(issuance.snapshotId)
    if (!snapshot) {
      snapshot = (await tx.snapshots.findById(issuance.snapshotId))!.view
      snapshots.set(issuance.snapshotId, snapshot)
    }
    if (!firstList.has(job.club)) firstList.set(job.club, (await tx.statusLists.listByClub(job.club))[0]?.id)
    const listUrl = statusListUrl(ctx.config, job.club, { id: job.statusListId, first: firstList.get(job.club) === job.statusListId })
    claimed.push({ job: job as ClaimedJob['job'], issuance, snapshot, listUrl })
  }
  return claimed
}

/** Builds and signs the credentials of one club and one template snapshot. */
async function signGroup(ctx: IssuerContext, group: ClaimedJob[]): Promise<SignedCredential[]> {
  const club = (await ctx.storage.clubs.findByDomain(group[0]!.job.club)) as Club
  const did = clubDid(ctx.config, club.domain)
  const key = await ctx.keys.activeKey(clubKeyOwner(club.domain))
  const build = createOb3Builder(ctx.config, club, did, group[0]!.snapshot)
  // JWT times are whole seconds, and validFrom/validUntil must convert into nbf/exp exactly.
  const issuedAt = Math.floor(ctx.clock.now() / 1000) * 1000
  const records: CredentialRecord[] = []
  const payloads: string[] = []
  // Hash all recipients at once: WebCrypto digests run off-thread, so awaiting them one by one idles.
  const identities = await Promise.all(group.map(({ issuance }) => hashedEmailIdentity(issuance.recipient.email, ctx.random.bytes(16))))
  for (const [i, claimed] of group.entries()) {
    const { issuance, job } = claimed
    const credentialId = ctx.random.uuid()
    const validUntil = issuance.expiresAt === null ? null : Math.ceil(issuance.expiresAt / 1000) * 1000
    const claims: CredentialClaims = build({
      credentialId,
      issuedAt,
      validUntil,
      identity: identities[i]!,
      evidences: issuance.evidences,
      status: { listUrl: claimed.listUrl, index: job.statusListIndex },
    })
    payloads.push(JSON.stringify(claims))
    records.push({
      id: credentialId,
      issuanceId: issuance.id,
      club: club.domain,
      jwt: '',
      issuedAt,
      validUntil,
      statusListId: job.statusListId,
      statusListIndex: job.statusListIndex,
    })
  }
  const header = { alg: 'ES256', typ: 'JWT', kid: `${did}#${key.kid}` }
  const jwts = await ctx.signer.signMany(key, header, payloads)
  return group.map((claimed, i) => ({ claimed, record: { ...records[i]!, jwt: jwts[i]! } }))
}

async function storeCredentials(ctx: IssuerContext, tx: UnitOfWork, signed: SignedCredential[]): Promise<void> {
  const now = ctx.clock.now()
  const issuedPerTemplate = new Map<number, number>()
  for (const { claimed, record } of signed) {
    const { issuance } = claimed
    try {
      await tx.credentials.insert(record)
    } catch (error) {
      // Another worker stored this issuance's credential first: the job is done, ours is discarded.
      if (!(error instanceof StorageConflict)) throw error
      await tx.signingJobs.complete(issuance.id)
      continue
    }
    await tx.events.append({
      club: issuance.club,
      type: 'issuance.credential_issued',
      subject: { type: 'issuance', id: String(issuance.id) },
      occurredAt: now,
    })
    issuedPerTemplate.set(issuance.achievementId, (issuedPerTemplate.get(issuance.achievementId) ?? 0) + 1)
    if (issuance.mode === 'email') {
      const message = composeCredentialEmail(claimed.snapshot, issuance, shareUrl(ctx.config, issuance.club, record.id))
      await tx.outbox.enqueue({ club: issuance.club, issuanceId: issuance.id, ...message, nextAttemptAt: now, createdAt: now })
    }
    await tx.signingJobs.complete(issuance.id)
  }
  for (const [templateId, count] of issuedPerTemplate) await tx.achievements.incrementIssuedCount(templateId, count)
}

/** Puts the jobs of a failed group back, to be retried with exponential back-off (1 s doubling, at most 5 min). */
async function releaseJobs(ctx: IssuerContext, group: ClaimedJob[], error: unknown): Promise<void> {
  const message = error instanceof Error ? error.message : String(error)
  const now = ctx.clock.now()
  await ctx.storage.transaction(async (tx) => {
    for (const { job } of group) {
      await tx.signingJobs.release(job.issuanceId, message, now + Math.min(300_000, 1000 * 2 ** Math.min(job.attempts, 9)))
    }
  })
}

function groupBy<T>(items: T[], keyOf: (item: T) => string): T[][] {
  const groups = new Map<string, T[]>()
  for (const item of items) {
    const key = keyOf(item)
    const group = groups.get(key)
    if (group) group.push(item)
    else groups.set(key, [item])
  }
  return [...groups.values()]
}
