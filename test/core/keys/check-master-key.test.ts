/**
 * The start-up check and the key check of restore and verify-backup (docs/backup.md § A wrong master key):
 * a key opens only with the master key it was sealed with, and only on its own row.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createMemoryStorage } from '../../../adapters/memory/index.ts'
import { createKeyStore } from '../../../core/keys/create-key-store.ts'
import { checkMasterKey, MasterKeyMismatch, openSealedKeys } from '../../../core/keys/check-master-key.ts'
import { MASTER_KEY } from '../../support/core-issuer.ts'

const OTHER_KEY = new Uint8Array(32).fill(7)

async function storageWithKeys() {
  const storage = createMemoryStorage()
  const keys = createKeyStore({ storage, masterKey: MASTER_KEY })
  await keys.activeKey('platform')
  await keys.activeKey('club:chess')
  await keys.rotate('club:chess')
  return storage
}

describe('checkMasterKey', () => {
  it('passes on a storage without keys, and with the master key the keys were sealed with', async () => {
    await checkMasterKey(createMemoryStorage().keys, OTHER_KEY)
    await checkMasterKey((await storageWithKeys()).keys, MASTER_KEY)
  })

  it('throws MasterKeyMismatch naming every owner whose active key does not open, never a key', async () => {
    const storage = await storageWithKeys()
    await assert.rejects(checkMasterKey(storage.keys, OTHER_KEY), (error: unknown) => {
      assert.ok(error instanceof MasterKeyMismatch)
      assert.equal(
        error.message,
        'the master key does not open the stored signing keys (2 of 2: club:chess, platform): they were sealed with another master key',
      )
      return true
    })
  })
})

describe('openSealedKeys', () => {
  it('opens each key, rotated ones included, with its master key and no other', async () => {
    const keys = await (await storageWithKeys()).keys.listByOwner('club:chess')
    assert.equal(keys.length, 2)
    assert.deepEqual(await openSealedKeys(keys, MASTER_KEY), { opened: keys.map((key) => key.kid), failed: [] })
    assert.deepEqual(await openSealedKeys(keys, OTHER_KEY), { opened: [], failed: keys.map((key) => key.kid) })
  })

  it('fails a sealed key moved onto another row, and a row whose public key is not the pair of its private key', async () => {
    const storage = await storageWithKeys()
    const [old, current] = await storage.keys.listByOwner('club:chess')
    const platform = (await storage.keys.findActive('platform'))!
    const moved = { ...current!, sealedPrivateKey: old!.sealedPrivateKey }
    const swappedPublic = { ...platform, publicJwk: current!.publicJwk }
    assert.deepEqual(await openSealedKeys([moved, swappedPublic, old!], MASTER_KEY), { opened: [old!.kid], failed: [moved.kid, platform.kid] })
  })

  it("opens a club's Ed25519 keys like its P-256 keys, and fails one whose public key is another Ed25519 key", async () => {
    const storage = createMemoryStorage()
    const keys = createKeyStore({ storage, masterKey: MASTER_KEY })
    await keys.activeKey('club-ed25519:chess')
    await keys.rotate('club-ed25519:chess')
    const [old, current] = await storage.keys.listByOwner('club-ed25519:chess')
    assert.deepEqual([old!.alg, current!.alg], ['Ed25519', 'Ed25519'])
    assert.deepEqual(await openSealedKeys([old!, current!], MASTER_KEY), { opened: [old!.kid, current!.kid], failed: [] })
    assert.deepEqual(await openSealedKeys([old!, current!], OTHER_KEY), { opened: [], failed: [old!.kid, current!.kid] })
    const swappedPublic = { ...current!, publicJwk: old!.publicJwk }
    assert.deepEqual(await openSealedKeys([swappedPublic], MASTER_KEY), { opened: [], failed: [current!.kid] })
  })
})
