import * as v from 'valibot'
import { appendEvents } from '../events/append.ts'
import { allWritten } from '../util/all-written.ts'
import { ProblemError, validationFailed } from '../errors.ts'
import { fieldErrorOf, parseInput } from '../validation/parse-input.ts'
import { presentTemplate } from '../achievements/present.ts'
import { requireTemplate } from '../achievements/require.ts'
import { badgeImageOf } from '../achievements/design-refs.ts'
import { requireClub } from '../clubs/require.ts'
import { MAX_RECIPIENTS, issueRequestSchema, recipientSchema, type RecipientInput } from './schema.ts'
import type { IssuerContext } from '../context.ts'
import { completeClaim, type IdempotencyClaim } from '../idempotency/claim.ts'
import type { HeldCheck, UnitOfWork } from '../ports/storage.ts'
import type { Issuance, IssueMode, NewIssuance } from './issuance.ts'
import { issuanceIdDraws } from './issuance-id.ts'
import { pendingIssuances } from './pending-issuances.ts'
import type { BatchItem, BatchResult } from './batch-result.ts'
import { recipientEmailKey } from './recipient-email.ts'

export type { BatchItem, BatchResult } from './batch-result.ts'

/**
 * Issues a template to a batch of recipients (docs/api.md §4.3). The whole batch is one unit of work: every
 * accepted recipient gets its issuance, its `issuance.issued` event and its signing job, or none does.
 * When `claim` is given, the result is stored under it in the same unit, so that a crash can never
 * leave a batch issued but its Idempotency-Key unanswered. The result is the one form of the batch's
 * answer: v1 shapes it at its own edge, for a replay too.
 */
export async function issueBatch(ctx: IssuerContext, clubDomain: string, input: unknown, claim: IdempotencyClaim | null = null): Promise<BatchResult> {
  const request = parseBatch(ctx, input)
  const result = await ctx.storage.transaction((tx) => issueIn(ctx, tx, clubDomain, request, claim), { club: clubDomain })
  if (result.summary.ok > 0) ctx.signingQueue.notify()
  return result
}

/** Thrown to undo a preview's unit of work, carrying its results out. */
class PreviewUndone extends Error {
  constructor(readonly results: BatchResult[]) {
    super('preview undone')
  }
}

/**
 * What `issueBatch` would answer for each of these batches issued one after the other, storing nothing
 * (the staff console's CSV preview, docs/admin-console.md § Issuing by CSV). The batches are issued in
 * one unit of work that is then undone, so every rule is the issue operation's own, the already-issued
 * check of a later batch included; a request refused as a whole throws as `issueBatch` does. The
 * issuances' ids in the results were never stored.
 */
export async function previewBatches(
  ctx: IssuerContext,
  clubDomain: string,
  inputs: unknown[],
  { pause }: { pause?: () => Promise<void> } = {},
): Promise<BatchResult[]> {
  // `pause` after each batch, parsed or judged: a file of thousands of rows lets the process's other
  // requests run in between (on SQLite those that read storage still wait for the unit to end).
  const requests: ParsedBatch[] = []
  for (const input of inputs) {
    requests.push(parseBatch(ctx, input))
    await pause?.()
  }
  try {
    await ctx.storage.transaction(
      async (tx) => {
        const results: BatchResult[] = []
        for (const request of requests) {
          results.push(await issueIn(ctx, tx, clubDomain, request, null))
          await pause?.()
        }
        throw new PreviewUndone(results)
      },
      { club: clubDomain },
    )
  } catch (error) {
    if (error instanceof PreviewUndone) return error.results
    throw error
  }
  throw new Error('A preview unit of work ended without being undone.')
}

interface ParsedBatch {
  request: v.InferOutput<typeof issueRequestSchema>
  now: number
}

/** The request's own rules, before any storage is read: `too-many-recipients`, `validation-failed`. */
function parseBatch(ctx: IssuerContext, input: unknown): ParsedBatch {
  if (Array.isArray((input as { recipients?: unknown })?.recipients) && (input as { recipients: unknown[] }).recipients.length > MAX_RECIPIENTS) {
    throw new ProblemError('too-many-recipients', { detail: `At most ${MAX_RECIPIENTS} recipients per call.` })
  }
  const request = parseInput(issueRequestSchema, input)
  const now = ctx.clock.now()
  if (request.expiresAt !== undefined && request.expiresAt <= now) {
    throw validationFailed([{ message: 'expires-at-in-past', path: 'expiresAt' }])
  }
  return { request, now }
}

