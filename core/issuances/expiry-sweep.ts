import { durationMs } from '../achievements/expiry-reminders.ts'
import { validUntilOf } from '../credentials/valid-until.ts'
import { shareUrl } from '../credentials/urls.ts'
import { appendEvents } from '../events/append.ts'
import { composeExpiryReminder } from '../notifications/compose-expiry-reminder.ts'
import { reminderAtOnce, reminderInTime } from './expiry-notices.ts'
import type { IssuerContext } from '../context.ts'
import type { ClubEvent } from '../events/event.ts'
import type { NewOutboxMessage } from '../notifications/outbox-message.ts'
import type { SweepPosition, UnitOfWork } from '../ports/storage.ts'
import type { Issuance } from './issuance.ts'
import type { CredentialRecord } from '../credentials/credential-record.ts'

/** The sweeps' names in `ExpiryStore` (docs/decisions/0047-claims-and-expiry.md). */
export const ISSUED_SWEEP = 'issued'
export const EXPIRED_SWEEP = 'expired'
export const reminderSweep = (reminder: string) => `reminder ${reminder}`

/**
 * How long a new issuance still without its credential holds the first-sight sweep: the reminder it may
 * get at once carries the share link, which exists once the credential is signed (seconds, normally).
 */
export const SIGNING_WAIT_MS = 10 * 60_000

const END = Number.MAX_SAFE_INTEGER

/**
 * One round of the expiry sweeps (docs/api.md §6 `issuance.expiring`, `issuance.expired`): the issuances
 * made since the last round (a reminder at once for one made inside a window), then for `expired` and
 * for each reminder duration of any template, the issuances whose time came since that sweep's last
 * round, found through the `validUntil` index from the position the sweep stored. Each notice is
 * recorded once per issuance (a constraint), with its event and, for a reminder, its mail, in the unit
 * that advances the positions: any number of nodes may sweep at once and across restarts, and each
 * notice still goes out once. Returns the notices recorded, plus one when a sweep stopped at `limit`
 * with more to read.
 */
export async function sweepExpiry(ctx: IssuerContext, limit = 200): Promise<number> {
  const now = ctx.clock.now()
  return ctx.storage.transaction(
    async (tx) => {
      const templates = new Map((await tx.expiry.listTemplatesWithReminders()).map((template) => [template.id, template.expiryReminders]))
      const notices = createNotices(ctx, tx, now)
      let more = await sweepIssued(tx, templates, notices, now, limit)
      more = (await sweepDue(tx, EXPIRED_SWEEP, now, limit, async (issuance) => notices.expired(issuance))) || more
      for (const reminder of new Set([...templates.values()].flat())) {
        const sent = await sweepDue(tx, reminderSweep(reminder), now + durationMs(reminder)!, limit, async (issuance, validUntil) => {
          if (templates.get(issuance.achievementId)?.includes(reminder) && reminderInTime(reminder, validUntil, issuance.createdAt, now)) {
            await notices.expiring(issuance, validUntil, reminder)
          }
        })
        more = sent || more
      }
      return (await notices.write()) + (more ? 1 : 0)
    },
    // Every write is a notice the store records once, its event and mail, or a position that only moves forward.
    { concurrent: true },
  )
}

/** The issuances made since the last round; returns whether it stopped at `limit`. */
async function sweepIssued(tx: UnitOfWork, templates: Map<number, string[]>, notices: Notices, now: number, limit: number): Promise<boolean> {
  // A storage that had issuances before reminders existed starts after them (its migration stores the
  // position): none was made inside a window. A fresh one starts at the beginning.
  const position = (await tx.expiry.position(ISSUED_SWEEP)) ?? START
  const rows = await tx.expiry.listIssuedAfter(position.sequence, limit)
  await notices.loadCredentials(rows)
  let last = position.sequence
  for (const issuance of rows) {
    const reminders = templates.get(issuance.achievementId)
    const validUntil = validUntilOf(issuance.expiresAt)
    if (issuance.revokedAt === null && reminders && validUntil !== null) {
      if (!notices.credentialOf(issuance) && now - issuance.createdAt < SIGNING_WAIT_MS) break
      const reminder = reminderAtOnce(reminders, validUntil, now)
      if (reminder) await notices.expiring(issuance, validUntil, reminder)
    }
    last = issuance.sequence
  }
  if (last > position.sequence) await tx.expiry.advance(ISSUED_SWEEP, { at: 0, sequence: last })
  return rows.length === limit
}

/**
 * The issuances whose `validUntil` came to at most `until` since the sweep's position, each handed to
 * `visit`; returns whether it stopped at `limit`. The position moves to the last issuance read, and only
 * when one was read: an idle round writes nothing. A position left behind costs nothing, since nothing
 * lies between it and the last round's `until` (an issuance made later with its time already passed is
 * `sweepIssued`'s). A sweep without a position has not started: its reminder is new (`startReminderSweeps`).
 */
