import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { SignJWT, jwtVerify } from 'jose'
import { createMemoryStorage } from '../../../adapters/memory/index.ts'
import { createKeyStore } from '../../../core/keys/create-key-store.ts'
import { checkedStorage, type CheckedStorage } from '../../support/checked-storage.ts'
import { createTestClock, TEST_EPOCH } from '../../support/clock.ts'
import { MASTER_KEY } from '../../support/core-issuer.ts'

describe('the default key store', () => {
  let storage: CheckedStorage
  beforeEach(() => {
    storage = checkedStorage(createMemoryStorage())
  })
  afterEach(async () => {
    await storage.close()
    storage.assertClean()
  })

  it("creates the owner's first key on first need: P-256, active, created now", async () => {
    const keys = createKeyStore({ storage, masterKey: MASTER_KEY, clock: createTestClock() })
    const key = await keys.activeKey('club:chess')
    assert.equal(key.owner, 'club:chess')
    assert.equal(key.alg, 'ES256')
    assert.equal(key.active, true)
    assert.equal(key.createdAt, TEST_EPOCH)
    assert.deepStrictEqual(Object.keys(key.publicJwk).sort(), ['crv', 'kty', 'x', 'y'])
    assert.equal(key.publicJwk.crv, 'P-256')
    assert.equal(key.privateJwk.d?.length, 43)
    assert.equal((await keys.activeKey('club:chess')).kid, key.kid)
  })

  it("creates a club's Data Integrity key as Ed25519: an OKP public JWK, sealed, active, created now", async () => {
    const keys = createKeyStore({ storage, masterKey: MASTER_KEY, clock: createTestClock() })
    const key = await keys.activeKey('club-ed25519:chess')
    assert.equal(key.owner, 'club-ed25519:chess')
    assert.equal(key.alg, 'Ed25519')
    assert.equal(key.active, true)
    assert.equal(key.createdAt, TEST_EPOCH)
    assert.deepStrictEqual(Object.keys(key.publicJwk).sort(), ['crv', 'kty', 'x'])
    assert.deepStrictEqual([key.publicJwk.kty, key.publicJwk.crv], ['OKP', 'Ed25519'])
    assert.equal(key.privateJwk.d?.length, 43)
    assert.deepStrictEqual(key.privateKey.algorithm, { name: 'Ed25519' })
    const stored = await storage.keys.findByKid(key.kid)
    assert.equal(stored?.alg, 'Ed25519')
    assert.ok(!stored?.sealedPrivateKey.includes(key.privateJwk.d!), 'sealed, never the private JWK in the clear')
    assert.equal((await keys.activeKey('club-ed25519:chess')).kid, key.kid)
  })

  it("an Ed25519 signature made with the club's Data Integrity key verifies with its verificationKey", async () => {
    const keys = createKeyStore({ storage, masterKey: MASTER_KEY })
    const key = await keys.activeKey('club-ed25519:chess')
    const data = new TextEncoder().encode('canonical proof options and document hashes')
    const signature = await crypto.subtle.sign('Ed25519', key.privateKey, data)
    const verifier = await keys.verificationKey('club-ed25519:chess', key.kid)
    assert.ok(verifier)
    assert.equal(await crypto.subtle.verify('Ed25519', verifier, signature, data), true)
    assert.equal(await crypto.subtle.verify('Ed25519', verifier, signature, new TextEncoder().encode('another document')), false)
  })

  it("a club's VC-JWT key and its Data Integrity key are two owners: neither finds the other's kid", async () => {
    const keys = createKeyStore({ storage, masterKey: MASTER_KEY })
    const jwtKey = await keys.activeKey('club:chess')
    const dataIntegrityKey = await keys.activeKey('club-ed25519:chess')
    assert.notEqual(jwtKey.kid, dataIntegrityKey.kid)
    assert.equal(await keys.verificationKey('club:chess', dataIntegrityKey.kid), null, 'an ES256 JWT cannot name the Ed25519 key')
    assert.equal(await keys.findPublicKey('club-ed25519:chess', jwtKey.kid), null)
    assert.deepStrictEqual(
      (await keys.publicKeys('club:chess')).map((key) => key.alg),
      ['ES256'],
    )
  })

  it('a signature made with the active key verifies with verificationKey', async () => {
    const keys = createKeyStore({ storage, masterKey: MASTER_KEY })
    const key = await keys.activeKey('platform')
    const jwt = await new SignJWT({ hello: 'world' }).setProtectedHeader({ alg: 'ES256' }).sign(key.privateKey)
    const verifier = await keys.verificationKey('platform', key.kid)
    assert.ok(verifier)
    assert.equal((await jwtVerify(jwt, verifier)).payload.hello, 'world')
    assert.equal(await keys.verificationKey('platform', key.kid), verifier, 'cached')
  })

  it('a kid of another owner, or an unknown kid, is null for findPublicKey and verificationKey', async () => {
    const keys = createKeyStore({ storage, masterKey: MASTER_KEY })
    const clubKey = await keys.activeKey('club:chess')
    assert.equal(await keys.findPublicKey('platform', clubKey.kid), null)
    assert.equal(await keys.verificationKey('platform', clubKey.kid), null)
    assert.equal(await keys.findPublicKey('platform', 'unknown'), null)
    assert.equal(await keys.verificationKey('platform', 'unknown'), null)
    assert.deepStrictEqual(await keys.publicKeys('club:nobody'), [])
    const found = await keys.findPublicKey('club:chess', clubKey.kid)
    assert.deepStrictEqual(found, {
      kid: clubKey.kid,
      owner: 'club:chess',
      alg: 'ES256',
      publicJwk: clubKey.publicJwk,
      active: true,
      createdAt: clubKey.createdAt,
    })
  })

  it('public records never carry private key material', async () => {
    const keys = createKeyStore({ storage, masterKey: MASTER_KEY })
    const key = await keys.activeKey('platform')
    const listed = await keys.publicKeys('platform')
    assert.ok(!JSON.stringify(listed).includes(key.privateJwk.d!))
    assert.ok(!JSON.stringify(await keys.findPublicKey('platform', key.kid)).includes('"d"'))
  })

  it('a store on another master key cannot open the sealed keys', async () => {
    const first = createKeyStore({ storage, masterKey: MASTER_KEY })
    await first.activeKey('platform')
    const wrong = createKeyStore({ storage, masterKey: new Uint8Array(32).fill(0xee) })
    await assert.rejects(wrong.activeKey('platform'))
    // ...and the failure is not cached as a success later.
    await assert.rejects(wrong.activeKey('platform'))
  })

  it("a sealed key copied onto another key's row does not open", async () => {
    const keys = createKeyStore({ storage, masterKey: MASTER_KEY })
    const a = await keys.activeKey('platform')
    const b = await keys.activeKey('club:chess')
    const stolen = await storage.keys.findByKid(a.kid)
    await storage.transaction(async (tx) => {
      await tx.keys.deactivateAll('club:go')
      await tx.keys.insert({ ...stolen!, kid: 'moved', owner: 'club:go', active: true })
    })
    const fresh = createKeyStore({ storage, masterKey: MASTER_KEY })
    await assert.rejects(fresh.activeKey('club:go'))
    assert.equal((await fresh.activeKey('club:chess')).kid, b.kid)
  })

  it('rotate leaves exactly one active key and lists every key oldest first', async () => {
    const clock = createTestClock()
    const keys = createKeyStore({ storage, masterKey: MASTER_KEY, clock })
    const kids = [(await keys.activeKey('club:chess')).kid]
    for (let i = 0; i < 3; i++) {
      clock.advance(1000)
      kids.push((await keys.rotate('club:chess')).kid)
    }
    const listed = await keys.publicKeys('club:chess')
    assert.deepStrictEqual(
      listed.map((key) => key.kid),
      kids,
    )
    assert.deepStrictEqual(
      listed.map((key) => key.active),
      [false, false, false, true],
    )
    assert.equal((await keys.activeKey('club:chess')).kid, kids[3])
  })

  it('a rotation by another key store on the same storage (the CLI) takes effect at once', async () => {
    const server = createKeyStore({ storage, masterKey: MASTER_KEY })
    const cli = createKeyStore({ storage, masterKey: MASTER_KEY })
    const before = await server.activeKey('club:chess')
    const rotated = await cli.rotate('club:chess')
    assert.notEqual(rotated.kid, before.kid)
    assert.equal((await server.activeKey('club:chess')).kid, rotated.kid)
  })

  it('refuses a master key that is not 32 bytes', () => {
    for (const length of [0, 16, 31, 33, 64]) {
      assert.throws(() => createKeyStore({ storage, masterKey: new Uint8Array(length) }), TypeError)
    }
  })
})