/** A batch issued in a unit of work: every recipient judged, the accepted ones written. */
async function issueIn(
  ctx: IssuerContext,
  tx: UnitOfWork,
  clubDomain: string,
  { request, now }: ParsedBatch,
  claim: IdempotencyClaim | null,
): Promise<BatchResult> {
  const club = await requireClub(tx, clubDomain)
  if (!club.canIssue) throw new ProblemError('issuing-disabled', { detail: `Issuing is disabled for the club ${club.domain}.` })
  const template = await requireTemplate(tx, clubDomain, request.achievementFormId)
  let snapshotId: number | null = null
  const seen = new Set<string>()
  const pending = pendingIssuances(tx, issuanceIdDraws(ctx.random, request.recipients.length))
  const results: BatchItem[] = []
  const entries = request.recipients.map((entry) => v.safeParse(recipientSchema, entry))
  const heldBefore = await heldBeforeBatch(
    tx,
    clubDomain,
    template.id,
    entries.flatMap((parsed) => (parsed.success ? [parsed.output] : [])),
    now,
  )

  for (const [index, entry] of request.recipients.entries()) {
    const ref = refOf(entry, index)
    const parsed = entries[index]!
    if (!parsed.success) {
      results.push(failed(ref, index, parsed.issues[0]!))
      continue
    }
    const recipient = parsed.output
    const expiresAt = recipient.expiresAt ?? request.expiresAt ?? null
    if (expiresAt !== null && expiresAt <= now) {
      results.push({
        ref,
        status: 'failed',
        error: { code: 'expires-at-in-past', message: 'expiresAt is not in the future.', path: `recipients.${index}.expiresAt` },
      })
      continue
    }
    const identity = identityOf(recipient)
    if (seen.has(identity)) {
      results.push({ ref, status: 'skipped', error: { code: 'duplicate-in-request', message: 'This recipient appears earlier in the request.' } })
      continue
    }
    seen.add(identity)
    const match = heldCheckOf(recipient)
    if (pending.mayHold(match)) await pending.flush()
    const held = pending.mayHoldAny(match) ? await heldIssuance(tx, clubDomain, template.id, recipient, now) : heldBefore.get(checkOf(recipient))!
    if (held !== null) {
      results.push({
        ref,
        status: 'skipped',
        error: { code: 'already-issued', message: 'The recipient already holds this achievement.', resourceId: held },
      })
      continue
    }
    snapshotId ??= await tx.snapshots.insert({
      club: clubDomain,
      achievementId: template.id,
      view: presentTemplate(ctx.config, club, template, await badgeImageOf(tx, template)),
      createdAt: now,
    })
    const item = { ref, status: 'issued' as const, resourceId: 0, error: null }
    results.push(item)
    pending.add(newIssuance({ club: clubDomain, achievementId: template.id, snapshotId, recipient, mode: request.mode, expiresAt, now }), (id) => {
      item.resourceId = id
    })
  }
  await pending.flush()
  // Each issuance's `issuance.issued` event and signing job, written in one go each: nothing
  // in the loop reads them, and the events keep the order of the recipients.
  const ids = results.flatMap((item) => (item.status === 'issued' ? [item.resourceId] : []))
  const result: BatchResult = { results, summary: summarize(results) }
  // The events last: a storage that orders them by club holds the club's feed from them until the
  // commit, which the workers storing the club's credentials wait on.
  await allWritten([
    ids.length > 0 ? tx.signingJobs.enqueueMany(ids.map((issuanceId) => ({ issuanceId, club: clubDomain }))) : null,
    claim ? completeClaim(tx, claim, result) : null,
    appendEvents(
      tx,
      ids.map((id) => ({ club: clubDomain, type: 'issuance.issued', subject: { type: 'issuance', id: String(id) }, occurredAt: now })),
    ),
  ])
  return result
}

