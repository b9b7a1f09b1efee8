import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { decodeJwt } from 'jose'
import { openVerificationApi, type RawResponse, type VerificationApi } from '../../support/api-harness.ts'
import { clubPaths, createTemplate, credentialOf, detailOf, expectStatus, issueTo, members, statusEntryOf } from '../../support/verification-steps.ts'
import { fetchStatusList, verifyWithDidDocument } from '../../support/verification-status-list.ts'
import type { Json } from '../../support/json.ts'

/**
 * The public verification surface over a real socket (docs/api.md §4.11; docs/decisions/0019-verification-and-revocation.md § Caching and CORS):
 * no authentication, readable from any origin, and cached as each resource allows: the JWT
 * forever (it never changes), the verdict and the revocation list briefly and revalidated by ETag, the DID
 * document by ETag.
 */

const paths = clubPaths()

let api: VerificationApi
let issuanceIds: number[]
let pointer: { id: string; jwtUrl: string; verifyUrl: string }
before(async () => {
  api = await openVerificationApi({ listen: true })
  const templateId = await createTemplate(api)
  issuanceIds = await issueTo(api, templateId, members(3))
  await api.issuer.worker.drain()
  pointer = (await detailOf(api, issuanceIds[0]!)).credential
})
after(async () => {
  await api.close()
})

/** `max-age` of a Cache-Control value, or null. */
function maxAge(response: RawResponse): number | null {
  const match = /(?:^|,)\s*max-age=(\d+)/.exec(response.headers.get('cache-control') ?? '')
  return match ? Number(match[1]) : null
}

function assertCors(response: RawResponse, what: string): void {
  assert.equal(response.headers.get('access-control-allow-origin'), '*', `${what}: Access-Control-Allow-Origin`)
}

/** A 304 to `If-None-Match: <etag>`, with no body and the same ETag. */
async function assertNotModified(url: string, etag: string, what: string): Promise<void> {
  const response = await api.get(url, { 'if-none-match': etag })
  assert.equal(response.status, 304, `${what}: 304 to If-None-Match ${etag}`)
  assert.equal(response.text, '', `${what}: no body on 304`)
  assert.equal(response.headers.get('etag'), etag)
  assert.ok(response.headers.get('cache-control'), `${what}: Cache-Control on 304`)
  assertCors(response, `${what} 304`)
  // If-None-Match compares weakly (RFC 9110 §13.1.2): a cache that weakened the tag still revalidates.
  const weak = etag.startsWith('W/') ? etag.slice(2) : `W/${etag}`
  assert.equal((await api.get(url, { 'if-none-match': weak })).status, 304, `${what}: weak comparison`)
  // A list of tags, and `*`, match too; another tag does not.
  assert.equal((await api.get(url, { 'if-none-match': `"other", ${etag}` })).status, 304, `${what}: in a list`)
  assert.equal((await api.get(url, { 'if-none-match': '*' })).status, 304, `${what}: *`)
  assert.equal((await api.get(url, { 'if-none-match': '"something-else"' })).status, 200, `${what}: another tag`)
}

describe('the credential JWT', () => {
  it('is text/plain (application/vc+jwt when asked for), immutable, with an ETag and 304 on If-None-Match', async () => {
    assert.equal(pointer.jwtUrl, `${api.origin}${paths.jwt(pointer.id)}`)
    const response = await api.get(pointer.jwtUrl)
    assert.equal(response.status, 200)
    assert.equal(response.headers.get('content-type'), 'text/plain; charset=utf-8')
    assert.equal((await api.get(pointer.jwtUrl, { accept: 'application/vc+jwt' })).headers.get('content-type'), 'application/vc+jwt')
    const cacheControl = response.headers.get('cache-control') ?? ''
    assert.match(cacheControl, /\bimmutable\b/)
    assert.match(cacheControl, /\bpublic\b/)
    assert.ok((maxAge(response) ?? 0) >= 86_400 * 365, `long max-age: ${cacheControl}`)
    assert.equal(response.text, (await credentialOf(api, issuanceIds[0]!)).jwt, 'the stored JWT, nothing else')
    assert.match(response.text, /^[\w-]+\.[\w-]+\.[\w-]+$/)
    const etag = response.headers.get('etag')
    assert.ok(etag, 'an ETag')
    assertCors(response, 'JWT')
    await assertNotModified(pointer.jwtUrl, etag, 'JWT')
  })

  it('each credential has its own ETag', async () => {
    const etags = new Set<string>()
    for (const id of issuanceIds) {
      const { credential } = await detailOf(api, id)
      etags.add((await api.get(credential.jwtUrl)).headers.get('etag')!)
    }
    assert.equal(etags.size, issuanceIds.length)
  })

  it('an unknown credential id is 404 problem+json credential-not-found', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope', '%E2%9C%93']) {
      const response = await api.get(paths.jwt(id))
      assert.equal(response.status, 404, id)
      assert.equal(response.headers.get('content-type'), 'application/problem+json')
      assert.equal(response.body.code, 'credential-not-found')
      assert.equal(response.body.status, 404)
      assertCors(response, `JWT 404 ${id}`)
    }
  })
})

