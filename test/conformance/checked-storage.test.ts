/** The checked storage (test/support/checked-storage.ts) catches each misuse it promises to catch. */
import assert from 'node:assert/strict'
import { AssertionError } from 'node:assert'
import { describe, it } from 'node:test'
import { createMemoryStorage } from '../../adapters/memory/index.ts'
import { checkedStorage, isWriteMethod } from '../support/checked-storage.ts'
import { aClub } from './storage/harness.ts'

describe('the checked storage', () => {
  it('classes every method not named find…, list… or count… as a write', () => {
    for (const method of ['insert', 'update', 'updateSecret', 'delete', 'deactivateAll', 'replaceRequirements', 'claim', 'allocateIndex']) {
      assert.equal(isWriteMethod(method), true, method)
    }
    for (const method of ['findById', 'findByDomain', 'findActive', 'list', 'listByOwner', 'count']) {
      assert.equal(isWriteMethod(method), false, method)
    }
  })

  it('lets reads outside and writes inside a unit through, and records the writes', async () => {
    const storage = checkedStorage(createMemoryStorage())
    assert.equal(await storage.clubs.findByDomain('chess'), null)
    await storage.transaction((tx) => tx.clubs.insert(aClub()))
    assert.deepStrictEqual(await storage.clubs.findByDomain('chess'), aClub())
    assert.deepStrictEqual(storage.writes, ['clubs.insert'])
    assert.deepStrictEqual(storage.units, { committed: 1, rolledBack: 0 })
    storage.assertClean()
  })

  it('a write outside a unit throws an AssertionError, writes nothing and fails assertClean', async () => {
    const storage = checkedStorage(createMemoryStorage())
    await assert.rejects(storage.clubs.insert(aClub()), AssertionError)
    assert.equal(await storage.clubs.count(), 0)
    assert.throws(() => storage.assertClean(), /clubs\.insert is a write outside a unit of work/)
  })

  it('remembers a violation even when the caller swallows the error', async () => {
    const storage = checkedStorage(createMemoryStorage())
    await storage.clubs.update('chess', { name: 'x' }).catch(() => {})
    assert.equal(storage.violations.length, 1)
    assert.throws(() => storage.assertClean(), AssertionError)
  })

  it("a unit's stores used after the unit ended is a violation", async () => {
    const storage = checkedStorage(createMemoryStorage())
    let escaped: Parameters<Parameters<typeof storage.transaction>[0]>[0] | undefined
    await storage.transaction(async (tx) => {
      escaped = tx
    })
    await assert.rejects(escaped!.clubs.insert(aClub()), /after the unit ended/)
    assert.equal(await storage.clubs.count(), 0)
  })

  it('a nested unit, or the outer storage used inside a unit, is a violation instead of a deadlock', async () => {
    const storage = checkedStorage(createMemoryStorage())
    await assert.rejects(
      storage.transaction(() => storage.transaction((tx) => tx.clubs.count())),
      /units must not nest/,
    )
    await assert.rejects(
      storage.transaction(() => storage.clubs.findByDomain('chess')),
      /outer storage from inside a unit/,
    )
    assert.deepStrictEqual(storage.units, { committed: 0, rolledBack: 2 })
    assert.equal(storage.violations.length, 2)
  })

  it('concurrent units side by side are not mistaken for nesting', async () => {
    const storage = checkedStorage(createMemoryStorage())
    await Promise.all(['a', 'b', 'c'].map((domain) => storage.transaction((tx) => tx.clubs.insert(aClub({ domain })))))
    assert.equal(await storage.clubs.count(), 3)
    storage.assertClean()
  })
})
