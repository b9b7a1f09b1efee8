/**
 * The credential route negotiates (docs/api.md §4.11, docs/data-integrity.md § Negotiation): an Accept
 * preferring a JSON-LD type gets the JSON-LD form, the JWT's credential with its Data Integrity proof,
 * verified here with Digital Bazaar's VC library; anything else gets the JWT as always. A proof still to be
 * made answers 409 to the JSON-LD form, a credential signed before proofs its JWT to every Accept, and
 * every answer varies on Accept.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { decodeJwt } from 'jose'
import { openVerificationApi, type RawResponse, type VerificationApi } from '../../support/api-harness.ts'
import { verifyDataIntegrity } from '../../support/data-integrity-verifier.ts'
import { clubPaths, createTemplate, credentialOf, expectStatus, issueTo, members } from '../../support/verification-steps.ts'

const paths = clubPaths()

/** Accept values that prefer the JSON-LD form, and the Content-Type each is answered with. */
const JSON_LD_ACCEPTS: [accept: string, contentType: string][] = [
  ['application/ld+json', 'application/ld+json'],
  ['application/vc+ld+json', 'application/vc+ld+json'],
  ['application/vc', 'application/vc'],
  ['application/json', 'application/json'],
  ['application/ld+json; profile="https://www.w3.org/ns/credentials/v2", */*;q=0.5', 'application/ld+json'],
  ['text/plain;q=0.2, application/vc;q=0.9', 'application/vc'],
  // Named with the weight of the JWT types (the default Accept of common HTTP libraries): named, so JSON-LD.
  ['application/json, text/plain, */*', 'application/json'],
]

/** Accept values that keep the JWT: none, anything, the JWT's types, a JWT type weighed higher, and the JSON-LD types refused. */
const JWT_ACCEPTS: (string | null)[] = [
  null,
  '*/*',
  'text/plain',
  'application/jwt',
  'application/vc+jwt',
  'application/ld+json;q=0.5, application/jwt',
  'application/ld+json;q=0, */*',
  'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
]

/**
 * The JWT's Content-Type for the Accept values above that name a JWT type outright: that type (docs/api.md §4.11). Every other Accept gets `text/plain` (the interface spec's type for it), the status list's too.
 */
const NAMED_JWT_TYPES = new Map<string | null, string>([
  ['text/plain', 'text/plain; charset=utf-8'],
  ['application/jwt', 'application/jwt'],
  ['application/vc+jwt', 'application/vc+jwt'],
  ['application/ld+json;q=0.5, application/jwt', 'application/jwt'],
  ['text/plain;q=0.2, application/vc;q=0.9', 'text/plain; charset=utf-8'],
  ['application/json, text/plain, */*', 'text/plain; charset=utf-8'],
])

let api: VerificationApi
let issuanceIds: number[]

before(async () => {
  api = await openVerificationApi({ proofs: true })
  issuanceIds = await issueTo(api, await createTemplate(api, { name: 'Endgame technique' }), members(4, 'negotiated'))
  await api.issuer.worker.drain()
})
after(() => api.close())

function get(credentialId: string, accept: string | null, headers: Record<string, string> = {}): Promise<RawResponse> {
  return api.get(paths.jwt(credentialId), { ...(accept === null ? {} : { accept }), ...headers })
}

function assertVariesOnAccept(response: RawResponse, what: string): void {
  const vary = (response.headers.get('vary') ?? '').split(',').map((name) => name.trim().toLowerCase())
  assert.ok(vary.includes('accept'), `${what}: Vary names Accept (${response.headers.get('vary')})`)
}

function assertJwt(response: RawResponse, jwt: string, id: string, what: string, accept: string | null): void {
  assert.equal(response.status, 200, `${what}: ${response.text}`)
  assert.equal(response.headers.get('content-type'), NAMED_JWT_TYPES.get(accept) ?? 'text/plain; charset=utf-8', what)
  assert.equal(response.text, jwt, `${what}: the stored JWT`)
  assert.equal(response.headers.get('etag'), `"${id}"`, `${what}: the JWT's ETag`)
  assertVariesOnAccept(response, what)
}

