/**
 * The OpenAPI document is true of the answers: every operation it lists is called on a real issuer (a
 * fresh SQLite file, in-process through `issuer.fetch`), and each answer, successes and errors alike,
 * validates against the response the document declares for its status and media type, in a closed
 * world (test/support/openapi-responses.ts): a member the server sends that the document does not name
 * fails, as does a member the document requires that the server leaves out.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { toBase64Url } from '../../../core/crypto/base64url.ts'
import { STATUS_LIST_SIZE } from '../../../core/status-lists/allocate-index.ts'
import { JSON_LD_MEDIA_TYPES } from '../../../adapters/http/json-ld-negotiation.ts'
import { openApi, type Api } from '../../support/api-harness.ts'
import { ORIGIN } from '../../support/origin.ts'
import { newApiKey, svgBase64 } from '../../support/legacy-forms.ts'
import { closed, isJson, responseChecker, type ResponseChecker } from '../../support/openapi-responses.ts'
import { clientCredentialsGrant } from '../../support/tokens.ts'
import { deepLinkFromRequestPage, didAuthentication, legacyRequestParams, mintProfile } from '../../support/lcw-wallet.ts'
import { createPresentationVerifier } from '../../../adapters/node/presentation-verifier.ts'
import type { Achievement, BatchItem, BatchResult, Design, IssuanceDetail, Verdict } from '../../../client/index.ts'

const PRE_AUTHORIZED = 'urn:ietf:params:oauth:grant-type:pre-authorized_code'

interface Sent<Body> {
  status: number
  headers: Headers
  text: string
  /** The JSON body as the client types it (`clubcred/client`), or `null` when not JSON. */
  json: Body
}

interface OpenApiDocument {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>
}

let api: Api
let document: OpenApiDocument
let checker: ResponseChecker

/**
 * Sends `method path` (the path as the document writes it, placeholders filled from `params`) through
 * `issuer.fetch` and checks the answer against the document. Bearer token unless `headers` says otherwise.
 */
async function send<Body = unknown>(
  method: string,
  path: string,
  params: Record<string, string | number>,
  init: { body?: unknown; form?: string; headers?: Record<string, string>; query?: string } = {},
): Promise<Sent<Body>> {
  const url = path.replace(/\{(\w+)\}/g, (_, name: string) => {
    assert.ok(params[name] !== undefined, `no value for {${name}}`)
    return encodeURIComponent(String(params[name]))
  })
  const headers: Record<string, string> = { authorization: `Bearer ${api.token}`, ...init.headers }
  let body: string | undefined
  if (init.form !== undefined) {
    body = init.form
    headers['content-type'] = 'application/x-www-form-urlencoded'
  } else if (init.body !== undefined) {
    body = JSON.stringify(init.body)
    headers['content-type'] = 'application/json'
  }
  const response = await api.issuer.fetch(new Request(`${ORIGIN}${url}${init.query ?? ''}`, { method, headers, ...(body !== undefined ? { body } : {}) }))
  const contentType = response.headers.get('content-type')
  const mediaType = (contentType ?? '').split(';')[0]!.trim()
  const isText = contentType === null || isJson(mediaType) || /text|jwt|svg/.test(mediaType)
  const text = isText ? await response.text() : (await response.arrayBuffer(), '')
  checker.check(method, path, { status: response.status, contentType, text: isText ? text : '' })
  return { status: response.status, headers: response.headers, text, json: isJson(mediaType) && text ? JSON.parse(text) : null }
}

const CLUB = '/v2/clubs/{clubDomain}'
const club = () => ({ clubDomain: api.club })
const ISSUER = '/open-badges/v3/issuers/{domain}'

