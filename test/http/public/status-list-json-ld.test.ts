/**
 * The revocation list in both forms (docs/data-integrity.md § Status list; docs/api.md §4.11): the
 * VC-JWT to whoever does not ask, and the same Bitstring Status List credential as JSON-LD with an
 * `eddsa-rdfc-2022` proof to a request whose `Accept` names a JSON-LD media type. The JSON-LD form is
 * verified with Digital Bazaar's VC library through the did:web document served here, its bits decoded
 * by Digital Bazaar's Bitstring Status List implementation. On SQLite, over a real socket; the two-nodes
 * suite reads both forms on every storage that serves several nodes, PostgreSQL included.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { decodeJwt } from 'jose'
import { DataIntegrityProof } from '@digitalbazaar/data-integrity'
import { cryptosuite } from '@digitalbazaar/eddsa-rdfc-2022-cryptosuite'
import { verifyCredential } from '@digitalbazaar/vc'
import { decodeList } from '@digitalbazaar/vc-bitstring-status-list'
import { createDataIntegritySigner } from '../../../adapters/node/data-integrity-signer.ts'
import { jsonLdMediaType } from '../../../adapters/http/json-ld-negotiation.ts'
import { clubDataIntegrityKeyOwner } from '../../../core/did-documents/did.ts'
import type { DataIntegritySigner } from '../../../core/ports/data-integrity-signer.ts'
import { openVerificationApi, type RawResponse, type VerificationApi } from '../../support/api-harness.ts'
import { verifierLoader } from '../../support/data-integrity-verifier.ts'
import { clubPaths, createTemplate, credentialOf, expectStatus, issueTo, members, statusEntryOf } from '../../support/verification-steps.ts'
import type { Json } from '../../support/json.ts'

const paths = clubPaths()

/** The Node signer, counting the lists it is asked to sign. */
const nodeSigner = createDataIntegritySigner()
let proofsSigned = 0
const countingSigner: DataIntegritySigner = {
  signMany(key, verificationMethod, requests, documentLoader) {
    proofsSigned += requests.length
    return nodeSigner.signMany(key, verificationMethod, requests, documentLoader)
  },
}

let api: VerificationApi
let issuanceIds: number[]
before(async () => {
  api = await openVerificationApi({ listen: true, dataIntegritySigner: countingSigner })
  issuanceIds = await issueTo(api, await createTemplate(api), members(3))
  await api.issuer.worker.drain()
})
after(async () => {
  await api.close()
})

const get = (url: string) => api.get(url)
const index = async (id: number) => Number(statusEntryOf((await credentialOf(api, id)).jwt).statusListIndex)

/** Verifies a JSON-LD credential's proof as a verifier does; the status list has no status of its own. */
function verifyJsonLd(credential: unknown) {
  return verifyCredential({ credential, suite: new DataIntegrityProof({ cryptosuite }), documentLoader: verifierLoader(get) })
}

async function jsonLdList(accept = 'application/ld+json'): Promise<{ response: RawResponse; body: Json; bit: (index: number) => boolean }> {
  const response = await api.get(paths.statusList, { accept })
  assert.equal(response.status, 200, `${accept}: ${response.text}`)
  const list = await decodeList({ encodedList: response.body.credentialSubject.encodedList })
  return { response, body: response.body, bit: (at) => list.getStatus(at) }
}

