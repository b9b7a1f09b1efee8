import assert from 'node:assert/strict'
import { describe } from 'node:test'
import { StorageConflict } from '../../../core/errors.ts'
import { aClient, aClub, caseRunner, freshStore, type CaseOptions, type OpenStorage } from './harness.ts'

/** ClientStore: core/ports/storage.ts. Every case first creates the club its clients belong to. */
export function clientCases(open: OpenStorage, options: CaseOptions = {}): void {
  describe('clients', () => {
    const storage = freshStore(open)
    const it = caseRunner(options)
    const withClub = () => storage().transaction((tx) => tx.clubs.insert(aClub()))

    it('a client read back by id equals the client inserted, scopes in their order', async () => {
      await withClub()
      const client = aClient({ scopes: ['events:read', 'clubs:read', 'issuance:revoke'] })
      await storage().transaction((tx) => tx.clients.insert(client))
      const found = await storage().clients.findById(client.id)
      assert.deepStrictEqual(found, client)
      assert.equal(Object.getPrototypeOf(found), Object.prototype)
    })

    it("listByClub returns the club's clients oldest first as plain objects, none of another club", async () => {
      await storage().transaction(async (tx) => {
        await tx.clubs.insert(aClub())
        await tx.clubs.insert(aClub({ domain: 'go', name: 'Go Club' }))
      })
      const late = aClient({ id: 'cc_a', createdAt: 1_900_000_000_002 })
      const tie = aClient({ id: 'cc_c', createdAt: 1_900_000_000_001 })
      const early = aClient({ id: 'cc_b', createdAt: 1_900_000_000_001 })
      const other = aClient({ id: 'cc_go', club: 'go' })
      await storage().transaction(async (tx) => {
        for (const client of [late, tie, early, other]) await tx.clients.insert(client)
      })
      const listed = await storage().clients.listByClub('chess')
      assert.deepStrictEqual(listed, [early, tie, late])
      assert.equal(Object.getPrototypeOf(listed[0]), Object.prototype)
      assert.deepStrictEqual(await storage().clients.listByClub('go'), [other])
      assert.deepStrictEqual(await storage().clients.listByClub('nowhere'), [])
    })

    it('finding an absent client returns null', async () => {
      assert.equal(await storage().clients.findById('cc_absent'), null)
    })

    it('inserting a second client with the same id throws StorageConflict and keeps the first', async () => {
      await withClub()
      const first = aClient()
      await storage().transaction((tx) => tx.clients.insert(first))
      await assert.rejects(
        storage().transaction((tx) => tx.clients.insert(aClient({ secretHash: 'sha256$other', scopes: ['events:read'] }))),
        (error) => error instanceof StorageConflict,
      )
      assert.deepStrictEqual(await storage().clients.findById(first.id), first)
    })

    it('updateSecret replaces the hash and its time, returns true and leaves the rest', async () => {
      await withClub()
      const client = aClient()
      await storage().transaction((tx) => tx.clients.insert(client))
      const found = await storage().transaction((tx) => tx.clients.updateSecret(client.id, 'sha256$rotated', 1_900_000_555_000))
      assert.equal(found, true)
      assert.deepStrictEqual(await storage().clients.findById(client.id), {
        ...client,
        secretHash: 'sha256$rotated',
        secretSetAt: 1_900_000_555_000,
      })
    })

    it('updateSecret of an absent client returns false and creates nothing', async () => {
      const found = await storage().transaction((tx) => tx.clients.updateSecret('cc_absent', 'sha256$x', 1))
      assert.equal(found, false)
      assert.equal(await storage().clients.findById('cc_absent'), null)
    })

    it('delete removes the client and returns true; a second delete returns false', async () => {
      await withClub()
      const keep = aClient({ id: 'cc_keep' })
      await storage().transaction(async (tx) => {
        await tx.clients.insert(aClient())
        await tx.clients.insert(keep)
      })
      assert.equal(await storage().transaction((tx) => tx.clients.delete(aClient().id)), true)
      assert.equal(await storage().clients.findById(aClient().id), null)
      assert.equal(await storage().transaction((tx) => tx.clients.delete(aClient().id)), false)
      assert.deepStrictEqual(await storage().clients.findById('cc_keep'), keep)
    })

    it('a deleted client id can be inserted again', async () => {
      await withClub()
      await storage().transaction((tx) => tx.clients.insert(aClient()))
      await storage().transaction((tx) => tx.clients.delete(aClient().id))
      const again = aClient({ scopes: ['clubs:read'] })
      await storage().transaction((tx) => tx.clients.insert(again))
      assert.deepStrictEqual(await storage().clients.findById(again.id), again)
    })

    it('changing a returned client changes nothing stored', async () => {
      await withClub()
      await storage().transaction((tx) => tx.clients.insert(aClient()))
      const found = await storage().clients.findById(aClient().id)
      assert.ok(found)
      found.scopes.push('billing:read')
      found.secretHash = 'sha256$mutated'
      assert.deepStrictEqual(await storage().clients.findById(aClient().id), aClient())
    })
  })
}
