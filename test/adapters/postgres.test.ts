import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { postgresPerFile } from '../support/postgres-storage.ts'
import { postgresOutboxOf } from '../support/outbox-rows.ts'
import { storageSuite } from '../conformance/storage.suite.ts'

const postgres = postgresPerFile()

storageSuite({ name: 'postgres', open: postgres.open })

describe('postgres storage › outbox rows', () => {
  it('markFailed and markSent are recorded on the row, for the operator', async (t) => {
    const { storage, url, close } = await postgres.open()
    t.after(close)
    const message = { club: 'chess', issuanceId: 17, to: 'ada@example.org', subject: 's', text: 't', html: 'h', nextAttemptAt: 1, createdAt: 1 }
    const [id] = await storage.transaction((tx) => tx.outbox.enqueueMany([message]))
    await storage.transaction((tx) => tx.outbox.claimDue(1, 10, 10, 5))
    await storage.transaction((tx) => tx.outbox.markFailed(id!, '451 try again later', 20))
    assert.deepStrictEqual(await postgresOutboxOf(url, 17), [{ attempts: 1, sentAt: null, lastError: '451 try again later' }])
    await storage.transaction((tx) => tx.outbox.claimDue(20, 10, 10, 5))
    await storage.transaction((tx) => tx.outbox.markSent(id!, 25))
    assert.deepStrictEqual(await postgresOutboxOf(url, 17), [{ attempts: 2, sentAt: 25, lastError: null }])
  })
})
