import type { NewIssuance } from './issuance.ts'
import type { UnitOfWork } from '../ports/storage.ts'
import { withFreshIssuanceId } from './issuance-id.ts'
import { recipientEmailKey } from './recipient-email.ts'

/**
 * A batch's new issuances, written with one multi-row insert instead of one statement each,
 * and in the order of the recipients, so that sequences come out as writing them one by one made them.
 *
 * The batch reads issuances between its writes (the already-issued check), and that read must see the
 * ones added earlier in the batch: `mayHold` tells when a recipient's check could match one still
 * waiting, and the caller then `flush`es first. The test is the storage's match itself (the same
 * externalUserId; else the same e-mail by `recipientEmailKey`, the rule every adapter keeps), so a
 * flush is made exactly when the check could find an issuance still waiting.
 */
export function pendingIssuances(tx: UnitOfWork, nextId: () => number) {
  const waiting: { issuance: NewIssuance; settle: (id: number) => void }[] = []
  const externalUserIds = new Set<string>()
  const emails = new Set<string>()
  // What `mayHold` tests, over every issuance added in this batch, written or not.
  const everExternalUserIds = new Set<string>()
  const everEmails = new Set<string>()
  let added = 0
  const couldMatch = (ids: Set<string>, mails: Set<string>, { externalUserId, email }: { externalUserId: string | null; email: string }) =>
    externalUserId !== null ? ids.has(externalUserId) : mails.has(recipientEmailKey(email))

  return {
    /** Adds an issuance (its id drawn from `nextId`); `settle` gets its final id when it is written. */
    add(issuance: Omit<NewIssuance, 'id'>, settle: (id: number) => void): void {
      waiting.push({ issuance: { ...issuance, id: nextId() }, settle })
      added++
      for (const ids of [externalUserIds, everExternalUserIds]) if (issuance.recipient.externalUserId !== null) ids.add(issuance.recipient.externalUserId)
      for (const mails of [emails, everEmails]) mails.add(recipientEmailKey(issuance.recipient.email))
    },
    /** Whether the already-issued check of this recipient could match an issuance not written yet. */
    mayHold(recipient: { externalUserId: string | null; email: string }): boolean {
      return waiting.length > 0 && couldMatch(externalUserIds, emails, recipient)
    },
    /**
     * Whether the already-issued check of this recipient could match an issuance of this batch, written
     * or not: when not, the check's answer from before the batch wrote anything still holds.
     */
    mayHoldAny(recipient: { externalUserId: string | null; email: string }): boolean {
      return added > 0 && couldMatch(everExternalUserIds, everEmails, recipient)
    },
    /** Writes what waits. An id found taken (a random id drawn twice) is drawn again, as `insert` alone would. */
    async flush(): Promise<void> {
      if (waiting.length === 0) return
      const batch = waiting.splice(0)
      externalUserIds.clear()
      emails.clear()
      const stored = await tx.issuances.insertMany(batch.map(({ issuance }) => issuance))
      for (const [i, { issuance, settle }] of batch.entries()) {
        const id = stored[i]?.id ?? (await withFreshIssuanceId(nextId, (id) => tx.issuances.insert({ ...issuance, id }))).id
        settle(id)
      }
    },
  }
}
