/**
 * SVG badge designs through the HTTP API ("No script in a badge"): every bypass of the old
 * deny-list is refused at upload with 422 and stores nothing; a realistic badge keeps what renders; the
 * sanitised text is what is stored, hashed and served; a design stored before the allow-list (written
 * straight into storage, as an old row is) is sanitised when baked into `file?format=svg`.
 */
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { assertProblem } from '../../support/achievement-api.ts'
import { openApi, type Api } from '../../support/api-harness.ts'
import { FILES_CLUB, filePath, issueOne } from '../../support/file-api.ts'
import { BADGE_SVG, BADGE_SVG_SANITISED, BYPASSES, SVG_NS } from '../../support/svg-designs.ts'

const DESIGNS = `/v2/clubs/${FILES_CLUB}/designs`
const sha256 = (text: string | Uint8Array) => createHash('sha256').update(text).digest('hex')
const base64 = (text: string) => Buffer.from(text).toString('base64')
const badgeBody = (svg: string, name = 'Badge') => ({ kind: 'badge', name, image: { mediaType: 'image/svg+xml', data: base64(svg) } })

describe('SVG badge designs through the API', () => {
  let api: Api
  before(async () => {
    api = await openApi()
  })
  after(() => api.close())

  async function designCount(): Promise<number> {
    const listed = await api.call('GET', `${DESIGNS}?limit=100`)
    assert.equal(listed.status, 200, JSON.stringify(listed.body))
    return listed.body.data.length
  }

  /** Asserts a 422 `validation-failed` with one image error; returns the detail. */
  function assertRefused(response: Awaited<ReturnType<Api['call']>>, message: string, path = 'image'): string {
    const body = assertProblem(response, 422, 'validation-failed')
    assert.deepEqual(body.errors, [{ message, path }])
    return body.detail as string
  }

  for (const bypass of BYPASSES) {
    it(`refuses ${bypass.name} at upload with 422 image-svg-active-content, storing nothing`, async () => {
      const before = await designCount()
      const detail = assertRefused(await api.call('POST', DESIGNS, badgeBody(bypass.svg)), 'image-svg-active-content')
      assert.match(detail, bypass.detail, 'the detail names what was found')
      assert.equal(await designCount(), before, 'no design')
      assert.equal(await api.storage.images.findByHash(sha256(bypass.svg)), null, 'no image')
    })
  }

  it('refuses a bypass sent as a new image of an existing design, which keeps its image', async () => {
    const created = await api.call('POST', DESIGNS, badgeBody(`<svg xmlns="${SVG_NS}"><circle r="4"/></svg>`))
    assert.equal(created.status, 201, JSON.stringify(created.body))
    for (const bypass of BYPASSES) {
      const patched = await api.call('PATCH', `${DESIGNS}/${created.body.data.id}`, { image: { mediaType: 'image/svg+xml', data: base64(bypass.svg) } })
      assertRefused(patched, 'image-svg-active-content')
    }
    const read = await api.call('GET', `${DESIGNS}/${created.body.data.id}`)
    assert.equal(read.body.data.imageUrl, created.body.data.imageUrl)
  })

  it('refuses a bypass as the logo of a certificate design, at layout.logo', async () => {
    const before = await designCount()
    const response = await api.call('POST', DESIGNS, {
      kind: 'certificate',
      name: 'Cert',
      layout: { logo: { mediaType: 'image/svg+xml', data: base64(BYPASSES[0]!.svg) } },
    })
    assert.match(assertRefused(response, 'image-svg-active-content', 'layout.logo'), /<s:script>/)
    assert.equal(await designCount(), before)
  })

  it('refuses a DOCTYPE and entity declarations, also an internal subset that declares nothing', async () => {
    for (const svg of [
      `<!DOCTYPE svg [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]><svg xmlns="${SVG_NS}"><text>&lol2;</text></svg>`,
      `<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd"><svg xmlns="${SVG_NS}"/>`,
      `<!DOCTYPE svg [<!ENTITY ext SYSTEM "file:///etc/passwd">]><svg xmlns="${SVG_NS}"><text>&ext;</text></svg>`,
    ]) {
      assert.match(assertRefused(await api.call('POST', DESIGNS, badgeBody(svg)), 'image-svg-active-content'), /DOCTYPE/)
    }
  })

  it('refuses what an XML parser refuses, a root that is not SVG, and SVG elements it does not keep', async () => {
    const cases: [string, string, RegExp][] = [
      [`<svg xmlns="${SVG_NS}"><rect width=4/></svg>`, 'image-not-svg', /not well-formed/],
      [`<svg xmlns="${SVG_NS}"><g></svg>`, 'image-not-svg', /not well-formed/],
      [`<svg xmlns="${SVG_NS}"><rect x="1" x="2"/></svg>`, 'image-not-svg', /not well-formed/],
      [`<svg xmlns="${SVG_NS}"/><svg xmlns="${SVG_NS}"/>`, 'image-not-svg', /not well-formed/],
      [`<html xmlns="http://www.w3.org/1999/xhtml"><svg xmlns="${SVG_NS}"/></html>`, 'image-not-svg', /root element/],
      [`<svg xmlns="urn:not-svg"/>`, 'image-not-svg', /root element/],
      [`<svg xmlns="${SVG_NS}">\u0001</svg>`, 'image-not-svg', /characters XML does not allow/],
      [`<svg xmlns="${SVG_NS}"><switch><circle r="1"/></switch></svg>`, 'image-svg-unsupported', /<switch>/],
      [`<svg xmlns="${SVG_NS}">${'<g>'.repeat(200)}${'</g>'.repeat(200)}</svg>`, 'image-svg-unsupported', /deeper than 128/],
    ]
    for (const [svg, message, detail] of cases) {
      assert.match(assertRefused(await api.call('POST', DESIGNS, badgeBody(svg)), message), detail, svg.slice(0, 80))
    }
  })

  it('keeps a realistic badge (gradients, clip, mask, filter, symbol and use, text on a path, an inline PNG) and drops editor data silently', async () => {
    const created = await api.call('POST', DESIGNS, badgeBody(BADGE_SVG, 'Gold'))
    assert.equal(created.status, 201, JSON.stringify(created.body))
    const served = await api.get(new URL(created.body.data.imageUrl).pathname)
    assert.equal(served.status, 200)
    assert.equal(served.text, BADGE_SVG_SANITISED, 'the sanitised re-serialisation is what is stored and served')
    assert.ok(created.body.data.imageUrl.endsWith(`/images/${sha256(served.bytes)}`), 'addressed by the hash of the stored bytes')
    assert.equal(await api.storage.images.findByHash(sha256(BADGE_SVG)), null, 'the uploaded bytes are not stored')
  })

  it('stores the same bytes for a design uploaded again as it was served (sanitising is idempotent)', async () => {
    const first = await api.call('POST', DESIGNS, badgeBody(BADGE_SVG, 'Gold 1'))
    const again = await api.call('POST', DESIGNS, badgeBody(BADGE_SVG_SANITISED, 'Gold 2'))
    assert.equal(again.status, 201)
    assert.equal(again.body.data.imageUrl, first.body.data.imageUrl)
  })

  it('bakes a design stored before the allow-list (a row with a script) sanitised into file?format=svg', async () => {
    const old =
      `<svg xmlns="${SVG_NS}" viewBox="0 0 10 10" onload="window.pwned=1">` +
      `<s:script xmlns:s="${SVG_NS}">window.pwned = 2</s:script>` +
      `<circle cx="5" cy="5" r="4" fill="#c00"/>` +
      `<set attributeName="href" to="&#106;avascript:alert(1)"/>` +
      `<s:foreignObject xmlns:s="${SVG_NS}"><div xmlns="http://www.w3.org/1999/xhtml">x</div></s:foreignObject>` +
      `<rect width="2" height="2" style="fill:u\\72l(https://evil.example/p.svg#x);stroke:#000"/></svg>`
    const bytes = new TextEncoder().encode(old)
    const hash = sha256(bytes)
    const designId = await api.storage.transaction(async (tx) => {
      await tx.images.put({ hash, mediaType: 'image/svg+xml', bytes })
      const design = await tx.designs.insert({ club: FILES_CLUB, kind: 'badge', name: 'Old row', image: hash, layout: null, createdAt: 0, updatedAt: 0 })
      return design.id
    })
    const { issuanceId } = await issueOne(api, { template: { name: 'Old badge', achievementBadgeDesignId: designId } })
    await api.issuer.worker.drain()
    const response = await api.get(filePath(issuanceId, 'svg'))
    assert.equal(response.status, 200)
    const baked = response.text
    assert.doesNotMatch(baked, /script|onload|pwned|foreignObject|<set|javascript|evil\.example/i, baked)
    assert.match(baked, /<openbadges:credential verify="[\w-]+\.[\w-]+\.[\w-]+"><\/openbadges:credential>/, 'still baked')
    const withoutCredential = baked.replace(/ xmlns:openbadges="[^"]*"/, '').replace(/<openbadges:credential verify="[^"]*"><\/openbadges:credential>/, '')
    assert.equal(withoutCredential, `<svg xmlns="${SVG_NS}" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4" fill="#c00"/><rect width="2" height="2"/></svg>`)
  })

  it('bakes the default badge for a stored design that no longer reads as SVG', async () => {
    const bytes = new TextEncoder().encode(`<svg xmlns="${SVG_NS}"><rect width=4 onload=alert(1)></svg>`)
    const hash = sha256(bytes)
    const designId = await api.storage.transaction(async (tx) => {
      await tx.images.put({ hash, mediaType: 'image/svg+xml', bytes })
      return (await tx.designs.insert({ club: FILES_CLUB, kind: 'badge', name: 'Broken row', image: hash, layout: null, createdAt: 0, updatedAt: 0 })).id
    })
    const { issuanceId } = await issueOne(api, { template: { name: 'Broken badge', achievementBadgeDesignId: designId } })
    await api.issuer.worker.drain()
    const response = await api.get(filePath(issuanceId, 'svg'))
    assert.equal(response.status, 200)
    assert.doesNotMatch(response.text, /onload|alert/)
    assert.match(response.text, /<title>Broken badge<\/title>/, 'the default badge, named after the template')
  })
})
