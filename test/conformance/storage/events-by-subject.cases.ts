import assert from 'node:assert/strict'
import { describe } from 'node:test'
import type { ClubEvent } from '../../../core/ports/storage.ts'
import { caseRunner, freshStore, type CaseOptions, type OpenStorage } from './harness.ts'

const event = (overrides: Partial<Omit<ClubEvent, 'id'>>): Omit<ClubEvent, 'id'> => ({
  club: 'chess',
  type: 'issuance.notified',
  subject: { type: 'issuance', id: '17' },
  occurredAt: 1_900_000_000_000,
  ...overrides,
})

/** EventStore.listBySubject: core/ports/storage.ts. */
export function eventsBySubjectCases(open: OpenStorage, options: CaseOptions = {}): void {
  describe('events by subject', () => {
    const storage = freshStore(open)
    const it = caseRunner(options)

    it("listBySubject holds the club's events of that subject and of those types, newest first, at most limit, as plain objects", async () => {
      const appended = [
        event({}),
        event({ type: 'issuance.revoked' }),
        event({ subject: { type: 'issuance', id: '18' } }),
        event({ club: 'go' }),
        event({ type: 'issuance.notification_failed', occurredAt: 1_900_000_000_500 }),
        event({ subject: { type: 'webhook', id: '17' } }),
        event({ occurredAt: 1_900_000_001_000 }),
      ]
      const ids = await storage().transaction((tx) => tx.events.appendMany(appended))
      const stored = appended.map((item, i) => ({ ...item, id: ids[i]! }))
      const types = ['issuance.notified', 'issuance.notification_failed'] as const
      const found = await storage().events.listBySubject('chess', { type: 'issuance', id: '17' }, types, 10)
      assert.deepStrictEqual(found, [stored[6], stored[4], stored[0]])
      assert.equal(Object.getPrototypeOf(found[0]), Object.prototype)
      assert.deepStrictEqual(await storage().events.listBySubject('chess', { type: 'issuance', id: '17' }, types, 2), [stored[6], stored[4]])
      assert.deepStrictEqual(await storage().events.listBySubject('chess', { type: 'issuance', id: '17' }, ['issuance.revoked'], 10), [stored[1]])
      assert.deepStrictEqual(await storage().events.listBySubject('chess', { type: 'issuance', id: '99' }, types, 10), [])
    })
  })
}
