import assert from 'node:assert/strict'
import { describe } from 'node:test'
import { StorageConflict } from '../../../core/errors.ts'
import { aClub, caseRunner, freshStore, type CaseOptions, type OpenStorage } from './harness.ts'

/** ClubStore: core/ports/storage.ts. */
export function clubCases(open: OpenStorage, options: CaseOptions = {}): void {
  describe('clubs', () => {
    const storage = freshStore(open)
    const it = caseRunner(options)

    it('a club read back by domain equals the club inserted, as a plain object', async () => {
      const club = aClub({ name: "Échecs « Club » '1' 🏆", canIssue: false, issuerVerified: true })
      await storage().transaction((tx) => tx.clubs.insert(club))
      const found = await storage().clubs.findByDomain('chess')
      assert.deepStrictEqual(found, club)
      assert.equal(Object.getPrototypeOf(found), Object.prototype)
    })

    it('a unit of work reads what it inserted', async () => {
      const club = aClub()
      const seen = await storage().transaction(async (tx) => {
        await tx.clubs.insert(club)
        return tx.clubs.findByDomain(club.domain)
      })
      assert.deepStrictEqual(seen, club)
    })

    it('finding an absent domain returns null', async () => {
      assert.equal(await storage().clubs.findByDomain('absent'), null)
      await storage().transaction((tx) => tx.clubs.insert(aClub()))
      assert.equal(await storage().clubs.findByDomain('Chess'), null)
      assert.equal(await storage().clubs.findByDomain(''), null)
    })

    it('inserting a second club with the same domain throws StorageConflict and keeps the first', async () => {
      const first = aClub()
      await storage().transaction((tx) => tx.clubs.insert(first))
      await assert.rejects(
        storage().transaction((tx) => tx.clubs.insert(aClub({ name: 'Impostor' }))),
        (error) => error instanceof StorageConflict,
      )
      assert.deepStrictEqual(await storage().clubs.findByDomain('chess'), first)
      assert.equal(await storage().clubs.count(), 1)
    })

    it('update sets only the listed fields and returns the club as stored', async () => {
      const club = aClub()
      await storage().transaction((tx) => tx.clubs.insert(club))
      const updated = await storage().transaction((tx) => tx.clubs.update('chess', { issuerVerified: true }))
      const expected = { ...club, issuerVerified: true }
      assert.deepStrictEqual(updated, expected)
      assert.deepStrictEqual(await storage().clubs.findByDomain('chess'), expected)

      const renamed = await storage().transaction((tx) => tx.clubs.update('chess', { name: 'Go Club', canIssue: false }))
      assert.deepStrictEqual(renamed, { ...expected, name: 'Go Club', canIssue: false })
      assert.deepStrictEqual(await storage().clubs.findByDomain('chess'), renamed)
    })

    it('update leaves fields given as undefined unchanged', async () => {
      const club = aClub()
      await storage().transaction((tx) => tx.clubs.insert(club))
      const updated = await storage().transaction((tx) => tx.clubs.update('chess', { name: undefined, canIssue: undefined, issuerVerified: true }))
      assert.deepStrictEqual(updated, { ...club, issuerVerified: true })
    })

    it('update of an absent club returns null and creates nothing', async () => {
      const result = await storage().transaction((tx) => tx.clubs.update('absent', { name: 'X' }))
      assert.equal(result, null)
      assert.equal(await storage().clubs.findByDomain('absent'), null)
      assert.equal(await storage().clubs.count(), 0)
    })

    it('count is 0 on an empty store and counts every club', async () => {
      assert.equal(await storage().clubs.count(), 0)
      await storage().transaction(async (tx) => {
        for (const domain of ['a', 'b', 'c']) await tx.clubs.insert(aClub({ domain }))
      })
      assert.equal(await storage().clubs.count(), 3)
    })

    it('changing a returned club or the inserted object changes nothing stored', async () => {
      const club = aClub()
      await storage().transaction((tx) => tx.clubs.insert(club))
      club.name = 'mutated after insert'
      const found = await storage().clubs.findByDomain('chess')
      assert.ok(found)
      assert.equal(found.name, 'Chess Club')
      found.name = 'mutated after read'
      assert.equal((await storage().clubs.findByDomain('chess'))?.name, 'Chess Club')
    })
  })
}