describe('the JSON-LD form of a credential', () => {
  it('every Accept preferring a JSON-LD type gets the JWT credential with a proof that verifies, as the type asked for', async () => {
    const { id, jwt } = await credentialOf(api, issuanceIds[0]!)
    const etags = new Set<string>()
    for (const [accept, contentType] of JSON_LD_ACCEPTS) {
      const response = await get(id, accept)
      assert.equal(response.status, 200, `${accept}: ${response.text}`)
      assert.equal(response.headers.get('content-type'), contentType, accept)
      assertVariesOnAccept(response, accept)
      assert.equal(response.headers.get('access-control-allow-origin'), '*')
      assert.match(response.headers.get('cache-control') ?? '', /\bimmutable\b/, 'a proof once stored never changes')
      const { proof, ...credential } = response.body as Record<string, unknown>
      assert.deepStrictEqual(credential, decodeJwt(jwt).vc, `${accept}: the credential of the JWT, member for member`)
      assert.equal((proof as { cryptosuite: string }[])[0]!.cryptosuite, 'eddsa-rdfc-2022')
      const result = await verifyDataIntegrity(response.body, (url) => api.get(url))
      assert.equal(result.verified, true, JSON.stringify(result, null, 2))
      etags.add(`${contentType} ${response.headers.get('etag')}`)
    }
    const byType = new Map([...etags].map((entry) => entry.split(' ') as [string, string]))
    assert.equal(new Set(byType.values()).size, 4, `one ETag per media type: ${[...etags].join(', ')}`)
    assert.ok(![...byType.values()].includes(`"${id}"`), "none is the JWT's")
  })

  it('no Accept, */*, the JWT types, a JWT type weighed higher and a refused JSON-LD type get the JWT, varying on Accept', async () => {
    const { id, jwt } = await credentialOf(api, issuanceIds[1]!)
    for (const accept of JWT_ACCEPTS) assertJwt(await get(id, accept), jwt, id, `Accept ${accept}`, accept)
  })

  it('each form revalidates with its own ETag: a 304 for its own, never for the other form', async () => {
    const { id } = await credentialOf(api, issuanceIds[1]!)
    const jsonLd = await get(id, 'application/ld+json')
    const jsonLdTag = jsonLd.headers.get('etag')!
    const notModified = await get(id, 'application/ld+json', { 'if-none-match': jsonLdTag })
    assert.equal(notModified.status, 304)
    assert.equal(notModified.text, '')
    assertVariesOnAccept(notModified, '304 of the JSON-LD form')
    assert.equal((await get(id, null, { 'if-none-match': jsonLdTag })).status, 200, "the JWT is not the JSON-LD form's version")
    assert.equal((await get(id, 'application/ld+json', { 'if-none-match': `"${id}"` })).status, 200, "the JSON-LD form is not the JWT's version")
    const jwtNotModified = await get(id, 'text/plain', { 'if-none-match': `"${id}"` })
    assert.equal(jwtNotModified.status, 304)
    assertVariesOnAccept(jwtNotModified, '304 of the JWT')
  })

  it('a revoked credential is served in both forms as before; its JSON-LD form then fails verification on its status', async () => {
    const { id, jwt } = await credentialOf(api, issuanceIds[2]!)
    expectStatus(await api.call('POST', paths.revoke(issuanceIds[2]!), { reason: 'Awarded by mistake' }), 200, 'revoke')
    assertJwt(await get(id, null), jwt, id, 'revoked, JWT', null)
    const response = await get(id, 'application/ld+json')
    assert.equal(response.status, 200)
    const result = await verifyDataIntegrity(response.body, (url) => api.get(url))
    assert.equal(result.verified, false, 'revoked')
  })

  it('while its proof is being made: 409 credential-pending to a request for JSON-LD only, the JWT (not kept) to one that takes it too, never a form without a proof', async () => {
    const { id, jwt } = await credentialOf(api, issuanceIds[3]!)
    api.sql('UPDATE credentials SET proof = NULL, proof_lease_until = NULL WHERE id = ?', id)
    const takesTheJwtToo = (accept: string) => /\*\/\*|text\/plain/.test(accept)
    for (const [accept] of JSON_LD_ACCEPTS.filter(([accept]) => takesTheJwtToo(accept))) {
      const response = await get(id, accept)
      assert.equal(response.status, 200, `${accept}: ${response.text}`)
      assert.equal(response.text, jwt, `${accept}: the JWT meanwhile`)
      assert.equal(response.headers.get('cache-control'), 'no-cache', `${accept}: revalidated, so the JSON-LD form replaces it once made`)
      assertVariesOnAccept(response, `pending ${accept}`)
    }
    assert.ok(
      JSON_LD_ACCEPTS.some(([accept]) => takesTheJwtToo(accept)),
      'some Accept takes the JWT too',
    )
    for (const [accept] of JSON_LD_ACCEPTS.filter(([accept]) => !takesTheJwtToo(accept))) {
      const response = await get(id, accept)
      assert.equal(response.status, 409, `${accept}: ${response.text}`)
      assert.equal(response.headers.get('content-type'), 'application/problem+json')
      assert.equal(response.body.code, 'credential-pending')
      assert.equal(response.headers.get('retry-after'), '5')
      assert.equal(response.headers.get('cache-control'), 'no-store', 'a cache must not keep the wait')
      assert.equal(response.headers.get('access-control-allow-origin'), '*')
      assertVariesOnAccept(response, `pending ${accept}`)
    }
    for (const accept of JWT_ACCEPTS) assertJwt(await get(id, accept), jwt, id, `pending, Accept ${accept}`, accept)

    await api.issuer.worker.drain()
    const ready = await get(id, 'application/ld+json')
    assert.equal(ready.status, 200, 'made in the background, then served')
    const revalidated = await get(id, 'application/json, text/plain, */*', { 'if-none-match': `"${id}"` })
    assert.equal(revalidated.status, 200, 'the JWT kept meanwhile does not revalidate as the JSON-LD form')
    assert.equal(revalidated.headers.get('content-type'), 'application/json')
    assert.equal((await verifyDataIntegrity(ready.body, (url) => api.get(url))).verified, true)
  })

  it('a credential signed before proofs existed answers its JWT to every Accept', async () => {
    const { id, jwt } = await credentialOf(api, issuanceIds[0]!)
    api.sql("UPDATE credentials SET proof = '' WHERE id = ?", id)
    for (const [accept] of JSON_LD_ACCEPTS) assertJwt(await get(id, accept), jwt, id, `no proof, Accept ${accept}`, accept)
    for (const accept of JWT_ACCEPTS) assertJwt(await get(id, accept), jwt, id, `no proof, Accept ${accept}`, accept)
  })

  it('an unknown credential is 404 credential-not-found for every Accept, varying on Accept too', async () => {
    for (const accept of ['application/ld+json', 'text/plain']) {
      const response = await get('00000000-0000-4000-8000-000000000000', accept)
      assert.equal(response.status, 404)
      assert.equal(response.body.code, 'credential-not-found')
      assertVariesOnAccept(response, `404 ${accept}`)
    }
  })
})
