/**
 * The club's DID document (docs/data-integrity.md § Keys): its VC-JWT keys as `JsonWebKey2020`, its Data
 * Integrity keys as `Multikey`, every one of them an assertion method, rotated ones included.
 */
import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import * as Ed25519Multikey from '@digitalbazaar/ed25519-multikey'
import { createCoreHarness, type CoreHarness } from '../../support/core-issuer.ts'

let harness: CoreHarness
beforeEach(async () => {
  harness = createCoreHarness()
  await harness.issuer.clubs.create({ domain: 'chess', name: 'Chess Club' })
})
afterEach(() => harness.close())

const DID = 'did:web:localhost%3A8787:open-badges:v3:issuers:chess'

describe('the DID document', () => {
  it("lists the club's ES256 key as JsonWebKey2020 and its Ed25519 key as a Multikey, both assertion methods, made on first need", async () => {
    const document = await harness.issuer.verification.didDocument('chess')
    const multibase = document.verificationMethod[1]?.type === 'Multikey' ? document.verificationMethod[1].publicKeyMultibase : null
    const [jwtKey] = await harness.keys.publicKeys('club:chess')
    const [dataIntegrityKey] = await harness.keys.publicKeys('club-ed25519:chess')
    assert.ok(jwtKey && dataIntegrityKey, 'both keys made by the first read')
    assert.deepStrictEqual(document, {
      '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/suites/jws-2020/v1', 'https://w3id.org/security/multikey/v1'],
      id: DID,
      verificationMethod: [
        { id: `${DID}#${jwtKey.kid}`, type: 'JsonWebKey2020', controller: DID, publicKeyJwk: jwtKey.publicJwk },
        { id: `${DID}#${dataIntegrityKey.kid}`, type: 'Multikey', controller: DID, publicKeyMultibase: multibase },
      ],
      assertionMethod: [`${DID}#${jwtKey.kid}`, `${DID}#${dataIntegrityKey.kid}`],
    })
  })

  it("the Multikey's publicKeyMultibase is the z6Mk… form Digital Bazaar's ed25519-multikey makes of the stored public key", async () => {
    const document = await harness.issuer.verification.didDocument('chess')
    const [dataIntegrityKey] = await harness.keys.publicKeys('club-ed25519:chess')
    const multikey = document.verificationMethod.find((method) => method.type === 'Multikey')
    assert.ok(multikey?.type === 'Multikey')
    assert.match(multikey.publicKeyMultibase, /^z6Mk[1-9A-HJ-NP-Za-km-z]{44}$/)
    assert.equal(multikey.publicKeyMultibase, (await Ed25519Multikey.fromJwk({ jwk: dataIntegrityKey!.publicJwk })).publicKeyMultibase)
    const decoded = await Ed25519Multikey.toJwk({ keyPair: await Ed25519Multikey.from({ ...multikey, '@context': 'https://w3id.org/security/multikey/v1' }) })
    assert.equal(decoded.x, dataIntegrityKey!.publicJwk.x)
  })

  it('a club that has an ES256 key but no Ed25519 key yet gets none from a read: the document stays as it was', async () => {
    const jwtKey = await harness.keys.activeKey('club:chess')
    const document = await harness.issuer.verification.didDocument('chess')
    assert.deepStrictEqual(
      document.verificationMethod.map((method) => method.id),
      [`${DID}#${jwtKey.kid}`],
    )
    assert.deepStrictEqual(await harness.keys.publicKeys('club-ed25519:chess'), [])
    const dataIntegrityKey = await harness.keys.activeKey('club-ed25519:chess')
    const listed = await harness.issuer.verification.didDocument('chess')
    assert.deepStrictEqual(listed.assertionMethod, [`${DID}#${jwtKey.kid}`, `${DID}#${dataIntegrityKey.kid}`], 'listed once made')
  })

  it('after a rotation lists both keys of each kind, oldest first, and the new ones are the active keys', async () => {
    const before = await harness.issuer.verification.didDocument('chess')
    harness.clock.advance(1000)
    const rotated = await harness.issuer.keys.rotate('chess')
    const after = await harness.issuer.verification.didDocument('chess')
    const jwtKeys = await harness.keys.publicKeys('club:chess')
    const dataIntegrityKeys = await harness.keys.publicKeys('club-ed25519:chess')
    assert.equal(rotated.kid, jwtKeys[1]!.kid, 'rotate answers the new VC-JWT key')
    assert.deepStrictEqual(
      after.verificationMethod.map((method) => [method.type, method.id]),
      [
        ['JsonWebKey2020', `${DID}#${jwtKeys[0]!.kid}`],
        ['JsonWebKey2020', `${DID}#${jwtKeys[1]!.kid}`],
        ['Multikey', `${DID}#${dataIntegrityKeys[0]!.kid}`],
        ['Multikey', `${DID}#${dataIntegrityKeys[1]!.kid}`],
      ],
    )
    assert.deepStrictEqual(
      after.assertionMethod,
      after.verificationMethod.map((method) => method.id),
    )
    assert.deepStrictEqual(
      after.verificationMethod.filter((method) => before.assertionMethod.includes(method.id)),
      before.verificationMethod,
      'the old keys unchanged',
    )
    assert.deepStrictEqual(
      [...jwtKeys, ...dataIntegrityKeys].map((key) => key.active),
      [false, true, false, true],
    )
  })
})
