import assert from 'node:assert/strict'
import { describe } from 'node:test'
import { StorageConflict } from '../../../core/errors.ts'
import { createKeyStore } from '../../../core/keys/create-key-store.ts'
import { createTestClock } from '../../support/clock.ts'
import { aKey, caseRunner, freshStore, type CaseOptions, type OpenStorage } from './harness.ts'

const MASTER_KEY = new Uint8Array(32).map((_, i) => i + 1)

/** KeyRecordStore, and the default KeyStore built on it: core/ports/storage.ts, core/ports/key-store.ts. */
export function keyCases(open: OpenStorage, options: CaseOptions = {}): void {
  describe('keys', () => {
    const storage = freshStore(open)
    const it = caseRunner(options)

    it('a key read back by kid equals the key inserted, public JWK included', async () => {
      const key = aKey()
      await storage().transaction((tx) => tx.keys.insert(key))
      const found = await storage().keys.findByKid(key.kid)
      assert.deepStrictEqual(found, key)
      assert.equal(Object.getPrototypeOf(found), Object.prototype)
      assert.equal(Object.getPrototypeOf(found?.publicJwk), Object.prototype)
    })

    it('an Ed25519 key reads back with its algorithm and its OKP public JWK', async () => {
      const key = aKey({
        kid: 'k-ed25519',
        owner: 'club-ed25519:chess',
        alg: 'Ed25519',
        publicJwk: { kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' },
      })
      await storage().transaction((tx) => tx.keys.insert(key))
      assert.deepStrictEqual(await storage().keys.findByKid(key.kid), key)
      assert.deepStrictEqual(await storage().keys.findActive('club-ed25519:chess'), key)
      assert.deepStrictEqual(await storage().keys.listActive(), [key])
    })

    it('absent keys read as null and an owner without keys lists []', async () => {
      assert.equal(await storage().keys.findByKid('absent'), null)
      assert.equal(await storage().keys.findActive('platform'), null)
      assert.deepStrictEqual(await storage().keys.listByOwner('platform'), [])
    })

    it("findActive returns the owner's active key, never an inactive one or another owner's", async () => {
      const active = aKey({ kid: 'k-active', createdAt: 2 })
      await storage().transaction(async (tx) => {
        await tx.keys.insert(aKey({ kid: 'k-old', active: false, createdAt: 1 }))
        await tx.keys.insert(active)
        await tx.keys.insert(aKey({ kid: 'k-other', owner: 'club:chess', createdAt: 3 }))
        await tx.keys.insert(aKey({ kid: 'k-lonely', owner: 'club:go', active: false }))
      })
      assert.deepStrictEqual(await storage().keys.findActive('platform'), active)
      assert.equal((await storage().keys.findActive('club:chess'))?.kid, 'k-other')
      assert.equal(await storage().keys.findActive('club:go'), null)
    })

    it('an owner may hold many inactive keys beside one active key', async () => {
      await storage().transaction(async (tx) => {
        for (const kid of ['a', 'b', 'c']) await tx.keys.insert(aKey({ kid, active: false }))
        await tx.keys.insert(aKey({ kid: 'd' }))
      })
      assert.equal((await storage().keys.listByOwner('platform')).length, 4)
    })

    it('inserting a second active key for an owner throws StorageConflict and keeps the first active', async () => {
      await storage().transaction((tx) => tx.keys.insert(aKey({ kid: 'first' })))
      await assert.rejects(
        storage().transaction((tx) => tx.keys.insert(aKey({ kid: 'second' }))),
        (error) => error instanceof StorageConflict,
      )
      assert.equal((await storage().keys.findActive('platform'))?.kid, 'first')
      assert.equal(await storage().keys.findByKid('second'), null)
    })

    it('inserting a key with an existing kid throws StorageConflict, also for another owner', async () => {
      const first = aKey({ kid: 'same' })
      await storage().transaction((tx) => tx.keys.insert(first))
      await assert.rejects(
        storage().transaction((tx) => tx.keys.insert(aKey({ kid: 'same', owner: 'club:chess' }))),
        (error) => error instanceof StorageConflict,
      )
      await assert.rejects(
        storage().transaction((tx) => tx.keys.insert(aKey({ kid: 'same', active: false }))),
        (error) => error instanceof StorageConflict,
      )
      assert.deepStrictEqual(await storage().keys.findByKid('same'), first)
      assert.equal(await storage().keys.findActive('club:chess'), null)
    })

    it("listByOwner lists the owner's keys oldest first, by createdAt then kid", async () => {
      await storage().transaction(async (tx) => {
        await tx.keys.insert(aKey({ kid: 'm', createdAt: 20, active: false }))
        await tx.keys.insert(aKey({ kid: 'z', createdAt: 10, active: false }))
        await tx.keys.insert(aKey({ kid: 'x', owner: 'club:chess', createdAt: 5 }))
        await tx.keys.insert(aKey({ kid: 'b', createdAt: 20 }))
        await tx.keys.insert(aKey({ kid: 'a', createdAt: 30, active: false }))
        await tx.keys.insert(aKey({ kid: 'c', createdAt: 20, active: false }))
      })
      const listed = await storage().keys.listByOwner('platform')
      assert.deepStrictEqual(
        listed.map((key) => key.kid),
        ['z', 'b', 'c', 'm', 'a'],
      )
      assert.deepStrictEqual(listed[1], aKey({ kid: 'b', createdAt: 20 }))
      assert.deepStrictEqual(
        (await storage().keys.listByOwner('club:chess')).map((key) => key.kid),
        ['x'],
      )
    })

    it('listActive lists the active key of every owner, ordered by owner, no inactive one; [] when none', async () => {
      assert.deepStrictEqual(await storage().keys.listActive(), [])
      await storage().transaction(async (tx) => {
        await tx.keys.insert(aKey({ kid: 'p-old', active: false, createdAt: 1 }))
        await tx.keys.insert(aKey({ kid: 'p-cur', createdAt: 2 }))
        await tx.keys.insert(aKey({ kid: 'go', owner: 'club:go' }))
        await tx.keys.insert(aKey({ kid: 'chess', owner: 'club:chess' }))
        await tx.keys.insert(aKey({ kid: 'gone', owner: 'club:bridge', active: false }))
      })
      const listed = await storage().keys.listActive()
      assert.deepStrictEqual(
        listed.map(({ owner, kid }) => `${owner} ${kid}`),
        ['club:chess chess', 'club:go go', 'platform p-cur'],
      )
      assert.deepStrictEqual(listed[2], aKey({ kid: 'p-cur', createdAt: 2 }))
    })

    it("deactivateAll marks every key of the owner inactive and no other owner's", async () => {
      await storage().transaction(async (tx) => {
        await tx.keys.insert(aKey({ kid: 'old', active: false, createdAt: 1 }))
        await tx.keys.insert(aKey({ kid: 'cur', createdAt: 2 }))
        await tx.keys.insert(aKey({ kid: 'club', owner: 'club:chess' }))
      })
      await storage().transaction((tx) => tx.keys.deactivateAll('platform'))
      assert.equal(await storage().keys.findActive('platform'), null)
      assert.deepStrictEqual(
        (await storage().keys.listByOwner('platform')).map(({ kid, active }) => ({ kid, active })),
        [
          { kid: 'old', active: false },
          { kid: 'cur', active: false },
        ],
      )
      assert.deepStrictEqual(await storage().keys.findByKid('cur'), aKey({ kid: 'cur', createdAt: 2, active: false }))
      assert.equal((await storage().keys.findActive('club:chess'))?.kid, 'club')
    })

    it('after deactivateAll the owner can get a new active key in the same unit', async () => {
      await storage().transaction((tx) => tx.keys.insert(aKey({ kid: 'one' })))
      await storage().transaction(async (tx) => {
        await tx.keys.deactivateAll('platform')
        await tx.keys.insert(aKey({ kid: 'two', createdAt: 2 }))
      })
      assert.equal((await storage().keys.findActive('platform'))?.kid, 'two')
    })

    it('deactivateAll of an owner without keys changes nothing', async () => {
      await storage().transaction((tx) => tx.keys.insert(aKey()))
      await storage().transaction((tx) => tx.keys.deactivateAll('club:nobody'))
      assert.deepStrictEqual(await storage().keys.findActive('platform'), aKey())
    })

    it('of N concurrent inserts of an active key for one owner exactly one succeeds', async () => {
      const attempts = Array.from({ length: 12 }, (_, i) => aKey({ kid: `race-${i}`, createdAt: i }))
      const results = await Promise.allSettled(attempts.map((key) => storage().keys.insert(key)))
      const won = results.filter((result) => result.status === 'fulfilled')
      const lost = results.filter((result): result is PromiseRejectedResult => result.status === 'rejected')
      assert.equal(won.length, 1)
      for (const { reason } of lost) assert.ok(reason instanceof StorageConflict, `expected StorageConflict, got ${reason}`)
      const listed = await storage().keys.listByOwner('platform')
      assert.equal(listed.length, 1)
      assert.deepStrictEqual(await storage().keys.findActive('platform'), listed[0])
    })

    it('of N concurrent units that insert an active key for one owner exactly one commits', async () => {
      const attempts = Array.from({ length: 12 }, (_, i) => aKey({ kid: `unit-${i}` }))
      const results = await Promise.allSettled(attempts.map((key) => storage().transaction((tx) => tx.keys.insert(key))))
      assert.equal(results.filter((result) => result.status === 'fulfilled').length, 1)
      assert.equal((await storage().keys.listByOwner('platform')).length, 1)
    })

    describe('the key store on this storage', () => {
      const it = caseRunner(options)

      it('20 concurrent first calls of activeKey all return one key, and only one is stored', async () => {
        const keys = createKeyStore({ storage: storage(), masterKey: MASTER_KEY })
        const got = await Promise.all(Array.from({ length: 20 }, () => keys.activeKey('platform')))
        assert.deepStrictEqual([...new Set(got.map((key) => key.kid))], [got[0]!.kid])
        const stored = await storage().keys.listByOwner('platform')
        assert.deepStrictEqual(
          stored.map((key) => key.kid),
          [got[0]!.kid],
        )
      })

      it('two key stores on one storage (as two processes) agree on the first key', async () => {
        const first = createKeyStore({ storage: storage(), masterKey: MASTER_KEY })
        const second = createKeyStore({ storage: storage(), masterKey: MASTER_KEY })
        const got = await Promise.all([first, second, first, second].map((keys) => keys.activeKey('club:chess')))
        assert.equal(new Set(got.map((key) => key.kid)).size, 1)
        assert.equal((await storage().keys.listByOwner('club:chess')).length, 1)
      })

      it('a stored private key is sealed, never the JWK in the clear', async () => {
        const keys = createKeyStore({ storage: storage(), masterKey: MASTER_KEY })
        const key = await keys.activeKey('platform')
        const stored = await storage().keys.findByKid(key.kid)
        assert.ok(stored)
        assert.match(stored.sealedPrivateKey, /^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/)
        assert.ok(typeof key.privateJwk.d === 'string' && key.privateJwk.d.length > 0)
        assert.ok(!stored.sealedPrivateKey.includes(key.privateJwk.d))
        assert.deepStrictEqual(Object.keys(stored.publicJwk).sort(), ['crv', 'kty', 'x', 'y'])
      })

      it("a club's Ed25519 key is made and rotated beside its ES256 key, each owner with one active key", async () => {
        const keys = createKeyStore({ storage: storage(), masterKey: MASTER_KEY })
        const jwtKey = await keys.activeKey('club:chess')
        const first = await keys.activeKey('club-ed25519:chess')
        const second = await keys.rotate('club-ed25519:chess')
        assert.deepStrictEqual([jwtKey.alg, first.alg, second.alg], ['ES256', 'Ed25519', 'Ed25519'])
        assert.equal((await keys.activeKey('club:chess')).kid, jwtKey.kid, 'the ES256 key stays active')
        assert.equal((await keys.activeKey('club-ed25519:chess')).kid, second.kid)
        const stored = await storage().keys.listByOwner('club-ed25519:chess')
        assert.deepStrictEqual(
          stored.map(({ kid, alg, active }) => ({ kid, alg, active })),
          [
            { kid: first.kid, alg: 'Ed25519', active: false },
            { kid: second.kid, alg: 'Ed25519', active: true },
          ],
        )
        const reopened = createKeyStore({ storage: storage(), masterKey: MASTER_KEY })
        assert.deepStrictEqual((await reopened.activeKey('club-ed25519:chess')).privateJwk, second.privateJwk, 'unsealed as sealed')
      })

      it('rotate makes a new active key and keeps the old one listed, inactive', async () => {
        const clock = createTestClock()
        const keys = createKeyStore({ storage: storage(), masterKey: MASTER_KEY, clock })
        const before = await keys.activeKey('club:chess')
        clock.advance(1)
        const after = await keys.rotate('club:chess')
        assert.notEqual(after.kid, before.kid)
        assert.equal((await keys.activeKey('club:chess')).kid, after.kid)
        const listed = await keys.publicKeys('club:chess')
        assert.deepStrictEqual(
          listed.map(({ kid, active }) => ({ kid, active })),
          [
            { kid: before.kid, active: false },
            { kid: after.kid, active: true },
          ],
        )
      })
    })
  })
}