describe('the status list as JSON-LD', () => {
  for (const [accept, contentType] of [
    ['application/ld+json', 'application/ld+json'],
    ['application/json', 'application/json'],
    ['application/vc', 'application/vc'],
    ['application/vc+ld+json', 'application/vc+ld+json'],
    // What @digitalcredentials/http-client sends, and so verifier-core and the Learner Credential Wallet.
    ['application/ld+json, application/json', 'application/ld+json'],
    ['application/vc+jwt;q=0.5, application/ld+json; profile="https://www.w3.org/ns/credentials/v2"', 'application/ld+json'],
  ]) {
    it(`Accept: ${accept} gets the list's credential as ${contentType}, with a DataIntegrityProof that verifies`, async () => {
      const { response, body } = await jsonLdList(accept)
      assert.equal(response.headers.get('content-type'), contentType)
      assert.equal(response.headers.get('vary'), 'Accept')
      assert.equal(response.headers.get('cache-control'), 'public, max-age=60, must-revalidate')
      assert.equal(response.headers.get('access-control-allow-origin'), '*')
      const key = await api.keys.activeKey(clubDataIntegrityKeyOwner(api.club))
      const { proof, ...credential } = body
      assert.deepStrictEqual(
        { ...proof, proofValue: '…' },
        {
          type: 'DataIntegrityProof',
          created: credential.validFrom,
          verificationMethod: `${api.did}#${key.kid}`,
          cryptosuite: 'eddsa-rdfc-2022',
          proofPurpose: 'assertionMethod',
          proofValue: '…',
        },
      )
      const jwt = await api.get(paths.statusList)
      assert.deepStrictEqual(credential, decodeJwt<{ vc: Json }>(jwt.text).vc, "the JWT's vc, member for member")
      const result = await verifyJsonLd(body)
      assert.equal(result.verified, true, JSON.stringify(result, null, 2))
      assert.equal(result.results?.[0]?.verificationMethod?.type, 'Multikey')
    })
  }

  // The credential's rule (docs/api.md §4.11): text/plain, or the JWT type named outright.
  for (const [accept, contentType] of [
    [undefined, 'text/plain; charset=utf-8'],
    ['application/jwt', 'application/jwt'],
    ['application/vc+jwt', 'application/vc+jwt'],
    ['*/*', 'text/plain; charset=utf-8'],
    ['application/*', 'text/plain; charset=utf-8'],
    ['text/plain', 'text/plain; charset=utf-8'],
    ['application/vc+jwt, application/ld+json;q=0.9', 'application/vc+jwt'],
    ['application/ld+json;q=0', 'text/plain; charset=utf-8'],
  ] as const) {
    it(`${accept === undefined ? 'no Accept' : `Accept: ${accept}`} gets the VC-JWT as before, with Vary: Accept`, async () => {
      const response = await api.get(paths.statusList, accept === undefined ? {} : { accept })
      assert.equal(response.status, 200)
      assert.equal(response.headers.get('content-type'), contentType)
      assert.equal(response.headers.get('vary'), 'Accept')
      assert.equal(decodeJwt<{ vc: Json }>(response.text).vc.type[1], 'BitstringStatusListCredential')
    })
  }

  it('a tampered copy does not verify: a revoked bit cleared, or another validFrom', async () => {
    const { body } = await jsonLdList()
    const cleared = structuredClone(body)
    cleared.credentialSubject.encodedList = 'u' + cleared.credentialSubject.encodedList.slice(1).replace(/.$/, (last: string) => (last === 'A' ? 'B' : 'A'))
    const redated = { ...structuredClone(body), validFrom: '2020-01-01T00:00:00Z' }
    for (const copy of [cleared, redated]) assert.equal((await verifyJsonLd(copy)).verified, false)
  })

  it('a revocation shows in both forms at once, each form with its own ETag; a 304 never crosses forms', async () => {
    const at = await index(issuanceIds[0]!)
    const before = await jsonLdList()
    const jwtBefore = await api.get(paths.statusList)
    const ldTag = before.response.headers.get('etag')!
    const jwtTag = jwtBefore.headers.get('etag')!
    assert.match(ldTag, /^W\/"[0-9a-f]+-ld"$/)
    assert.notEqual(ldTag, jwtTag)
    assert.equal(before.bit(at), false)

    // Each form revalidates with its own tag, 304 with Vary; the other form's tag gets the full answer.
    const notModified = await api.get(paths.statusList, { accept: 'application/ld+json', 'if-none-match': ldTag })
    assert.equal(notModified.status, 304)
    assert.equal(notModified.text, '')
    assert.deepStrictEqual(
      ['etag', 'vary', 'cache-control'].map((name) => notModified.headers.get(name)),
      [ldTag, 'Accept', 'public, max-age=60, must-revalidate'],
    )
    assert.equal((await api.get(paths.statusList, { 'if-none-match': jwtTag })).status, 304)
    const crossed = await api.get(paths.statusList, { accept: 'application/ld+json', 'if-none-match': jwtTag })
    assert.equal(crossed.status, 200, 'the JWT tag does not match the JSON-LD form')
    assert.equal(crossed.headers.get('content-type'), 'application/ld+json')
    const crossedBack = await api.get(paths.statusList, { 'if-none-match': ldTag })
    assert.equal(crossedBack.status, 200, 'the JSON-LD tag does not match the JWT form')
    assert.equal(crossedBack.headers.get('content-type'), 'text/plain; charset=utf-8')

    expectStatus(await api.call('POST', paths.revoke(issuanceIds[0]!)), 200, 'revoke')
    const changed = await api.get(paths.statusList, { accept: 'application/ld+json', 'if-none-match': ldTag })
    assert.equal(changed.status, 200, 'the old JSON-LD tag no longer matches')
    const after = await jsonLdList()
    assert.equal(after.bit(at), true, 'the JSON-LD list has the bit at once')
    assert.equal((await verifyJsonLd(after.body)).verified, true)
    const jwtAfter = await api.get(paths.statusList)
    const jwtList = await decodeList({ encodedList: decodeJwt<{ vc: Json }>(jwtAfter.text).vc.credentialSubject.encodedList })
    assert.equal(jwtList.getStatus(at), true, 'the JWT list has it too')
    assert.equal(after.body.credentialSubject.encodedList, decodeJwt<{ vc: Json }>(jwtAfter.text).vc.credentialSubject.encodedList)
    const newTag = after.response.headers.get('etag')!
    assert.notEqual(newTag, ldTag)
    assert.notEqual(newTag, jwtAfter.headers.get('etag'))
    assert.equal((await api.get(paths.statusList, { accept: 'application/ld+json', 'if-none-match': newTag })).status, 304)
  })

  it('is signed once per revoked set and key, not per request: concurrent requests share one signature', async () => {
    await jsonLdList()
    const before = proofsSigned
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => api.get(paths.statusList, { accept: i % 2 ? 'application/ld+json' : 'application/vc' })),
    )
    assert.ok(answers.every((answer) => answer.status === 200))
    assert.equal(proofsSigned, before, 'nothing changed: no signature')
    assert.equal(new Set(answers.map((answer) => answer.text)).size, 1, 'the same bytes')

    expectStatus(await api.call('POST', paths.revoke(issuanceIds[1]!)), 200, 'revoke')
    const afterRevoke = await Promise.all(Array.from({ length: 20 }, () => api.get(paths.statusList, { accept: 'application/ld+json' })))
    assert.equal(new Set(afterRevoke.map((answer) => answer.text)).size, 1)
    assert.equal(proofsSigned, before + 1, 'one signature for the new revoked set, however many ask')

    await api.issuer.keys.rotate(api.club)
    const key = await api.keys.activeKey(clubDataIntegrityKeyOwner(api.club))
    const rotated = await jsonLdList()
    assert.equal(proofsSigned, before + 2, 'signed again with the new key')
    assert.equal(rotated.body.proof.verificationMethod, `${api.did}#${key.kid}`)
    assert.equal((await verifyJsonLd(rotated.body)).verified, true)
    assert.equal(rotated.response.headers.get('etag'), afterRevoke[0]!.headers.get('etag'), 'the same entries, the same weak validator')
    await jsonLdList()
    assert.equal(proofsSigned, before + 2)
  })

  it('an unknown club has no list in either form: 404 problem+json', async () => {
    const response = await api.get('/open-badges/v3/issuers/no-such-club/status-lists/revocation', { accept: 'application/ld+json' })
    assert.equal(response.status, 404)
    assert.equal(response.headers.get('content-type'), 'application/problem+json')
  })
})

