/**
 * The JSON-LD form of a credential (docs/data-integrity.md): the credential issuing builds, the `vc` of
 * its VC-JWT, secured by clubcred's Data Integrity signer with the club's Ed25519 key, then verified by
 * tools no one here wrote: Digital Bazaar's VC library and `eddsa-rdfc-2022` cryptosuite, the club's
 * did:web resolved from the server on a real port (test/support/data-integrity-verifier.ts), and
 * jsonld's safe mode over the published contexts.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { decodeJwt, exportJWK, generateKeyPair } from 'jose'
import jsonld from 'jsonld'
import { createDataIntegritySigner } from '../../../adapters/node/data-integrity-signer.ts'
import { clubDataIntegrityKeyOwner } from '../../../core/did-documents/did.ts'
import { signDataIntegrity, type CredentialObject } from '../../../core/credentials/sign-data-integrity.ts'
import type { SigningKey } from '../../../core/ports/key-store.ts'
import { openVerificationApi, type VerificationApi } from '../../support/api-harness.ts'
import { verifierLoader, verifyDataIntegrity } from '../../support/data-integrity-verifier.ts'
import type { Json } from '../../support/json.ts'
import { clubPaths, createTemplate, credentialOf, expectStatus, issueTo, members, type Recipient } from '../../support/verification-steps.ts'

const signer = createDataIntegritySigner()

let api: VerificationApi
/** The `vc` of the VC-JWT of each credential issued below, by name. */
const credentials = new Map<string, CredentialObject>()
const issuances = new Map<string, number>()

const get = (url: string) => api.get(url)
const activeKey = () => api.keys.activeKey(clubDataIntegrityKeyOwner(api.club))
const secure = async (credential: CredentialObject, key?: SigningKey) => {
  const [secured] = await signDataIntegrity(signer, key ?? (await activeKey()), api.did, [credential])
  return secured!
}
const credential = (name: string) => structuredClone(credentials.get(name)!)

before(async () => {
  api = await openVerificationApi({ listen: true })
  const templateId = await createTemplate(api, { name: '체스 입문', description: 'Learned the rules.', tag: ['chess', 'rules'] })
  const [plain] = await issueTo(api, templateId, members(1, 'plain'))
  const evidences = [
    { url: 'https://chess.example/games/1', name: 'Game one', description: 'A won game', isPublic: true },
    { url: 'https://chess.example/private', name: 'Private', isPublic: false },
  ]
  const withEvidence = { ...members(1, 'rich')[0]!, evidences } as Recipient
  const [rich] = await issueTo(api, templateId, [withEvidence], {
    expiresAt: new Date(Date.now() + 365 * 86_400_000).toISOString(),
  })
  await api.issuer.worker.drain()
  for (const [name, id] of [
    ['plain', plain!],
    ['with evidence and an expiry', rich!],
  ] as const) {
    issuances.set(name, id)
    credentials.set(name, decodeJwt<{ vc: CredentialObject }>((await credentialOf(api, id)).jwt).vc)
  }
  assert.ok(credentials.get('with evidence and an expiry')!.evidence, 'public evidence is engraved')
  assert.ok(credentials.get('with evidence and an expiry')!.validUntil)
})
after(async () => {
  await api.close()
})