describe('every answer matches the OpenAPI document', () => {
  before(async () => {
    api = await openApi({ proofs: true, presentationVerifier: createPresentationVerifier() })
    document = (await (await api.issuer.fetch(new Request(`${ORIGIN}/openapi.json`))).json()) as OpenApiDocument
    checker = responseChecker(document)
  })
  after(() => api.close())

  // The ids each step hands on to the next.
  const ids = { badge: 0, certificate: 0, image: '', template: 0, skill: '', issuance: 0, revoked: 0, credential: '' }

  it('the token endpoint: a token, and an RFC 6749 error for a wrong secret', async () => {
    const client = await api.issuer.clients.create({ club: api.club })
    const grant = clientCredentialsGrant(client)
    const ok = await send('POST', '/oauth/token', {}, { form: grant.body, headers: { authorization: grant.headers.authorization! } })
    assert.equal(ok.status, 200)
    const wrong = clientCredentialsGrant({ ...client, client_secret: 'wrong' })
    const refused = await send('POST', '/oauth/token', {}, { form: wrong.body, headers: { authorization: wrong.headers.authorization! } })
    assert.equal(refused.status, 401)
  })

  it('the club root, and a problem document without a token', async () => {
    assert.equal((await send('GET', `${CLUB}/`, club())).status, 200)
    assert.equal((await send('GET', `${CLUB}/`, club(), { headers: { authorization: '' } })).status, 401)
  })

  it('designs: create, read, list, patch, and a validation problem', async () => {
    const badge = await send<{ data: Design }>('POST', `${CLUB}/designs`, club(), {
      body: { kind: 'badge', name: 'Knight', image: { mediaType: 'image/svg+xml', data: svgBase64() } },
    })
    assert.equal(badge.status, 201)
    ids.badge = badge.json.data.id
    ids.image = new URL(badge.json.data.imageUrl!).pathname.split('/').at(-1)!
    const certificate = await send<{ data: Design }>('POST', `${CLUB}/designs`, club(), {
      body: { kind: 'certificate', name: 'Diploma', layout: { orientation: 'portrait' } },
    })
    assert.equal(certificate.status, 201)
    ids.certificate = certificate.json.data.id
    assert.equal((await send('GET', `${CLUB}/designs/{id}`, { ...club(), id: ids.certificate })).status, 200)
    assert.equal((await send('GET', `${CLUB}/designs`, club(), { query: '?limit=1' })).status, 200)
    assert.equal((await send('PATCH', `${CLUB}/designs/{id}`, { ...club(), id: ids.badge }, { body: { name: 'Queen' } })).status, 200)
    assert.equal((await send('POST', `${CLUB}/designs`, club(), { body: { kind: 'poster' } })).status, 422)
  })

  it('templates: create, read, list, patch, and a problem for an unknown one', async () => {
    const created = await send<{ data: Achievement }>('POST', `${CLUB}/achievements`, club(), {
      body: {
        name: 'Endgame',
        description: 'Won a rook ending.',
        tag: ['chess', 'endgame'],
        criteria: { requirements: [{ description: 'Win a rook ending', type: 'score' }, { url: 'https://chess.example/study' }] },
        program: { name: 'League', url: 'https://chess.example/league', isPublic: true },
        achievementBadgeDesignId: ids.badge,
        achievementCertificateDesignId: ids.certificate,
        prefix: 'CHS',
      },
    })
    assert.equal(created.status, 201)
    ids.template = created.json.data.id
    ids.skill = new URL(created.json.data.alignment[0]!.targetUrl).pathname.split('/').at(-1)!
    assert.equal((await send('GET', `${CLUB}/achievements/{id}`, { ...club(), id: ids.template })).status, 200)
    assert.equal((await send('GET', `${CLUB}/achievements`, club())).status, 200)
    assert.equal((await send('PATCH', `${CLUB}/achievements/{id}`, { ...club(), id: ids.template }, { body: { nameEn: 'Endgame' } })).status, 200)
    assert.equal((await send('GET', `${CLUB}/achievements/{id}`, { ...club(), id: 999_999 })).status, 404)
  })

  it('issuing: a batch with every kind of item, reads before and after signing, the feed, a revoke', async () => {
    const recipient = (n: number) => ({ externalUserId: `u-${n}`, name: `Player ${n}`, email: `p${n}@example.org` })
    const batch = await send<BatchResult>('POST', `${CLUB}/issuances`, club(), {
      body: {
        achievementFormId: ids.template,
        recipients: [
          { ...recipient(1), evidences: [{ url: 'https://chess.example/game/1', isPublic: true }] },
          recipient(2),
          recipient(2),
          { name: 'No mail' },
        ],
      },
      headers: { 'idempotency-key': 'openapi-responses-1' },
    })
    assert.equal(batch.status, 200)
    assert.deepEqual(
      batch.json.results.map((item) => item.status),
      ['issued', 'issued', 'skipped', 'failed'],
    )
    const resourceIdOf = (item: BatchItem | undefined) => (item?.status === 'issued' ? item.resourceId : 0)
    ids.issuance = resourceIdOf(batch.json.results[0])
    ids.revoked = resourceIdOf(batch.json.results[1])
    const again = await send<BatchResult>('POST', `${CLUB}/issuances`, club(), { body: { achievementFormId: ids.template, recipients: [recipient(1)] } })
    assert.equal(again.json.results[0]!.error?.code, 'already-issued')

    const issuance = { ...club(), id: ids.issuance }
    assert.equal((await send<{ data: IssuanceDetail }>('GET', `${CLUB}/issuances/{id}`, issuance)).json.data.credential, null)
    assert.equal((await send('GET', `${CLUB}/issuances/{id}/credential`, issuance)).status, 409)
    await api.issuer.worker.drain()
    const detail = await send<{ data: IssuanceDetail }>('GET', `${CLUB}/issuances/{id}`, issuance)
    ids.credential = detail.json.data.credential!.id
    const credential = await send('GET', `${CLUB}/issuances/{id}/credential`, issuance)
    assert.equal(credential.status, 200)
    assert.equal((await send('GET', `${CLUB}/issuances`, club(), { query: `?achievementId=${ids.template}` })).status, 200)
    assert.equal((await send('GET', `${CLUB}/issuances`, club(), { query: '?limit=0' })).status, 422)
    assert.equal((await send('GET', `${CLUB}/events`, club(), { query: '?limit=2' })).status, 200)
    const revoked = await send<{ data: IssuanceDetail }>(
      'POST',
      `${CLUB}/issuances/{id}/revoke`,
      { ...club(), id: ids.revoked },
      { body: { reason: 'Entered twice' } },
    )
    assert.equal(revoked.json.data.status, 'revoked')
    // A reissue keeps the issuance and its credential id: the checks below still name them.
    const reissued = await send<{ data: IssuanceDetail }>('POST', `${CLUB}/issuances/{id}/reissue`, issuance, { body: { name: 'Player One' } })
    assert.equal(reissued.json.data.id, ids.issuance)
    const renewed = await send<{ summary: unknown }>('POST', `${CLUB}/issuances/reissue`, club(), { body: { issuanceIds: [ids.issuance, ids.revoked] } })
    assert.deepEqual(renewed.json.summary, { total: 2, ok: 1, skipped: 1, failed: 0 })
    await api.issuer.worker.drain()
    const bulk = await send('POST', `${CLUB}/issuances/revoke`, club(), { body: { issuanceIds: [ids.revoked, 999_999_999], reason: 'Entered twice' } })
    assert.equal(bulk.status, 200)
    assert.equal((await send('POST', `${CLUB}/issuances/revoke`, club(), { body: { issuanceIds: [] } })).status, 422)
    assert.equal((await send('POST', `${CLUB}/issuances/{id}/notify`, issuance)).status, 202)
    assert.equal((await send('POST', `${CLUB}/issuances/{id}/notify`, { ...club(), id: ids.revoked })).status, 409)
  })

  it('the certificate file: the baked badge, a 304 on its ETag, and problems for formats it cannot make', async () => {
    const path = `${CLUB}/issuances/{id}/file`
    const issuance = { ...club(), id: ids.issuance }
    const svg = await send('GET', path, issuance, { query: '?format=svg' })
    assert.equal(svg.status, 200)
    // The badge design is an SVG: there is no PNG to bake the credential into.
    assert.equal((await send('GET', path, issuance, { query: '?format=png' })).status, 422)
    assert.equal((await send('GET', path, issuance, { query: '?format=svg', headers: { 'if-none-match': svg.headers.get('etag')! } })).status, 304)
    assert.ok((await send('GET', path, issuance, { query: '?format=pdf' })).status >= 400)
  })

  it('the public surface: verdicts, the JWT, the DID document, both revocation lists, an image, a skill', async () => {
    const verify = `/open-badges/v3/achievements/{issuanceId}/verify`
    assert.equal((await send<Verdict>('GET', verify, { issuanceId: ids.issuance }, { headers: {} })).json.isValid, true)
    assert.equal((await send('GET', verify, { issuanceId: 12345 })).status, 404)
    const jwt = await send('GET', '/open-badges/v3/credentials/{credentialId}', { credentialId: ids.credential })
    assert.equal(jwt.status, 200)
    assert.equal(
      (
        await send(
          'GET',
          '/open-badges/v3/credentials/{credentialId}',
          { credentialId: ids.credential },
          { headers: { 'if-none-match': jwt.headers.get('etag')! } },
        )
      ).status,
      304,
    )
    for (const accept of ['application/ld+json', 'application/vc+ld+json', 'application/vc', 'application/json']) {
      const jsonLd = await send('GET', '/open-badges/v3/credentials/{credentialId}', { credentialId: ids.credential }, { headers: { accept } })
      assert.equal(jsonLd.headers.get('content-type'), accept)
    }
    assert.equal((await send('GET', `${ISSUER}/did.json`, { domain: api.club })).status, 200)
    assert.equal((await send('GET', `${ISSUER}/did.json`, { domain: 'nobody' })).status, 404)
    assert.equal((await send('GET', `${ISSUER}/status-lists/revocation`, { domain: api.club })).status, 200)
    // A second list, as the first filling up would open it.
    const second = await api.storage.transaction((tx) =>
      tx.statusLists.insert({ club: api.club, purpose: 'revocation', size: STATUS_LIST_SIZE, seed: toBase64Url(new Uint8Array(16)), createdAt: Date.now() }),
    )
    assert.equal((await send('GET', `${ISSUER}/status-lists/revocation/{listId}`, { domain: api.club, listId: second.id })).status, 200)
    // The JSON-LD form, under each media type that asks for it.
    for (const accept of JSON_LD_MEDIA_TYPES) {
      const secured = await send('GET', `${ISSUER}/status-lists/revocation/{listId}`, { domain: api.club, listId: second.id }, { headers: { accept } })
      assert.equal(secured.headers.get('content-type'), accept)
    }
    assert.equal((await send('GET', `${ISSUER}/status-lists/revocation/{listId}`, { domain: api.club, listId: 999 })).status, 404)
    assert.equal((await send('GET', '/open-badges/v3/images/{hash}', { hash: ids.image })).status, 200)
    assert.equal((await send('GET', '/skills/{tag}', { tag: ids.skill })).status, 200)
  })

  it('the Learner Credential Wallet: the request link (303), then the exchange with a DID Authentication', async () => {
    const redirect = await send('GET', `${ISSUER}/lcw-requests/{credentialId}`, { domain: api.club, credentialId: ids.credential })
    assert.equal(redirect.status, 303, redirect.text)
    const params = legacyRequestParams(deepLinkFromRequestPage(redirect.headers.get('location')!))
    const exchange = new URL(params.vc_request_url).pathname.split('/').pop()!
    const presentation = await didAuthentication(await mintProfile(), params.challenge!)
    const path = `${ISSUER}/lcw-exchanges/{exchange}`
    assert.equal((await send('POST', path, { domain: api.club, exchange }, { body: {} })).status, 400)
    assert.equal((await send('POST', path, { domain: api.club, exchange }, { body: presentation })).status, 200)
    assert.equal((await send('POST', path, { domain: api.club, exchange }, { body: presentation })).status, 409)
  })

  it('wallets: metadata, an offer, its code for a token, a nonce, the credential, and their errors', async () => {
    const issuer = { domain: api.club }
    assert.equal((await send('GET', `/.well-known/openid-credential-issuer${ISSUER}`, issuer)).status, 200)
    assert.equal((await send('GET', `/.well-known/oauth-authorization-server${ISSUER}`, issuer)).status, 200)
    const offer = await send<{ grants: Record<string, { 'pre-authorized_code': string }> }>('GET', `${ISSUER}/credential-offers/{credentialId}`, {
      ...issuer,
      credentialId: ids.credential,
    })
    const code = offer.json.grants[PRE_AUTHORIZED]!['pre-authorized_code']
    const form = (preAuthorized: string) => `grant_type=${encodeURIComponent(PRE_AUTHORIZED)}&pre-authorized_code=${encodeURIComponent(preAuthorized)}`
    const token = await send<{ access_token: string }>('POST', `${ISSUER}/token`, issuer, { form: form(code), headers: { authorization: '' } })
    assert.equal(token.status, 200)
    assert.equal((await send('POST', `${ISSUER}/token`, issuer, { form: form('forged'), headers: { authorization: '' } })).status, 400)
    assert.equal((await send('POST', `${ISSUER}/nonce`, issuer, { headers: { authorization: '' } })).status, 200)
    const request = { credential_configuration_id: 'OpenBadgeCredential_jwt_vc_json' }
    const bearer = { authorization: `Bearer ${token.json.access_token}` }
    assert.equal((await send('POST', `${ISSUER}/credential`, issuer, { body: request, headers: bearer })).status, 200)
    const jsonLd = { credential_configuration_id: 'OpenBadgeCredential_ldp_vc' }
    assert.equal((await send('POST', `${ISSUER}/credential`, issuer, { body: jsonLd, headers: bearer })).status, 200)
    assert.equal((await send('POST', `${ISSUER}/credential`, issuer, { body: request, headers: { authorization: 'Bearer forged' } })).status, 401)
  })

  it('v1: forms, bulk issue, the issuance read', async () => {
    const created = await send<{ id: number }>(
      'POST',
      '/v1/forms',
      {},
      { body: { name: 'Opening', description: 'Knows openings.', requirements: [{ description: 'Play 10 games', order: 1 }] } },
    )
    assert.equal(created.status, 201)
    assert.equal((await send('GET', '/v1/forms/{id}', { id: created.json.id })).status, 200)
    assert.equal((await send('PATCH', '/v1/forms/{id}', { id: created.json.id }, { body: { tags: ['opening'] } })).status, 200)
    const issued = await send<{ issued: { id: number }[]; failed: unknown[] }>(
      'POST',
      '/v1/achievements',
      {},
      {
        body: { formId: created.json.id, recipients: [{ externalUserId: 'v1-1', name: 'One', email: 'one@example.org' }, { name: 'No mail' }] },
      },
    )
    assert.equal(issued.json.issued.length, 1)
    assert.equal(issued.json.failed.length, 1)
    await api.issuer.worker.drain()
    const v1Issuance = await send<{ credential: unknown }>('GET', '/v1/achievements/{id}', { id: issued.json.issued[0]!.id })
    assert.notEqual(v1Issuance.json.credential, null)
    assert.equal((await send('GET', '/v1/forms/{id}', { id: 999_999 })).status, 404)
  })

  it('legacy form creation: 201, and its own error shape', async () => {
    const key = await newApiKey(api)
    const body = { name: 'Legacy', type: 'completion', achievementBadgeDesignId: ids.badge }
    assert.equal((await send('POST', '/open-api/achievements/forms', {}, { body, headers: { authorization: `Bearer ${key}` } })).status, 201)
    assert.equal((await send('POST', '/open-api/achievements/forms', {}, { body, headers: { authorization: 'Bearer wrong' } })).status, 401)
    assert.equal(
      (await send('POST', '/open-api/achievements/forms', {}, { body: { ...body, prefix: 'TOOLONG' }, headers: { authorization: key } })).status,
      400,
    )
  })

  it('the document itself', async () => {
    assert.equal((await send('GET', '/openapi.json', {})).status, 200)
  })

  it('every documented operation was answered with success and checked', () => {
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, operation })),
    )
    const unchecked = operations
      .filter(({ key, operation }) => {
        // A redirect is the success of an operation that sends the browser on (the wallet's request link).
        const successes = Object.keys(operation.responses).filter((status) => /^[23]\d\d$/.test(status))
        return !successes.some((status) => checker.checked.has(`${key} ${status}`))
      })
      .map(({ key }) => key)
    assert.deepEqual(unchecked, [])
    assert.ok(operations.length >= 37, `${operations.length} operations`)
  })

  it('every operation declares a success body and an error body', () => {
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const success = Object.entries(operation.responses).find(([status]) => /^[23]\d\d$/.test(status))
        assert.ok(success, `${method} ${path}: no success`)
        if (success[0].startsWith('2')) assert.ok(Object.keys(success[1].content ?? {}).length > 0, `${method} ${path}: no success content`)
        assert.ok(operation.responses.default?.content?.['application/problem+json'], `${method} ${path}: no error body`)
      }
    }
  })
})

