/**
 * One rule for the JWT answer of the credential and of the status list (docs/api.md §4.11): `text/plain`, the type the interface spec gives the credential's JWT, unless the request names another
 * JWT type outright (`application/vc+jwt`, the type VC-JOSE-COSE registers, or `application/jwt`); and a
 * media range with a malformed weight (`q=` empty or no qvalue) is ignored (RFC 9110 §12.4.2), so it
 * can neither choose a form nor outweigh another range.
 *
 * @see docs/decisions/0042-outside-review-smaller-findings.md
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { decodeJwt } from 'jose'
import { openVerificationApi, type VerificationApi } from '../../support/api-harness.ts'
import { clubPaths, createTemplate, credentialOf, issueTo, members } from '../../support/verification-steps.ts'

const paths = clubPaths()

describe('the JWT answer and malformed weights', () => {
  let api: VerificationApi
  let credentialId: string
  before(async () => {
    api = await openVerificationApi({ proofs: true })
    const [issuanceId] = await issueTo(api, await createTemplate(api, { name: 'Opening principles' }), members(1, 'jwt-type'))
    await api.issuer.worker.drain()
    credentialId = (await credentialOf(api, issuanceId!)).id
  })
  after(() => api.close())

  const resources = () => [
    ['credential', paths.jwt(credentialId)],
    ['status list', paths.statusList],
  ]

  it('the credential and the status list answer their JWT under the same media type for every Accept', async () => {
    for (const [accept, contentType] of [
      [null, 'text/plain; charset=utf-8'],
      ['*/*', 'text/plain; charset=utf-8'],
      ['application/vc+jwt', 'application/vc+jwt'],
      ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'text/plain; charset=utf-8'],
      ['text/plain', 'text/plain; charset=utf-8'],
      ['application/jwt', 'application/jwt'],
      ['application/vc+jwt;q=0.5, text/plain', 'text/plain; charset=utf-8'],
      ['text/plain;q=0.5, application/vc+jwt', 'application/vc+jwt'],
    ] as const) {
      for (const [what, path] of resources()) {
        const response = await api.get(path!, accept === null ? {} : { accept })
        assert.equal(response.status, 200, `${what}, ${accept}`)
        assert.equal(response.headers.get('content-type'), contentType, `${what}, Accept ${accept}`)
        assert.ok(decodeJwt(response.text).vc, `${what}: a VC-JWT`)
      }
    }
  })

  it('a range with a malformed weight is ignored: the well-formed range decides', async () => {
    for (const [accept, contentType] of [
      ['application/vc+ld+json;q=1, application/ld+json;q=', 'application/vc+ld+json'],
      ['application/vc+ld+json;q=1, application/ld+json;q=abc', 'application/vc+ld+json'],
      ['application/vc+ld+json;q=0.5, application/ld+json;q=1.5', 'application/vc+ld+json'],
      ['application/ld+json;q=, text/plain', 'text/plain; charset=utf-8'],
      ['application/ld+json;q=', 'text/plain; charset=utf-8'],
    ] as const) {
      for (const [what, path] of resources()) {
        const response = await api.get(path!, { accept })
        assert.equal(response.status, 200, `${what}, ${accept}`)
        assert.equal(response.headers.get('content-type'), contentType, `${what}, Accept ${accept}`)
      }
    }
  })
})