describe('an issuer without a Data Integrity signer', () => {
  it('answers the VC-JWT to every Accept', async () => {
    const plain = await openVerificationApi({ dataIntegritySigner: null })
    try {
      await issueTo(plain, await createTemplate(plain), members(1))
      await plain.issuer.worker.drain()
      const response = await plain.get(paths.statusList, { accept: 'application/ld+json' })
      assert.equal(response.status, 200)
      assert.equal(response.headers.get('content-type'), 'text/plain; charset=utf-8')
      assert.equal(response.headers.get('vary'), 'Accept')
    } finally {
      await plain.close()
    }
  })
})

describe('jsonLdMediaType: which Accept values mean the JSON-LD form', () => {
  const asked = (accept?: string) => jsonLdMediaType(new Request('http://localhost/', accept === undefined ? {} : { headers: { accept } }))
  it('the four JSON-LD media types, by weight; the JWT when it weighs more, or for wildcards and nothing', () => {
    assert.equal(asked('application/json;q=0.2, application/vc;q=0.8'), 'application/vc')
    assert.equal(asked('application/json, application/ld+json'), 'application/ld+json', 'a tie goes to the earlier of the list')
    assert.equal(asked('APPLICATION/LD+JSON'), 'application/ld+json')
    assert.equal(asked('application/jwt, application/json'), 'application/json', 'named with the same weight: JSON-LD')
    assert.equal(asked('application/jwt, application/json;q=0.9'), null)
    assert.equal(asked('application/ld+json;q=x'), null, 'an unreadable weight ignores the range')
    assert.equal(asked('*/*'), null)
    assert.equal(asked(), null)
  })
})