describe('the verdict', () => {
  it('is JSON with a short, revalidated max-age, readable from any origin', async () => {
    assert.equal(pointer.verifyUrl, `${api.origin}${paths.verify(issuanceIds[0]!)}`)
    const response = await api.get(pointer.verifyUrl)
    assert.equal(response.status, 200)
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/)
    const age = maxAge(response)
    assert.ok(age !== null && age <= 60, `short max-age: ${response.headers.get('cache-control')}`)
    assert.doesNotMatch(response.headers.get('cache-control') ?? '', /immutable/)
    assertCors(response, 'verdict')
    assert.equal(response.body.isValid, true)
  })

  it('an unknown issuance is a 404 verdict, also readable from any origin', async () => {
    const response = await api.get(paths.verify(987_654))
    assert.equal(response.status, 404)
    assert.deepStrictEqual(response.body, { statusCode: 404, isValid: false, status: null, issuerVerified: false, payload: null })
    assertCors(response, 'verdict 404')
  })
})

describe('the DID document', () => {
  it('is application/did+json with an ETag, 304 on If-None-Match, and a new ETag after a key rotation', async () => {
    const response = await api.get(paths.didDocument)
    assert.equal(response.status, 200)
    assert.match(response.headers.get('content-type') ?? '', /^application\/(did\+)?json/)
    assertCors(response, 'did.json')
    assert.equal(response.body.id, api.did)
    assert.ok(maxAge(response) !== null, 'a max-age')
    const etag = response.headers.get('etag')!
    assert.ok(etag)
    await assertNotModified(paths.didDocument, etag, 'did.json')
    assert.equal((await api.get(paths.didDocument)).headers.get('etag'), etag, 'stable while nothing changes')

    await api.issuer.keys.rotate(api.club)
    const rotated = await api.get(paths.didDocument, { 'if-none-match': etag })
    assert.equal(rotated.status, 200, 'the old ETag no longer matches')
    assert.notEqual(rotated.headers.get('etag'), etag)
    const jwtKeys = rotated.body.verificationMethod.filter((method: { type: string }) => method.type === 'JsonWebKey2020')
    assert.equal(jwtKeys.length, 2, 'the old VC-JWT key and the new one')
  })

  it('an unknown club is 404 problem+json club-not-found', async () => {
    const response = await api.get('/open-badges/v3/issuers/no-such-club/did.json')
    assert.equal(response.status, 404)
    assert.equal(response.headers.get('content-type'), 'application/problem+json')
    assert.equal(response.body.code, 'club-not-found')
    assertCors(response, 'did.json 404')
  })
})

