import assert from 'node:assert/strict'
import { describe } from 'node:test'
import { StorageConflict } from '../../../core/errors.ts'
import { aClient, aClub, aKey, caseRunner, deferred, freshStore, turns, type CaseOptions, type OpenStorage } from './harness.ts'

/** StoragePort.transaction: all-or-nothing, serialisable, isolated (core/ports/storage.ts). */
export function transactionCases(open: OpenStorage, options: CaseOptions = {}): void {
  describe('units of work', () => {
    const storage = freshStore(open)
    const it = caseRunner(options)

    it('a unit returns what its work returns and its writes are visible once it commits', async () => {
      const result = await storage().transaction(async (tx) => {
        await tx.clubs.insert(aClub())
        await tx.clients.insert(aClient())
        return { ok: 42 }
      })
      assert.deepStrictEqual(result, { ok: 42 })
      assert.deepStrictEqual(await storage().clubs.findByDomain('chess'), aClub())
      assert.deepStrictEqual(await storage().clients.findById(aClient().id), aClient())
    })

    it('a unit that throws leaves nothing it wrote and rethrows the same error object', async () => {
      const failure = new Error('work failed')
      await assert.rejects(
        storage().transaction(async (tx) => {
          await tx.clubs.insert(aClub())
          await tx.clients.insert(aClient())
          await tx.keys.insert(aKey())
          throw failure
        }),
        (error) => error === failure,
      )
      assert.equal(await storage().clubs.findByDomain('chess'), null)
      assert.equal(await storage().clubs.count(), 0)
      assert.equal(await storage().clients.findById(aClient().id), null)
      assert.equal(await storage().keys.findByKid(aKey().kid), null)
      assert.equal(await storage().keys.findActive('platform'), null)
    })

    it('a unit that rejects after awaiting other work is rolled back too', async () => {
      const failure = new TypeError('late failure')
      await assert.rejects(
        storage().transaction(async (tx) => {
          await tx.clubs.insert(aClub())
          await turns(2)
          await new Promise((resolve) => setTimeout(resolve, 5))
          await tx.clubs.insert(aClub({ domain: 'go' }))
          return Promise.reject(failure)
        }),
        (error) => error === failure,
      )
      assert.equal(await storage().clubs.count(), 0)
    })

    it('a rolled-back unit undoes its updates, deletes and deactivations', async () => {
      await storage().transaction(async (tx) => {
        await tx.clubs.insert(aClub())
        await tx.clients.insert(aClient())
        await tx.clients.insert(aClient({ id: 'cc_second' }))
        await tx.keys.insert(aKey())
      })
      const failure = new Error('undo me')
      await assert.rejects(
        storage().transaction(async (tx) => {
          await tx.clubs.update('chess', { name: 'Renamed', canIssue: false, issuerVerified: true })
          await tx.clients.updateSecret(aClient().id, 'sha256$new', 1)
          await tx.clients.delete('cc_second')
          await tx.keys.deactivateAll('platform')
          await tx.keys.insert(aKey({ kid: 'replacement' }))
          throw failure
        }),
        (error) => error === failure,
      )
      assert.deepStrictEqual(await storage().clubs.findByDomain('chess'), aClub())
      assert.deepStrictEqual(await storage().clients.findById(aClient().id), aClient())
      assert.deepStrictEqual(await storage().clients.findById('cc_second'), aClient({ id: 'cc_second' }))
      assert.deepStrictEqual(await storage().keys.findActive('platform'), aKey())
      assert.equal(await storage().keys.findByKid('replacement'), null)
    })

    it("a StorageConflict that the work catches does not undo the unit's other writes", async () => {
      await storage().transaction((tx) => tx.keys.insert(aKey({ kid: 'first' })))
      const outcome = await storage().transaction(async (tx) => {
        await tx.clubs.insert(aClub())
        try {
          await tx.keys.insert(aKey({ kid: 'second' }))
          return 'inserted'
        } catch (error) {
          assert.ok(error instanceof StorageConflict)
          return 'conflict'
        }
      })
      assert.equal(outcome, 'conflict')
      assert.deepStrictEqual(await storage().clubs.findByDomain('chess'), aClub())
      assert.equal(await storage().keys.findByKid('second'), null)
    })

    it('the storage works normally after a rolled-back unit', async () => {
      await assert.rejects(
        storage().transaction(async (tx) => {
          await tx.clubs.insert(aClub())
          throw new Error('first fails')
        }),
      )
      await storage().transaction((tx) => tx.clubs.insert(aClub()))
      assert.deepStrictEqual(await storage().clubs.findByDomain('chess'), aClub())
    })

    it("a read outside an open unit never sees the unit's uncommitted writes", async () => {
      const hold = deferred()
      const started = deferred()
      let outsideRead: Promise<unknown> | undefined
      let settled: { value: unknown } | undefined
      const unit = storage().transaction(async (tx) => {
        await tx.clubs.insert(aClub())
        outsideRead = storage().clubs.findByDomain('chess')
        // A failed read fails the test where it is awaited below, not as an unhandled rejection here.
        outsideRead.then(
          (value) => (settled = { value }),
          () => {},
        )
        started.resolve()
        await hold.promise
        throw new Error('roll back')
      })
      await started.promise
      await turns(5)
      // Either the read waits for the unit, or it answered from committed state: never the open unit's row.
      if (settled) assert.equal(settled.value, null)
      hold.resolve()
      await assert.rejects(unit, /roll back/)
      assert.equal(await outsideRead, null)
      assert.equal(await storage().clubs.count(), 0)
    })

    it("a count outside an open unit never counts the unit's uncommitted inserts", async () => {
      const hold = deferred()
      const counted: number[] = []
      const unit = storage().transaction(async (tx) => {
        await tx.clubs.insert(aClub({ domain: 'a' }))
        void storage()
          .clubs.count()
          .then((n) => counted.push(n))
        await hold.promise
        throw new Error('roll back')
      })
      await turns(5)
      hold.resolve()
      await assert.rejects(unit)
      await turns(5)
      assert.deepStrictEqual(counted, [0])
    })

    it('concurrent units never interleave at an await', async () => {
      const events: string[] = []
      const unitOf = (name: string) =>
        storage().transaction(async (tx) => {
          events.push(`${name} begin`)
          await tx.clubs.insert(aClub({ domain: name }))
          await new Promise((resolve) => setTimeout(resolve, 3))
          await tx.clubs.findByDomain(name)
          events.push(`${name} end`)
        })
      await Promise.all(['a', 'b', 'c', 'd'].map(unitOf))
      for (let i = 0; i < events.length; i += 2) {
        const name = events[i]!.split(' ')[0]
        assert.deepStrictEqual(events.slice(i, i + 2), [`${name} begin`, `${name} end`], events.join(', '))
      }
      assert.equal(await storage().clubs.count(), 4)
    })

    it('concurrent read-then-write units are serialisable: no lost update', async () => {
      // Each unit reads the count and inserts the club named after it; interleaving would insert a
      // name twice (StorageConflict) and leave fewer clubs than units.
      const results = await Promise.allSettled(
        Array.from({ length: 10 }, () =>
          storage().transaction(async (tx) => {
            const n = await tx.clubs.count()
            await turns(1)
            await tx.clubs.insert(aClub({ domain: `club-${n}` }))
          }),
        ),
      )
      assert.deepStrictEqual(
        results.map((result) => result.status),
        Array.from({ length: 10 }, () => 'fulfilled'),
      )
      assert.equal(await storage().clubs.count(), 10)
    })
  })
}
