/**
 * Every public address core writes into credentials and responses (core/credentials/urls.ts) is one the
 * HTTP face serves: both fill the templates of core/public-paths.ts, also under a public base with a
 * path.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createIssuer, type Issuer } from '../../../index.ts'
import { createMemoryStorage } from '../../../adapters/memory/index.ts'
import { didDocumentUrl, imageUrl, jwtUrl, skillUrl, statusListUrl, verifyUrl } from '../../../core/credentials/urls.ts'
import { PUBLIC_PATHS, WELL_KNOWN, fillPath } from '../../../core/public-paths.ts'
import { ORIGIN } from '../../support/origin.ts'
import { credentialIssuerId, credentialOfferUri, walletEndpoints } from '../../../core/wallets/urls.ts'

describe('the public addresses core builds are the routes the HTTP face serves', () => {
  let issuer: Issuer
  before(async () => {
    issuer = createIssuer({
      storage: createMemoryStorage(),
      masterKey: new Uint8Array(32).fill(3),
      urls: { base: `${ORIGIN}/api`, auth: `${ORIGIN}/oauth`, public: `${ORIGIN}/verify-here`, shareHost: 'localhost:8787', legacyBase: ORIGIN },
    })
    await issuer.clubs.create({ domain: 'chess', name: 'Chess Club' })
  })
  after(() => issuer.close())

  const routeOf = async (url: string) => {
    const response = await issuer.fetch(new Request(url))
    return { status: response.status, body: (await response.json()) as { code?: string } }
  }

  it('each built URL reaches its route, never route-not-found', async () => {
    const built = {
      verify: verifyUrl(issuer.config, 42),
      credential: jwtUrl(issuer.config, '00000000-0000-4000-8000-000000000000'),
      didDocument: didDocumentUrl(issuer.config, 'chess'),
      firstStatusList: statusListUrl(issuer.config, 'chess', { id: 1, first: true }),
      statusList: statusListUrl(issuer.config, 'chess', { id: 2, first: false }),
      image: imageUrl(issuer.config, 'ab'.repeat(32)),
    }
    for (const [name, url] of Object.entries(built)) {
      assert.ok(url.startsWith(`${ORIGIN}/verify-here/open-badges/v3/`), `${name}: ${url}`)
      const { status, body } = await routeOf(url)
      assert.notEqual(body.code, 'route-not-found', `${name}: ${url} answered ${status}`)
      assert.notEqual(body.code, 'method-not-allowed', `${name}: ${url}`)
    }
  })

  it("a club's OID4VCI addresses reach their routes under a public base with a path; the well-known names go before that path", async () => {
    const identifier = credentialIssuerId(issuer.config, 'chess')
    assert.equal(identifier, `${ORIGIN}/verify-here/open-badges/v3/issuers/chess`)
    const wellKnown = (name: string) => `${ORIGIN}${name}/verify-here/open-badges/v3/issuers/chess`
    for (const name of Object.values(WELL_KNOWN)) {
      const response = await issuer.fetch(new Request(wellKnown(name)))
      assert.equal(response.status, 200, name)
      const metadata = (await response.json()) as { credential_issuer?: string; issuer?: string }
      assert.equal(metadata.credential_issuer ?? metadata.issuer, identifier, name)
    }
    const endpoints = walletEndpoints(issuer.config, 'chess')
    for (const url of [endpoints.token, endpoints.nonce, endpoints.credential]) {
      assert.ok(url.startsWith(`${identifier}/`), url)
      const response = await issuer.fetch(new Request(url, { method: 'POST' }))
      assert.ok(![404, 405].includes(response.status), `${url} answered ${response.status}`)
    }
    const offer = await routeOf(credentialOfferUri(issuer.config, 'chess', '00000000-0000-4000-8000-000000000000'))
    assert.equal(offer.body.code, 'credential-not-found', 'the offer route answers for itself')
  })

  it('a tag with reserved characters makes a skill URL that its route reads back as the same tag', async () => {
    const tag = 'C++ / Go? #1 %'
    const url = skillUrl(issuer.config, tag)
    assert.equal(url, `${ORIGIN}/verify-here/skills/C%2B%2B%20%2F%20Go%3F%20%231%20%25`)
    const response = await issuer.fetch(new Request(url))
    assert.equal(response.status, 200)
    assert.deepEqual(await response.json(), { id: url, type: 'ext:SkillTag', name: tag })
  })

  it('fillPath fills every placeholder of a template as one path segment', () => {
    assert.equal(fillPath(PUBLIC_PATHS.statusList, { domain: 'chess', listId: 7 }), '/open-badges/v3/issuers/chess/status-lists/revocation/7')
    assert.equal(fillPath(PUBLIC_PATHS.credential, { credentialId: 'a/b' }), '/open-badges/v3/credentials/a%2Fb')
  })
})
