/**
 * The HTTP face's main path as one suite, run three ways (docs/architecture.md § Layers): through
 * `issuer.fetch`, through the node listener on an ephemeral port, and mounted under a path prefix in an
 * existing node:http app. Each way gets a `call` that sends a Request to a URL of the issuer's own address
 * space.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { decodeJwt } from 'jose'
import { decodeList } from '@digitalbazaar/vc-bitstring-status-list'
import type { Issuer } from '../../index.ts'
import { clientCredentialsGrant } from '../support/tokens.ts'

export interface HttpHarness {
  issuer: Issuer
  /** The base URL of the club API (`{base_url}`), prefix included. */
  base: string
  send(request: Request): Promise<Response>
  close(): Promise<void>
}

export function httpSuite(name: string, open: () => Promise<HttpHarness>): void {
  describe(`the HTTP face › ${name}`, () => {
    let h: HttpHarness
    let token: string
    const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
      const response = await h.send(
        new Request(`${h.base}${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }),
      )
      const text = await response.text()
      return {
        status: response.status,
        headers: response.headers,
        body: text && /json/.test(response.headers.get('content-type') ?? '') ? JSON.parse(text) : text,
      }
    }

    before(async () => {
      h = await open()
      await h.issuer.clubs.create({ domain: 'chess', name: 'Chess Club' })
      const client = await h.issuer.clients.create({ club: 'chess' })
      const response = await h.send(new Request(`${h.issuer.config.urls.auth}/token`, clientCredentialsGrant(client)))
      assert.equal(response.status, 200)
      token = ((await response.json()) as { access_token: string }).access_token
    })
    after(() => h.close())

    it('a token reads the club root', async () => {
      const root = await call('GET', '/v2/clubs/chess/')
      assert.equal(root.status, 200)
      assert.equal(root.body.data.domain, 'chess')
    })

    it('creates a template, issues it, signs in the background, verifies publicly and revokes', async () => {
      const template = await call('POST', '/v2/clubs/chess/achievements', { name: '체스 입문', description: 'Beginners', tag: ['chess'] })
      assert.equal(template.status, 201)
      assert.equal(template.headers.get('location'), `${h.base}/v2/clubs/chess/achievements/${template.body.data.id}`)
      const issued = await call('POST', '/v2/clubs/chess/issuances', {
        achievementFormId: template.body.data.id,
        recipients: [{ name: 'Kim', email: 'kim@example.com' }],
      })
      assert.equal(issued.body.summary.ok, 1)
      const id = issued.body.results[0].resourceId
      assert.equal((await call('GET', `/v2/clubs/chess/issuances/${id}/credential`)).status, 409)
      await h.issuer.worker.drain()
      const detail = await call('GET', `/v2/clubs/chess/issuances/${id}`)
      const verifyUrl: string = detail.body.data.credential.verifyUrl
      assert.ok(verifyUrl.startsWith(h.issuer.config.urls.public))
      const verdict = await h.send(new Request(verifyUrl))
      assert.deepEqual(((await verdict.json()) as { status: string }).status, 'valid')
      const jwt = await h.send(new Request(detail.body.data.credential.jwtUrl))
      assert.equal(await jwt.text(), (await call('GET', `/v2/clubs/chess/issuances/${id}/credential`)).body.data.jwt)
      assert.equal((await call('POST', `/v2/clubs/chess/issuances/${id}/revoke`)).body.data.status, 'revoked')
      assert.equal(((await (await h.send(new Request(verifyUrl))).json()) as { status: string }).status, 'revoked')
    })

    it('revokes many at once: a result per id, one issuance.revoked each, and the status list bits as a verifier decodes them', async () => {
      const template = await call('POST', '/v2/clubs/chess/achievements', { name: '일괄 취소', description: 'Bulk' })
      const recipients = ['a', 'b', 'c'].map((name) => ({ name, email: `${name}@bulk.example` }))
      const issued = await call('POST', '/v2/clubs/chess/issuances', { achievementFormId: template.body.data.id, recipients })
      const [a, b, c] = issued.body.results.map((item: { resourceId: number }) => item.resourceId as number)
      await h.issuer.worker.drain()
      assert.equal((await call('POST', `/v2/clubs/chess/issuances/${b}/revoke`)).status, 200)
      const eventsBefore = (await call('GET', '/v2/clubs/chess/events?limit=100')).body.data.length
      const answer = await call('POST', '/v2/clubs/chess/issuances/revoke', { issuanceIds: [a, b, 4_242_424_242, a], reason: 'Wrong badge' })
      assert.equal(answer.status, 200, JSON.stringify(answer.body))
      assert.deepStrictEqual(
        answer.body.results.map((item: { ref: string; status: string; error: { code: string } | null }) => [item.ref, item.status, item.error?.code ?? null]),
        [
          [String(a), 'revoked', null],
          [String(b), 'skipped', 'already-revoked'],
          ['4242424242', 'failed', 'issuance-not-found'],
          [String(a), 'skipped', 'already-revoked'],
        ],
      )
      assert.deepStrictEqual(answer.body.summary, { total: 4, ok: 1, skipped: 2, failed: 1 })
      const events = (await call('GET', '/v2/clubs/chess/events?limit=100')).body.data as { type: string; subject: { id: string } }[]
      assert.equal(events.length, eventsBefore + 1)
      assert.deepStrictEqual(events.filter((event) => event.type === 'issuance.revoked' && event.subject.id === String(a)).length, 1)
      const entries = await Promise.all(
        [a, b, c].map(async (id) => {
          const jwt = (await call('GET', `/v2/clubs/chess/issuances/${id}/credential`)).body.data.jwt as string
          return (decodeJwt(jwt) as { vc: { credentialStatus: { statusListIndex: string; statusListCredential: string } } }).vc.credentialStatus
        }),
      )
      const listJwt = await (await h.send(new Request(entries[0]!.statusListCredential))).text()
      const subject = (decodeJwt(listJwt) as { vc: { credentialSubject: { encodedList: string } } }).vc.credentialSubject
      const list = await decodeList({ encodedList: subject.encodedList })
      assert.deepStrictEqual(
        entries.map((entry) => list.getStatus(Number(entry.statusListIndex))),
        [true, true, false],
      )
    })

    it('answers errors as problem documents: unknown route, wrong method, bad JSON', async () => {
      const unknown = await call('GET', '/v2/nowhere')
      assert.equal(unknown.status, 404)
      assert.equal(unknown.headers.get('content-type'), 'application/problem+json')
      assert.equal((await call('DELETE', '/v2/clubs/chess/')).status, 405)
      const badJson = await h.send(
        new Request(`${h.base}/v2/clubs/chess/achievements`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: '{',
        }),
      )
      assert.equal(badJson.status, 400)
      assert.equal(((await badJson.json()) as { code: string }).code, 'invalid-json')
    })
  })
}
