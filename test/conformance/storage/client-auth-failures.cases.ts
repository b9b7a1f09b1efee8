import assert from 'node:assert/strict'
import { describe } from 'node:test'
import { aClient, aClub, caseRunner, freshStore, type CaseOptions, type OpenStorage } from './harness.ts'

const NOW = 1_900_000_000_000
const WINDOW = 60_000

/** ClientAuthFailureStore: core/ports/storage.ts. */
export function clientAuthFailureCases(open: OpenStorage, options: CaseOptions = {}): void {
  describe('client authentication failures', () => {
    const storage = freshStore(open)
    const it = caseRunner(options)
    const client = aClient()

    const withClient = () =>
      storage().transaction(async (tx) => {
        await tx.clubs.insert(aClub())
        await tx.clients.insert(client)
      })
    const fail = (now: number, clientId = client.id) => storage().transaction((tx) => tx.clientAuthFailures.recordFailure(clientId, now, WINDOW))
    const find = (now: number, clientId = client.id) => storage().clientAuthFailures.find(clientId, now)

    it('the first failure opens a window of one failure ending windowMs later, found as a plain object', async () => {
      await withClient()
      const expected = { clientId: client.id, failures: 1, endsAt: NOW + WINDOW }
      assert.deepStrictEqual(await fail(NOW), expected)
      const found = await find(NOW + 1)
      assert.deepStrictEqual(found, expected)
      assert.equal(Object.getPrototypeOf(found), Object.prototype)
    })

    it('failures inside the window add up and keep its end', async () => {
      await withClient()
      await fail(NOW)
      assert.deepStrictEqual(await fail(NOW + 1000), { clientId: client.id, failures: 2, endsAt: NOW + WINDOW })
      assert.deepStrictEqual(await fail(NOW + WINDOW - 1), { clientId: client.id, failures: 3, endsAt: NOW + WINDOW })
    })

    it('a failure at or after the end of the window starts a new window of one failure', async () => {
      await withClient()
      await fail(NOW)
      await fail(NOW + 1)
      assert.deepStrictEqual(await fail(NOW + WINDOW), { clientId: client.id, failures: 1, endsAt: NOW + 2 * WINDOW })
    })

    it('find returns null when no window exists, and when the window has ended at now', async () => {
      await withClient()
      assert.equal(await find(NOW), null)
      await fail(NOW)
      assert.notEqual(await find(NOW + WINDOW - 1), null)
      assert.equal(await find(NOW + WINDOW), null)
    })

    it('a failure of an id no client has writes nothing and returns null', async () => {
      await withClient()
      assert.equal(await fail(NOW, 'cc_made_up'), null)
      assert.equal(await find(NOW, 'cc_made_up'), null)
      assert.equal(await storage().transaction((tx) => tx.clientAuthFailures.purgeEnded(Number.MAX_SAFE_INTEGER)), 0)
    })

    it('of 20 concurrent failures in one window each counts once: counts 1 to 20, then 20 found', async () => {
      await withClient()
      const windows = await Promise.all(Array.from({ length: 20 }, () => fail(NOW)))
      assert.deepStrictEqual(
        windows.map((window) => window!.failures).sort((a, b) => a - b),
        Array.from({ length: 20 }, (_, i) => i + 1),
      )
      assert.equal((await find(NOW))!.failures, 20)
    })

    it('concurrent failures called outside units of work each count once too', async () => {
      await withClient()
      await Promise.all(Array.from({ length: 20 }, () => storage().clientAuthFailures.recordFailure(client.id, NOW, WINDOW)))
      assert.equal((await find(NOW))!.failures, 20)
    })

    it('clear deletes the window, so the next failure counts from one; clearing an absent window is harmless', async () => {
      await withClient()
      await fail(NOW)
      await fail(NOW)
      await storage().transaction((tx) => tx.clientAuthFailures.clear(client.id))
      assert.equal(await find(NOW), null)
      await storage().transaction((tx) => tx.clientAuthFailures.clear(client.id))
      assert.equal((await fail(NOW + 1))!.failures, 1)
    })

    it('windows are per client', async () => {
      await withClient()
      const other = aClient({ id: 'cc_other' })
      await storage().transaction((tx) => tx.clients.insert(other))
      await fail(NOW)
      await fail(NOW)
      await fail(NOW + 5, other.id)
      assert.equal((await find(NOW + 5))!.failures, 2)
      assert.deepStrictEqual(await find(NOW + 5, other.id), { clientId: other.id, failures: 1, endsAt: NOW + 5 + WINDOW })
    })

    it('purgeEnded deletes the windows that ended at or before now, keeps the others and returns how many', async () => {
      await withClient()
      const ids = ['cc_a', 'cc_b', 'cc_c']
      await storage().transaction(async (tx) => {
        for (const id of ids) await tx.clients.insert(aClient({ id }))
      })
      await fail(NOW - WINDOW, 'cc_a') // ends at NOW: purged
      await fail(NOW - WINDOW - 5, 'cc_b') // ended before NOW: purged
      await fail(NOW - WINDOW + 1, 'cc_c') // ends after NOW: kept
      assert.equal(await storage().transaction((tx) => tx.clientAuthFailures.purgeEnded(NOW)), 2)
      assert.equal(await find(NOW - WINDOW, 'cc_a'), null)
      assert.equal(await find(NOW - WINDOW, 'cc_b'), null)
      assert.equal((await find(NOW, 'cc_c'))!.failures, 1)
      assert.equal(await storage().transaction((tx) => tx.clientAuthFailures.purgeEnded(NOW)), 0)
    })

    it('deleting the client deletes its window', async () => {
      await withClient()
      await fail(NOW)
      await storage().transaction((tx) => tx.clients.delete(client.id))
      assert.equal(await find(NOW), null)
      await storage().transaction((tx) => tx.clients.insert(client))
      assert.equal(await find(NOW), null)
      assert.equal((await fail(NOW))!.failures, 1)
    })

    it('a failure, a clear and a purge in a rolled-back unit are undone', async () => {
      await withClient()
      const other = aClient({ id: 'cc_other' })
      await storage().transaction((tx) => tx.clients.insert(other))
      await fail(NOW)
      await fail(NOW - WINDOW, other.id)
      await assert.rejects(
        storage().transaction(async (tx) => {
          await tx.clientAuthFailures.recordFailure(client.id, NOW, WINDOW)
          await tx.clientAuthFailures.clear(client.id)
          assert.equal(await tx.clientAuthFailures.purgeEnded(NOW), 1)
          throw new Error('roll back')
        }),
        /roll back/,
      )
      assert.equal((await find(NOW))!.failures, 1)
      assert.equal((await find(NOW - 1, other.id))!.failures, 1)
    })
  })
}