describe('the closed-world check', () => {
  it('fails a member the document does not name, and a required member left out', async () => {
    const api = await openApi()
    try {
      const document = (await (await api.issuer.fetch(new Request(`${ORIGIN}/openapi.json`))).json()) as OpenApiDocument
      const root = await api.call('GET', `/v2/clubs/${api.club}/`)
      const answer = (body: unknown) => ({ status: 200, contentType: 'application/json', text: JSON.stringify(body) })
      const checker = responseChecker(document)
      checker.check('GET', `${CLUB}/`, answer(root.body))
      assert.throws(() => checker.check('GET', `${CLUB}/`, answer({ data: { ...root.body.data, billing: 'free' } })), /must NOT have additional properties/)
      const withoutCanIssue = { ...root.body.data }
      delete withoutCanIssue.canIssue
      assert.throws(() => checker.check('GET', `${CLUB}/`, answer({ data: withoutCanIssue })), /must have required property 'canIssue'/)
      assert.throws(() => checker.check('GET', `${CLUB}/`, { status: 200, contentType: 'text/html', text: '<p>' }), /text\/html is not among/)
      assert.throws(() => checker.check('GET', '/v2/unknown', answer({})), /not in the document/)
    } finally {
      await api.close()
    }
  })

  it('leaves open what the document declares open: `additionalProperties` given is kept', () => {
    assert.deepEqual(closed({ type: 'object', properties: { a: { type: 'object', properties: {} } }, additionalProperties: {} }), {
      type: 'object',
      properties: { a: { type: 'object', properties: {}, additionalProperties: false } },
      additionalProperties: {},
    })
  })
})
