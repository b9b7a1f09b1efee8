import assert from 'node:assert/strict'
import { describe } from 'node:test'
import type { StatusList } from '../../../core/ports/storage.ts'
import { caseRunner, freshStore, turns, type CaseOptions, type OpenStorage } from './harness.ts'

function aList(overrides: Partial<Omit<StatusList, 'id' | 'allocated'>> = {}): Omit<StatusList, 'id' | 'allocated'> {
  return { club: 'chess', purpose: 'revocation', size: 131_072, seed: 'c2VlZC1vZi10aGUtcGVybXV0YXRpb24', createdAt: 1_900_000_000_000, ...overrides }
}

/** StatusListStore: core/ports/storage.ts. */
export function statusListCases(open: OpenStorage, options: CaseOptions = {}): void {
  describe('status lists', () => {
    const storage = freshStore(open)
    const it = caseRunner(options)

    const insert = (list = aList()) => storage().transaction((tx) => tx.statusLists.insert(list))
    const takeSlot = (listId: number) => storage().transaction(async (tx) => (await tx.statusLists.takeSlots(listId, 1))?.first ?? null)
    /** The club's list with this id as stored, read back by listByClub; `undefined` when absent. */
    const listOf = async (id: number, club = 'chess') => (await storage().statusLists.listByClub(club)).find((list) => list.id === id)

    it('insert returns the list with a fresh id and nothing allocated, and listByClub reads it back as a plain object', async () => {
      const list = aList()
      const stored = await insert(list)
      assert.deepStrictEqual(stored, { ...list, id: stored.id, allocated: 0 })
      assert.equal(typeof stored.id, 'number')
      const found = await listOf(stored.id)
      assert.deepStrictEqual(found, stored)
      assert.equal(Object.getPrototypeOf(found), Object.prototype)
    })

    it('insert hands out distinct increasing ids', async () => {
      const ids = [(await insert()).id, (await insert()).id, (await insert(aList({ club: 'go' }))).id]
      assert.ok(ids[0]! < ids[1]! && ids[1]! < ids[2]!, `ids ${ids.join(', ')}`)
    })

    it('a club without lists has no current list and lists []', async () => {
      assert.equal(await storage().statusLists.current('chess', 'revocation'), null)
      assert.deepStrictEqual(await storage().statusLists.listByClub('chess'), [])
      await insert(aList({ club: 'go' }))
      assert.equal(await storage().statusLists.current('chess', 'revocation'), null)
      assert.deepStrictEqual(await storage().statusLists.listByClub('chess'), [])
    })

    it("current returns the club's newest list, never another club's", async () => {
      await insert(aList({ createdAt: 1 }))
      const newest = await insert(aList({ createdAt: 2, seed: 'bmV3ZXN0' }))
      await insert(aList({ club: 'go', createdAt: 3 }))
      assert.deepStrictEqual(await storage().statusLists.current('chess', 'revocation'), newest)
      assert.equal((await storage().statusLists.current('go', 'revocation'))?.club, 'go')
    })

    it('current reflects the slots taken so far', async () => {
      const list = await insert(aList({ size: 8 }))
      await takeSlot(list.id)
      await takeSlot(list.id)
      assert.deepStrictEqual(await storage().statusLists.current('chess', 'revocation'), { ...list, allocated: 2 })
      assert.deepStrictEqual(await listOf(list.id), { ...list, allocated: 2 })
    })

    it("listByClub lists the club's lists oldest first, and no other club's", async () => {
      const first = await insert(aList({ seed: 'Zmlyc3Q' }))
      await insert(aList({ club: 'go' }))
      const second = await insert(aList({ seed: 'c2Vjb25k' }))
      const third = await insert(aList({ seed: 'dGhpcmQ' }))
      assert.deepStrictEqual(await storage().statusLists.listByClub('chess'), [first, second, third])
    })

    it('takeSlot returns each position 0..size-1 once, in order, then null, and the list counts them', async () => {
      const list = await insert(aList({ size: 5 }))
      const positions: (number | null)[] = []
      for (let i = 0; i < 7; i++) positions.push(await takeSlot(list.id))
      assert.deepStrictEqual(positions, [0, 1, 2, 3, 4, null, null])
      assert.equal((await listOf(list.id))?.allocated, 5)
    })

    it('takeSlots hands out up to count consecutive positions, fewer at the end of the list', async () => {
      const list = await insert(aList({ size: 7 }))
      const take = (count: number) => storage().transaction((tx) => tx.statusLists.takeSlots(list.id, count))
      assert.deepStrictEqual(await take(4), { first: 0, count: 4 })
      assert.deepStrictEqual(await take(5), { first: 4, count: 3 })
      assert.equal(await take(1), null)
      assert.equal((await listOf(list.id))?.allocated, 7)
    })

    it('takeSlot counts each list on its own', async () => {
      const a = await insert(aList({ size: 3 }))
      const b = await insert(aList({ size: 3 }))
      assert.equal(await takeSlot(a.id), 0)
      assert.equal(await takeSlot(a.id), 1)
      assert.equal(await takeSlot(b.id), 0)
      assert.equal((await listOf(a.id))?.allocated, 2)
      assert.equal((await listOf(b.id))?.allocated, 1)
    })

    it('takeSlot on an absent list returns null', async () => {
      assert.equal(await takeSlot(42), null)
    })

    it('20 concurrent units each taking a slot of one list get 20 distinct positions', async () => {
      const list = await insert(aList({ size: 64 }))
      const positions = await Promise.all(
        Array.from({ length: 20 }, () =>
          storage().transaction(async (tx) => {
            const position = (await tx.statusLists.takeSlots(list.id, 1))?.first
            await turns(1)
            return position
          }),
        ),
      )
      assert.deepStrictEqual(
        [...positions].sort((a, b) => a! - b!),
        Array.from({ length: 20 }, (_, i) => i),
      )
      assert.equal((await listOf(list.id))?.allocated, 20)
    })

    it('20 concurrent units on a list of 8 slots get 0..7 once each and null for the rest', async () => {
      const list = await insert(aList({ size: 8 }))
      const positions = await Promise.all(Array.from({ length: 20 }, () => takeSlot(list.id)))
      assert.deepStrictEqual(
        positions.filter((position) => position !== null).sort((a, b) => a! - b!),
        [0, 1, 2, 3, 4, 5, 6, 7],
      )
      assert.equal(positions.filter((position) => position === null).length, 12)
      assert.equal((await listOf(list.id))?.allocated, 8)
    })

    it('a slot taken and a list inserted in a rolled-back unit are undone', async () => {
      const list = await insert(aList({ size: 4 }))
      let rolledBackList = 0
      await assert.rejects(
        storage().transaction(async (tx) => {
          assert.equal((await tx.statusLists.takeSlots(list.id, 1))?.first, 0)
          rolledBackList = (await tx.statusLists.insert(aList())).id
          throw new Error('roll back')
        }),
        /roll back/,
      )
      assert.equal((await listOf(list.id))?.allocated, 0)
      assert.ok(rolledBackList > list.id)
      assert.deepStrictEqual(await storage().statusLists.listByClub('chess'), [list])
      assert.equal(await takeSlot(list.id), 0)
    })

    it('changing an inserted or returned list changes nothing stored', async () => {
      const input = aList()
      const stored = await insert(input)
      input.seed = 'mutated'
      stored.allocated = 99
      stored.seed = 'mutated'
      assert.deepStrictEqual(await listOf(stored.id), { ...aList(), id: stored.id, allocated: 0 })
    })
  })
}