function newIssuance(i: {
  club: string
  achievementId: number
  snapshotId: number
  recipient: RecipientInput
  mode: IssueMode
  expiresAt: number | null
  now: number
}): Omit<NewIssuance, 'id'> {
  return {
    club: i.club,
    achievementId: i.achievementId,
    snapshotId: i.snapshotId,
    recipient: { externalUserId: i.recipient.externalUserId ?? null, name: i.recipient.name.trim(), email: i.recipient.email },
    evidences: i.recipient.evidences.map((evidence) => ({
      url: evidence.url ?? null,
      name: evidence.name ?? null,
      description: evidence.description ?? null,
      isPublic: evidence.isPublic,
    })),
    mode: i.mode,
    expiresAt: i.expiresAt,
    createdAt: i.now,
    revokedAt: null,
    revocationReason: null,
  }
}

/**
 * docs/decisions/0013-issuing.md: a recipient (by externalUserId, else e-mail) who holds an issuance of this
 * template that is neither revoked nor expired (a pending one counts) is skipped. Returns that issuance's
 * id.
 */
const activeHeld = (held: Issuance[], now: number): number | null =>
  held.find((issuance) => issuance.revokedAt === null && (issuance.expiresAt === null || issuance.expiresAt > now))?.id ?? null

const heldCheckOf = (recipient: RecipientInput): HeldCheck => ({ externalUserId: recipient.externalUserId ?? null, email: recipient.email })

async function heldIssuance(tx: UnitOfWork, club: string, achievementId: number, recipient: RecipientInput, now: number): Promise<number | null> {
  const [held] = await tx.issuances.findHeld(club, achievementId, [heldCheckOf(recipient)])
  return activeHeld(held!, now)
}

/** The recipient as the batch tells duplicates apart: its externalUserId, else its e-mail by the one rule (`recipientEmailKey`). */
const identityOf = (recipient: RecipientInput): string => recipient.externalUserId ?? `email:${recipientEmailKey(recipient.email)}`

/** What the already-issued check of a recipient asks the storage: its externalUserId, else its e-mail as given. */
const checkOf = (recipient: RecipientInput): string =>
  recipient.externalUserId !== undefined && recipient.externalUserId !== null ? `id:${recipient.externalUserId}` : `email:${recipient.email}`

/**
 * The already-issued check of each recipient (once per distinct check) before the batch writes
 * anything, in one storage call: one statement for the batch on a networked storage, not one each.
 */
async function heldBeforeBatch(
  tx: UnitOfWork,
  club: string,
  achievementId: number,
  recipients: RecipientInput[],
  now: number,
): Promise<Map<string, number | null>> {
  const checks = new Map<string, RecipientInput>()
  for (const recipient of recipients) checks.set(checkOf(recipient), recipient)
  const held = await tx.issuances.findHeld(club, achievementId, [...checks.values()].map(heldCheckOf))
  return new Map([...checks.keys()].map((check, i) => [check, activeHeld(held[i]!, now)]))
}

/** `ref` is the recipient's externalUserId, else its zero-based index as a string (docs/decisions/0013-issuing.md). */
function refOf(entry: unknown, index: number): string {
  const externalUserId = (entry as { externalUserId?: unknown } | null)?.externalUserId
  return typeof externalUserId === 'string' && externalUserId.trim() !== '' ? externalUserId.trim() : String(index)
}

const MESSAGES: Record<string, string> = {
  'invalid-email': 'The e-mail address is not valid.',
  required: 'A required member is missing or empty.',
  'unknown-field': 'The entry has a member clubcred does not know.',
  'too-long': 'A member is too long.',
  'invalid-date-time': 'A date-time is not ISO 8601.',
  'invalid-url': 'An evidence url is not an http(s) URL.',
  'must-be-object': 'The entry is not a JSON object.',
  'control-character': 'A member holds a control character (a line break only where text may span lines).',
  'lone-surrogate': 'A member holds a lone UTF-16 surrogate, which is not Unicode text.',
}

function failed(ref: string, index: number, issue: v.BaseIssue<unknown>): BatchItem {
  const { message: code, path } = fieldErrorOf(issue, ['recipients', index])
  return { ref, status: 'failed', error: { code, message: MESSAGES[code] ?? `The entry is not valid (${code}).`, path } }
}

function summarize(results: BatchItem[]): BatchResult['summary'] {
  const count = (status: BatchItem['status']) => results.filter((item) => item.status === status).length
  return { total: results.length, ok: count('issued'), skipped: count('skipped'), failed: count('failed') }
}
