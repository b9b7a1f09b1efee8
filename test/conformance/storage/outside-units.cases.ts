import assert from 'node:assert/strict'
import { describe } from 'node:test'
import { StorageConflict } from '../../../core/errors.ts'
import { aClub, caseRunner, deferred, freshStore, turns, type CaseOptions, type OpenStorage } from './harness.ts'

/** StoragePort, "Called outside a unit of work": core/ports/storage.ts. */
export function outsideUnitCases(open: OpenStorage, options: CaseOptions = {}): void {
  describe('calls outside a unit of work', () => {
    const storage = freshStore(open)
    const it = caseRunner(options)

    it('a write called directly on the port is committed when it resolves: a later unit that rolls back keeps it', async () => {
      await storage().clubs.insert(aClub())
      await assert.rejects(
        storage().transaction(async (tx) => {
          assert.deepStrictEqual(await tx.clubs.findByDomain('chess'), aClub())
          await tx.clubs.update('chess', { name: 'Renamed' })
          throw new Error('roll back')
        }),
        /roll back/,
      )
      assert.deepStrictEqual(await storage().clubs.findByDomain('chess'), aClub())
      assert.equal(await storage().clubs.count(), 1)
    })

    it('a direct write made while a unit is open waits for it: the unit never sees it, and its rollback does not undo it', async () => {
      const hold = deferred()
      const started = deferred()
      let direct: Promise<void> | undefined
      let seenInside: unknown = 'not read'
      const unit = storage().transaction(async (tx) => {
        await tx.clubs.insert(aClub())
        direct = storage().clubs.insert(aClub({ domain: 'go' }))
        started.resolve()
        await hold.promise
        seenInside = await tx.clubs.findByDomain('go')
        throw new Error('roll back')
      })
      await started.promise
      await turns(5)
      hold.resolve()
      await assert.rejects(unit, /roll back/)
      await direct
      assert.equal(seenInside, null)
      assert.equal(await storage().clubs.findByDomain('chess'), null)
      assert.deepStrictEqual(await storage().clubs.findByDomain('go'), aClub({ domain: 'go' }))
    })

    it('a direct write that conflicts throws StorageConflict and changes nothing', async () => {
      await storage().clubs.insert(aClub())
      await assert.rejects(storage().clubs.insert(aClub({ name: 'Other' })), (error) => error instanceof StorageConflict)
      assert.deepStrictEqual(await storage().clubs.findByDomain('chess'), aClub())
      assert.equal(await storage().clubs.count(), 1)
    })

    it('direct reads see what a unit committed once the unit has resolved', async () => {
      await storage().transaction((tx) => tx.clubs.insert(aClub()))
      assert.deepStrictEqual(await storage().clubs.findByDomain('chess'), aClub())
    })
  })
}
