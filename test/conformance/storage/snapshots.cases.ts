import assert from 'node:assert/strict'
import { describe } from 'node:test'
import { aClub, caseRunner, freshStore, type CaseOptions, type OpenStorage } from './harness.ts'
import { aNewTemplate, aView } from './issuances.cases.ts'
import type { StoragePort } from '../../../core/ports/storage.ts'

/** A club and a template of it; returns the template id. */
async function seedTemplateOnly(storage: StoragePort): Promise<number> {
  return storage.transaction(async (tx) => {
    await tx.clubs.insert(aClub())
    return (await tx.achievements.insert(aNewTemplate())).id
  })
}

/** SnapshotStore: core/ports/storage.ts. */
export function snapshotCases(open: OpenStorage, options: CaseOptions = {}): void {
  describe('snapshots', () => {
    const storage = freshStore(open)
    const it = caseRunner(options)

    it('a snapshot read back by id equals the snapshot inserted, its view as plain objects', async () => {
      const achievementId = await seedTemplateOnly(storage())
      const snapshot = { club: 'chess', achievementId, view: aView({ id: achievementId }), createdAt: 1_900_000_000_777 }
      const id = await storage().transaction((tx) => tx.snapshots.insert(snapshot))
      const found = await storage().snapshots.findById(id)
      assert.deepStrictEqual(found, { ...snapshot, id })
      assert.equal(Object.getPrototypeOf(found), Object.prototype)
      assert.equal(Object.getPrototypeOf(found?.view), Object.prototype)
      assert.equal(Object.getPrototypeOf(found?.view.criteria.requirements[0]), Object.prototype)
    })

    it('a snapshot keeps the optional program of the view', async () => {
      const achievementId = await seedTemplateOnly(storage())
      const view = aView({ id: achievementId, program: { name: 'Grandmaster Path', url: null, isPublic: true }, tag: [], alignment: [] })
      const id = await storage().transaction((tx) => tx.snapshots.insert({ club: 'chess', achievementId, view, createdAt: 1 }))
      assert.deepStrictEqual((await storage().snapshots.findById(id))?.view, view)
    })

    it('insert hands out distinct increasing ids', async () => {
      const achievementId = await seedTemplateOnly(storage())
      const ids: number[] = []
      for (let i = 0; i < 3; i++) {
        ids.push(await storage().transaction((tx) => tx.snapshots.insert({ club: 'chess', achievementId, view: aView(), createdAt: i })))
      }
      const inOneUnit = await storage().transaction(async (tx) => [
        await tx.snapshots.insert({ club: 'chess', achievementId, view: aView(), createdAt: 10 }),
        await tx.snapshots.insert({ club: 'chess', achievementId, view: aView(), createdAt: 11 }),
      ])
      ids.push(...inOneUnit)
      for (let i = 1; i < ids.length; i++) assert.ok(ids[i]! > ids[i - 1]!, `ids ${ids.join(', ')}`)
      assert.equal((await storage().snapshots.findById(ids[3]!))?.createdAt, 10)
    })

    it('finding an absent snapshot returns null', async () => {
      assert.equal(await storage().snapshots.findById(1), null)
      const achievementId = await seedTemplateOnly(storage())
      const id = await storage().transaction((tx) => tx.snapshots.insert({ club: 'chess', achievementId, view: aView(), createdAt: 1 }))
      assert.equal(await storage().snapshots.findById(id + 1), null)
    })

    it('a snapshot inserted in a rolled-back unit is gone', async () => {
      const achievementId = await seedTemplateOnly(storage())
      let id = 0
      await assert.rejects(
        storage().transaction(async (tx) => {
          id = await tx.snapshots.insert({ club: 'chess', achievementId, view: aView(), createdAt: 1 })
          assert.ok(await tx.snapshots.findById(id))
          throw new Error('roll back')
        }),
        /roll back/,
      )
      assert.ok(id > 0)
      assert.equal(await storage().snapshots.findById(id), null)
    })

    it('changing the inserted or the returned view changes nothing stored', async () => {
      const achievementId = await seedTemplateOnly(storage())
      const view = aView()
      const id = await storage().transaction((tx) => tx.snapshots.insert({ club: 'chess', achievementId, view, createdAt: 1 }))
      view.name = 'mutated after insert'
      view.tag.push('mutated')
      const found = await storage().snapshots.findById(id)
      assert.deepStrictEqual(found?.view, aView())
      found!.view.criteria.requirements.length = 0
      assert.deepStrictEqual((await storage().snapshots.findById(id))?.view, aView())
    })
  })
}