describe('the revocation list', () => {
  it('is a VC-JWT with a short max-age and an ETag; revoking changes the ETag and re-signs the list', async () => {
    const url = statusEntryOf((await credentialOf(api, issuanceIds[1]!)).jwt).statusListCredential
    assert.equal(url, api.origin + paths.statusList)
    const first = await fetchStatusList(api.get, url)
    const response = first.response
    assert.match(response.headers.get('content-type') ?? '', /^text\/plain/)
    const age = maxAge(response)
    assert.ok(age !== null && age <= 300, `short max-age: ${response.headers.get('cache-control')}`)
    assert.doesNotMatch(response.headers.get('cache-control') ?? '', /immutable/)
    assertCors(response, 'status list')
    const etag = response.headers.get('etag')!
    assert.ok(etag)
    await assertNotModified(url, etag, 'status list')
    const same = await api.get(url)
    assert.equal(same.headers.get('etag'), etag)
    assert.equal(same.text, first.jwt, 'not re-signed while nothing changed')

    expectStatus(await api.call('POST', paths.revoke(issuanceIds[1]!)), 200, 'revoke')
    const changed = await api.get(url, { 'if-none-match': etag })
    assert.equal(changed.status, 200, 'the old ETag no longer matches')
    const newTag = changed.headers.get('etag')!
    assert.notEqual(newTag, etag)
    assert.notEqual(changed.text, first.jwt, 're-signed')
    const second = await fetchStatusList(api.get, url)
    const index = Number(statusEntryOf((await credentialOf(api, issuanceIds[1]!)).jwt).statusListIndex)
    assert.deepEqual([first.list.getStatus(index), second.list.getStatus(index)], [false, true])
    const didDocument = expectStatus(await api.get(paths.didDocument), 200)
    await verifyWithDidDocument(second.jwt, didDocument)
    await assertNotModified(url, newTag, 'status list after revocation')

    // Revoking the same issuance again changes nothing, so the ETag stays.
    expectStatus(await api.call('POST', paths.revoke(issuanceIds[1]!)), 200, 'revoke again')
    assert.equal((await api.get(url)).headers.get('etag'), newTag)
  })

  it('a strong ETag names one byte sequence: a list signed again for the same entries (restart, second process) has a weak one', async () => {
    // Another issuer on the same database signs the same set of revoked entries afresh: other bytes
    // (its own validFrom, a new ECDSA signature) under the same ETag, which RFC 9110 §8.8.1 allows
    // only for a weak validator.
    const here = await api.get(paths.statusList)
    const sibling = api.sibling()
    const there = await sibling.fetch(new Request(api.origin + paths.statusList))
    const thereText = await there.text()
    assert.equal(there.status, 200)
    assert.equal(there.headers.get('etag'), here.headers.get('etag'), 'the same entries, the same validator')
    if (thereText !== here.text) assert.match(here.headers.get('etag')!, /^W\//, 'different bytes under one ETag: it must be weak')
    // Both are genuine lists of the same entries.
    const didDocument = expectStatus(await api.get(paths.didDocument), 200)
    await verifyWithDidDocument(thereText, didDocument)
    assert.equal(decodeJwt<{ vc: Json }>(thereText).vc.credentialSubject.encodedList, decodeJwt<{ vc: Json }>(here.text).vc.credentialSubject.encodedList)
  })

  it('an unknown club has no list: 404 problem+json', async () => {
    const response = await api.get('/open-badges/v3/issuers/no-such-club/status-lists/revocation')
    assert.equal(response.status, 404)
    assert.equal(response.headers.get('content-type'), 'application/problem+json')
    assertCors(response, 'status list 404')
  })
})

describe('no authentication anywhere on the public surface', () => {
  it('every route answers without an Authorization header, and a bad one changes nothing', async () => {
    const urls = [pointer.jwtUrl, pointer.verifyUrl, paths.didDocument, paths.statusList]
    for (const url of urls) {
      const bare = await api.get(url)
      assert.equal(bare.status, 200, `${url} without Authorization`)
      assert.equal(bare.headers.get('www-authenticate'), null)
      const garbage = await api.get(url, { authorization: 'Bearer not-a-token' })
      assert.equal(garbage.status, 200, `${url} with a bad token`)
    }
  })

  it('the cheapest route of the router, an unknown path, is a 404 problem', async () => {
    const response = await api.get('/nope')
    assert.equal(response.status, 404)
    assert.equal(response.body.code, 'route-not-found')
  })
})

describe('CORS preflight on the public surface', () => {
  it('answers OPTIONS with 204 allowing GET and If-None-Match from any origin; the club API gets no preflight', async () => {
    const preflight = await api.issuer.fetch(
      new Request(pointer.verifyUrl, {
        method: 'OPTIONS',
        headers: { origin: 'https://verifier.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'if-none-match' },
      }),
    )
    assert.equal(preflight.status, 204)
    assert.equal(preflight.headers.get('access-control-allow-origin'), '*')
    assert.match(preflight.headers.get('access-control-allow-methods') ?? '', /GET/)
    assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /If-None-Match/i)
    const clubApi = await api.issuer.fetch(new Request(new URL('/v2/clubs/chess/', pointer.verifyUrl), { method: 'OPTIONS' }))
    assert.equal(clubApi.status, 405)
    assert.equal(clubApi.headers.get('access-control-allow-origin'), null)
  })
})

describe('skill pages (alignment targets)', () => {
  it("every alignment's targetUrl resolves to the skill it names, a Hangul tag too", async () => {
    for (const tag of ['chess', '전략 게임']) {
      const url = `${new URL(pointer.verifyUrl).origin}/skills/${encodeURIComponent(tag)}`
      const response = await api.issuer.fetch(new Request(url))
      assert.equal(response.status, 200)
      assert.equal(response.headers.get('access-control-allow-origin'), '*')
      assert.deepEqual(await response.json(), { id: url, type: 'ext:SkillTag', name: tag })
    }
  })
})