describe('the JSON-LD form of a credential (eddsa-rdfc-2022)', () => {
  for (const name of ['plain', 'with evidence and an expiry']) {
    it(`${name}: verifies with @digitalbazaar/vc and the eddsa-rdfc-2022 cryptosuite through the did:web document served here`, async () => {
      const secured = await secure(credential(name))
      const result = await verifyDataIntegrity(secured, get)
      assert.equal(result.verified, true, JSON.stringify(result, null, 2))
      assert.equal(result.statusResult?.verified, true, 'not revoked')
      const method = result.results?.[0]?.verificationMethod
      assert.equal(method?.id, `${api.did}#${(await activeKey()).kid}`)
      assert.equal(method?.type, 'Multikey')
      assert.match(String(method?.publicKeyMultibase), /^z6Mk/)
    })
  }

  it('is the same credential, member for member, with a DataIntegrityProof of the club Ed25519 key for assertionMethod', async () => {
    const unsecured = credential('with evidence and an expiry')
    const secured = await secure(unsecured)
    const { proof, ...rest } = secured
    assert.deepStrictEqual(rest, unsecured)
    assert.deepStrictEqual(Object.keys(secured), [...Object.keys(unsecured), 'proof'])
    const key = await activeKey()
    assert.deepStrictEqual(
      { ...(proof as Record<string, unknown>), proofValue: '…' },
      {
        type: 'DataIntegrityProof',
        created: unsecured.validFrom,
        verificationMethod: `${api.did}#${key.kid}`,
        cryptosuite: 'eddsa-rdfc-2022',
        proofPurpose: 'assertionMethod',
        proofValue: '…',
      },
    )
    // A 64-byte Ed25519 signature in base58btc is 86 to 88 characters after the multibase `z`.
    assert.match((proof as { proofValue: string }).proofValue, /^z[1-9A-HJ-NP-Za-km-z]{86,88}$/)
  })

  it('leaves the credential it is given unchanged, and signs the same credential with the same key to the same proof', async () => {
    const unsecured = credential('plain')
    const first = await secure(unsecured)
    assert.deepStrictEqual(unsecured, credentials.get('plain'))
    assert.deepStrictEqual(await secure(unsecured), first, 'Ed25519 is deterministic and created is validFrom')
  })

  it('a copy with one changed member, or a changed proof, does not verify', async () => {
    const secured = await secure(credential('with evidence and an expiry'))
    const tampered: [string, (copy: Json) => void][] = [
      ['the achievement name', (copy) => (copy.credentialSubject.achievement.name = '체스 고급')],
      ['the recipient hash', (copy) => (copy.credentialSubject.identifier[0].identityHash = `sha256$${'0'.repeat(64)}`)],
      ['the expiry', (copy) => (copy.validUntil = '2099-01-01T00:00:00Z')],
      ['an evidence url', (copy) => (copy.evidence[0].id = 'https://chess.example/games/2')],
      ['the issuer name', (copy) => (copy.issuer.name = 'Another Club')],
      ['the proof created', (copy) => (copy.proof.created = '2020-01-01T00:00:00Z')],
    ]
    for (const [what, change] of tampered) {
      const copy = structuredClone(secured)
      change(copy)
      const result = await verifyDataIntegrity(copy, get)
      const proof = result.results?.[0]
      assert.equal(proof?.verified, false, `changed ${what}, yet its proof verifies`)
      assert.match(String((proof?.error as Error | undefined)?.message), /Invalid signature/, what)
      assert.equal(result.verified, false, `changed ${what}, yet it verifies`)
    }
    assert.equal((await verifyDataIntegrity(secured, get)).verified, true, 'the untouched one verifies')
  })

  it("a proof made with another Ed25519 key under the club key's id does not verify", async () => {
    const { publicKey, privateKey } = await generateKeyPair('Ed25519', { extractable: true })
    const clubKey = await activeKey()
    const impostor: SigningKey = { ...clubKey, publicJwk: await exportJWK(publicKey), privateKey, privateJwk: await exportJWK(privateKey) }
    const forged = await secure(credential('plain'), impostor)
    assert.equal((forged.proof as { verificationMethod: string }).verificationMethod, `${api.did}#${clubKey.kid}`)
    const result = await verifyDataIntegrity(forged, get)
    assert.equal(result.verified, false)
    assert.match(String((result.results?.[0]?.error as Error | undefined)?.message), /Invalid signature/)
  })

  it('a revoked credential fails its status check while its proof still verifies', async () => {
    const [id] = await issueTo(api, await createTemplate(api, { name: 'Revoked' }), members(1, 'revoked'))
    await api.issuer.worker.drain()
    const unsecured = decodeJwt<{ vc: CredentialObject }>((await credentialOf(api, id!)).jwt).vc
    expectStatus(await api.call('POST', clubPaths(api.club).revoke(id!)), 200, 'revoke')
    const result = await verifyDataIntegrity(await secure(unsecured), get)
    assert.equal(result.results?.[0]?.verified, true, 'the proof')
    assert.equal(result.statusResult?.verified, false, 'the status')
    assert.equal(result.verified, false)
  })

  it('after a key rotation the new proof names the new key, and a proof of the old key still verifies', async () => {
    const before = await secure(credential('plain'))
    const oldKey = await activeKey()
    await api.issuer.keys.rotate(api.club)
    const newKey = await activeKey()
    assert.notEqual(newKey.kid, oldKey.kid)
    const after = await secure(credential('plain'))
    assert.equal((after.proof as { verificationMethod: string }).verificationMethod, `${api.did}#${newKey.kid}`)
    assert.equal((await verifyDataIntegrity(after, get)).verified, true, 'signed after the rotation')
    assert.equal((await verifyDataIntegrity(before, get)).verified, true, 'signed before the rotation')
  })

  it('expands in JSON-LD safe mode over the published contexts, the proof included', async () => {
    const secured = await secure(credential('with evidence and an expiry'))
    const [expanded] = await jsonld.expand(secured, { safe: true, documentLoader: verifierLoader(get) })
    const proof = (expanded!['https://w3id.org/security#proof'] as { '@graph': Record<string, unknown>[] }[])[0]!['@graph'][0]!
    assert.deepStrictEqual(proof['@type'], ['https://w3id.org/security#DataIntegrityProof'])
    assert.deepStrictEqual(proof['https://w3id.org/security#cryptosuite'], [
      { '@value': 'eddsa-rdfc-2022', '@type': 'https://w3id.org/security#cryptosuiteString' },
    ])
    assert.deepStrictEqual(proof['https://w3id.org/security#proofPurpose'], [{ '@id': 'https://w3id.org/security#assertionMethod' }])
  })

  it('signs in safe mode: a member no context defines is refused, not left out of the signature', async () => {
    const unsecured = credential('plain')
    ;(unsecured.credentialSubject as Record<string, unknown>).nickname = 'the rook'
    await assert.rejects(secure(unsecured), /safe mode/i)
  })

  it('loads contexts only from the copies clubcred holds: a context URL it does not hold is refused, naming it', async () => {
    const unsecured = credential('plain')
    unsecured['@context'] = [...(unsecured['@context'] as unknown[]), 'https://example.org/elsewhere/context.jsonld']
    await assert.rejects(secure(unsecured), (error: Error & { details?: { cause?: Error } }) => {
      assert.match(`${error.message} ${error.details?.cause?.message}`, /https:\/\/example\.org\/elsewhere\/context\.jsonld is not one clubcred holds/)
      return true
    })
  })

  it("refuses the club's ES256 key, and a credential that has a proof or no validFrom", async () => {
    const jwtKey = await api.keys.activeKey(`club:${api.club}`)
    await assert.rejects(secure(credential('plain'), jwtKey), /Ed25519 key, not an ES256 key/)
    await assert.rejects(secure(await secure(credential('plain'))), /already has a proof/)
    const { validFrom: _validFrom, ...undated } = credential('plain')
    await assert.rejects(secure(undated), /has no validFrom/)
  })
})
