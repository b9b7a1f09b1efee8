import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { SignJWT, jwtVerify } from 'jose'
import { createMemoryStorage } from '../../../adapters/memory/index.ts'
import { createKeyStore } from '../../../core/keys/create-key-store.ts'
import type { StoragePort } from '../../../core/ports/storage.ts'
import { MASTER_KEY } from '../../support/core-issuer.ts'

/** The real memory storage, counting the key reads the store makes to fill its cache. */
function countingStorage() {
  const storage = createMemoryStorage()
  const reads = { findByKid: 0 }
  const keys = new Proxy(storage.keys, {
    get(target, name, receiver) {
      if (name === 'findByKid') reads.findByKid++
      return Reflect.get(target, name, receiver) as unknown
    },
  })
  return { storage: new Proxy(storage, { get: (t, n, r) => (n === 'keys' ? keys : Reflect.get(t, n, r)) }) as StoragePort, reads }
}

describe('the key store with a cache of 2 clubs', () => {
  it('drops the least recently used club and still verifies and rotates every club', async () => {
    const { storage, reads } = countingStorage()
    const keys = createKeyStore({ storage, masterKey: MASTER_KEY, cacheSize: 2 })
    const owners = ['club:a', 'club:b', 'club:c']
    const signed = new Map<string, { kid: string; jwt: string }>()
    for (const owner of owners) {
      const key = await keys.activeKey(owner)
      signed.set(owner, { kid: key.kid, jwt: await new SignJWT({ owner }).setProtectedHeader({ alg: 'ES256' }).sign(key.privateKey) })
    }
    const verify = async (owner: string) => {
      const { kid, jwt } = signed.get(owner)!
      const key = await keys.verificationKey(owner, kid)
      assert.ok(key)
      assert.equal((await jwtVerify(jwt, key)).payload.owner, owner)
    }
    for (const owner of owners) await verify(owner)
    const afterFirstRound = reads.findByKid
    // b and c are the two most recent: served from the cache.
    await verify('club:b')
    await verify('club:c')
    assert.equal(reads.findByKid, afterFirstRound)
    // a was dropped when c came in: read again, and still right.
    await verify('club:a')
    assert.equal(reads.findByKid, afterFirstRound + 1)

    const rotated = await keys.rotate('club:a')
    assert.notEqual(rotated.kid, signed.get('club:a')!.kid)
    for (const owner of owners) assert.equal((await keys.activeKey(owner)).kid, owner === 'club:a' ? rotated.kid : signed.get(owner)!.kid)
    await verify('club:a')
    await storage.close()
  })
})