async function sweepDue(
  tx: UnitOfWork,
  sweep: string,
  until: number,
  limit: number,
  visit: (issuance: Issuance, validUntil: number) => Promise<void>,
): Promise<boolean> {
  const position = (await tx.expiry.position(sweep)) ?? (sweep === EXPIRED_SWEEP ? START : null)
  if (!position) return false
  const rows = await tx.expiry.listValidUntil(position, until, limit)
  for (const issuance of rows) await visit(issuance, validUntilOf(issuance.expiresAt)!)
  const last = rows.at(-1)
  if (last) await tx.expiry.advance(sweep, { at: validUntilOf(last.expiresAt)!, sequence: last.sequence })
  return rows.length === limit
}

/** Where a sweep starts on a fresh store (a migrated one stores its positions in the migration). */
const START: SweepPosition = { at: 0, sequence: 0 }

/**
 * Starts the sweep of each reminder that has none, in the unit that saves a template with it: from `now`,
 * so that a reminder new to the issuer is not sent for times already passed.
 */
export async function startReminderSweeps(tx: UnitOfWork, reminders: readonly string[], now: number): Promise<void> {
  for (const reminder of reminders) {
    const sweep = reminderSweep(reminder)
    if (!(await tx.expiry.position(sweep))) await tx.expiry.advance(sweep, { at: now + durationMs(reminder)!, sequence: END })
  }
}

interface Notices {
  loadCredentials(issuances: Issuance[]): Promise<void>
  credentialOf(issuance: Issuance): CredentialRecord | null
  /** A reminder; `reminder`, its duration, names it among the issuance's notices. */
  expiring(issuance: Issuance, validUntil: number, reminder: string): Promise<void>
  expired(issuance: Issuance): Promise<void>
  /** Writes the events and mails of the notices recorded; returns how many. */
  write(): Promise<number>
}

/** The notices of one round: each recorded at once (so a second visit in the round is refused), events and mails written together at the end. */
function createNotices(ctx: IssuerContext, tx: UnitOfWork, now: number): Notices {
  const credentials = new Map<number, CredentialRecord>()
  const clubNames = new Map<string, string>()
  const templateNames = new Map<number, string>()
  const events: Omit<ClubEvent, 'id'>[] = []
  const messages: NewOutboxMessage[] = []
  const event = (issuance: Issuance, type: ClubEvent['type']) =>
    events.push({ club: issuance.club, type, subject: { type: 'issuance', id: String(issuance.id) }, occurredAt: now })

  async function mail(issuance: Issuance, validUntil: number, credential: CredentialRecord): Promise<void> {
    if (!clubNames.has(issuance.club)) clubNames.set(issuance.club, (await tx.clubs.findByDomain(issuance.club))?.name ?? issuance.club)
    if (!templateNames.has(issuance.snapshotId)) templateNames.set(issuance.snapshotId, (await tx.snapshots.findById(issuance.snapshotId))?.view.name ?? '')
    const link = shareUrl(ctx.config, issuance.club, credential.id)
    const message = composeExpiryReminder(clubNames.get(issuance.club)!, templateNames.get(issuance.snapshotId)!, issuance, validUntil, link)
    messages.push({ club: issuance.club, issuanceId: issuance.id, ...message, nextAttemptAt: now, createdAt: now })
  }

  const notices: Notices = {
    async loadCredentials(issuances) {
      const missing = issuances.filter((issuance) => !credentials.has(issuance.id)).map((issuance) => issuance.id)
      if (missing.length > 0) for (const credential of await tx.credentials.findByIssuances(missing)) credentials.set(credential.issuanceId, credential)
    },
    credentialOf: (issuance) => credentials.get(issuance.id) ?? null,
    async expiring(issuance, validUntil, reminder) {
      if (!(await tx.expiry.recordNotice(issuance.id, reminder, now))) return
      event(issuance, 'issuance.expiring')
      await notices.loadCredentials([issuance])
      const credential = notices.credentialOf(issuance)
      // `mode: none` is silent (docs/api.md §4.3): the event tells the integrator, who mails if it wants.
      // Without a credential (signing hours late) there is no share link to send.
      if (issuance.mode === 'email' && credential) await mail(issuance, validUntil, credential)
    },
    async expired(issuance) {
      if (await tx.expiry.recordNotice(issuance.id, EXPIRED_SWEEP, now)) event(issuance, 'issuance.expired')
    },
    async write() {
      if (messages.length > 0) await tx.outbox.enqueueMany(messages)
      await appendEvents(tx, events)
      return events.length
    },
  }
  return notices
}
