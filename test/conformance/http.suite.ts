/**
 * The HTTP face's main path as one suite, run three ways (docs/architecture.md § Layers): through
 * `issuer.fetch`, through the node listener on an ephemeral port, and mounted under a path prefix in an
 * existing node:http app. Each way gets a `call` that sends a Request to a URL of the issuer's own address
 * space.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
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
