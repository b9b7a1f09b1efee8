import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createPdfRenderer } from '../../../adapters/pdf/index.ts'
import { createMemoryStorage } from '../../../adapters/memory/index.ts'
import { defaultUrls } from '../../../core/config.ts'
import { createCoreIssuer } from '../../../core/create-core-issuer.ts'
import { openApi, type Api } from '../../support/api-harness.ts'
import { assertProblem } from '../../support/achievement-api.ts'
import { FILES_CLUB, createDesign, filePath, issueOne, pdfText, skipWithoutPoppler } from '../../support/file-api.ts'
import { clientCredentialsGrant } from '../../support/tokens.ts'

/**
 * The certificate file (docs/api.md §4.6; scope `issuance:read`, docs/decisions/0003-scopes-per-operation.md):
 * the formats, 409 `credential-pending` before signing, 422 for a format clubcred does not
 * serve, the download headers, the ETag and its 304, and the revoked mark.
 */

const FORMATS = ['pdf', 'png', 'svg'] as const
const MEDIA_TYPES = { pdf: 'application/pdf', png: 'image/png', svg: 'image/svg+xml; charset=utf-8' }

// One renderer for the file: it loads and parses the font once.
const certificates = createPdfRenderer()

describe('before the credential exists', () => {
  let api: Api
  let issuanceId: number
  before(async () => {
    api = await openApi({ certificates })
    ;({ issuanceId } = await issueOne(api))
  })
  after(() => api.close())

  for (const format of FORMATS) {
    it(`format=${format} answers 409 credential-pending as problem+json`, async () => {
      const body = assertProblem(await api.call('GET', filePath(issuanceId, format)), 409, 'credential-pending')
      assert.match(body.detail, /not created yet/)
    })
  }

  it('an unknown format is 422 even before signing: the request is checked first', async () => {
    const body = assertProblem(await api.call('GET', filePath(issuanceId, 'docx')), 422, 'validation-failed')
    assert.deepEqual(body.errors, [{ message: 'unsupported-format', path: 'format' }])
  })
})

describe('the file of a signed credential', () => {
  let api: Api
  let issuanceId: number
  before(async () => {
    api = await openApi({ certificates })
    ;({ issuanceId } = await issueOne(api))
    await api.issuer.worker.drain()
  })
  after(() => api.close())

  for (const format of FORMATS) {
    it(`format=${format} is an attachment with its media type, a Korean file name, an ETag and private no-cache`, async () => {
      const response = await api.get(filePath(issuanceId, format))
      assert.equal(response.status, 200, response.text.slice(0, 300))
      assert.equal(response.headers.get('content-type'), MEDIA_TYPES[format])
      assert.equal(response.headers.get('content-length'), String(response.bytes.length))
      assert.equal(response.headers.get('cache-control'), 'private, no-cache')
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff')
      const disposition = response.headers.get('content-disposition')!
      const match = /^attachment; filename="([\x20-\x7e]+)"; filename\*=UTF-8''([A-Za-z0-9%!#$&+\-.^_`|~]+)$/.exec(disposition)
      assert.ok(match, `Content-Disposition ${disposition}`)
      const suffix = format === 'pdf' ? '' : '-badge'
      // The certificate number counts issuances in issue order (the sequence), never the random id: this
      // is the store's first issuance.
      assert.equal(match[1], `CC-${FILES_CLUB.toUpperCase()}-000001${suffix}.${format}`, 'the ASCII name is the certificate number')
      assert.ok(!match[1]!.includes(String(issuanceId)), 'the random issuance id is not in the certificate number')
      assert.equal(decodeURIComponent(match[2]!), format === 'pdf' ? '체스 입문 - 김민준.pdf' : `체스 입문 - 김민준 badge.${format}`)
      const credential = (await api.call('GET', `/v2/clubs/${FILES_CLUB}/issuances/${issuanceId}/credential`)).body.data
      assert.equal(response.headers.get('etag'), response.headers.get('etag')!.replace(/^W\//, ''), 'a strong ETag')
      assert.match(
        response.headers.get('etag')!,
        new RegExp(`^"${credential.id}\\.${format}\\.valid\\.[0-9a-f]{16}"$`),
        'credential, format and status in the tag',
      )
    })
  }

  it('the bytes start as their format says', async () => {
    const pdf = await api.get(filePath(issuanceId, 'pdf'))
    assert.equal(new TextDecoder().decode(pdf.bytes.subarray(0, 5)), '%PDF-')
    const png = await api.get(filePath(issuanceId, 'png'))
    assert.deepEqual([...png.bytes.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47])
    const svg = await api.get(filePath(issuanceId, 'svg'))
    assert.match(svg.text, /^<svg[\s>]/)
    assert.equal(
      svg.headers.get('content-security-policy'),
      "default-src 'none'; style-src 'unsafe-inline'; img-src data:",
      'an SVG opened directly runs nothing',
    )
  })

  it('is the same bytes with the same ETag when asked again', async () => {
    const first = await api.get(filePath(issuanceId, 'pdf'))
    const second = await api.get(filePath(issuanceId, 'pdf'))
    assert.equal(second.headers.get('etag'), first.headers.get('etag'))
    assert.deepEqual(second.bytes, first.bytes, 'rendering is deterministic, so the strong ETag is honest')
  })

  it('answers 304 with the ETag and no body to a matching If-None-Match, strong, weak, in a list or *', async () => {
    for (const format of FORMATS) {
      const etag = (await api.get(filePath(issuanceId, format))).headers.get('etag')!
      for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
        const response = await api.get(filePath(issuanceId, format), { 'if-none-match': ifNoneMatch })
        assert.equal(response.status, 304, `${format} If-None-Match: ${ifNoneMatch}`)
        assert.equal(response.bytes.length, 0)
        assert.equal(response.headers.get('etag'), etag)
        assert.equal(response.headers.get('cache-control'), 'private, no-cache')
      }
      const stale = await api.get(filePath(issuanceId, format), { 'if-none-match': '"something-else"' })
      assert.equal(stale.status, 200)
    }
  })

  it('a missing, unknown or differently spelled format is 422 unsupported-format listing the supported ones', async () => {
    for (const format of [undefined, '', 'docx', 'PDF', 'jpeg']) {
      const body = assertProblem(await api.call('GET', filePath(issuanceId, format)), 422, 'validation-failed')
      assert.deepEqual(body.errors, [{ message: 'unsupported-format', path: 'format' }])
      assert.match(body.detail, /supported formats: pdf, png, svg\./)
    }
  })

  it('another club’s issuance or an unknown id is 404 issuance-not-found', async () => {
    assertProblem(await api.call('GET', filePath(issuanceId + 1000, 'pdf')), 404, 'issuance-not-found')
    assertProblem(await api.call('GET', filePath(0, 'pdf').replace('/0/', '/abc/')), 404, 'issuance-not-found')
    await api.issuer.clubs.create({ domain: 'go', name: 'Go Club' })
    const goClient = await api.issuer.clients.create({ club: 'go' })
    const token = await tokenOf(api, goClient)
    const foreign = await api.issuer.fetch(
      new Request(`http://localhost:8787${filePath(issuanceId, 'pdf')}`, { headers: { authorization: `Bearer ${token}` } }),
    )
    assert.equal(foreign.status, 403, 'a token of another club')
    assert.equal(((await foreign.json()) as { code: string }).code, 'club-forbidden')
  })

  it('needs the scope issuance:read', async () => {
    const without = await api.tokenWith(['issuance:write'])
    const denied = await api.issuer.fetch(
      new Request(`http://localhost:8787${filePath(issuanceId, 'png')}`, { headers: { authorization: `Bearer ${without}` } }),
    )
    assert.equal(denied.status, 403)
    assert.equal(((await denied.json()) as { code: string }).code, 'insufficient-scope')
    const reader = await api.tokenWith(['issuance:read'])
    const allowed = await api.issuer.fetch(
      new Request(`http://localhost:8787${filePath(issuanceId, 'png')}`, { headers: { authorization: `Bearer ${reader}` } }),
    )
    assert.equal(allowed.status, 200)
    const anonymous = await api.issuer.fetch(new Request(`http://localhost:8787${filePath(issuanceId, 'png')}`))
    assert.equal(anonymous.status, 401)
  })

  it('other methods on the file are 405 with Allow', async () => {
    const response = await api.call('POST', filePath(issuanceId, 'pdf'), {})
    assertProblem(response, 405, 'method-not-allowed')
    assert.match(response.headers.get('allow')!, /GET/)
  })
})

describe('revocation and design changes', () => {
  let api: Api
  before(async () => {
    api = await openApi({ certificates })
  })
  after(() => api.close())

  it('a revoked certificate is marked REVOKED, and its ETag names the new status, so caches revalidate to it', { skip: skipWithoutPoppler }, async () => {
    const { issuanceId } = await issueOne(api, { recipient: { externalUserId: 'revoked', email: 'revoked@chess.example' } })
    await api.issuer.worker.drain()
    const valid = await api.get(filePath(issuanceId, 'pdf'))
    assert.equal(pdfText(valid.bytes).includes('REVOKED'), false, 'a valid certificate carries no mark')

    const revoked = await api.call('POST', `/v2/clubs/${FILES_CLUB}/issuances/${issuanceId}/revoke`, { reason: 'issued by mistake' })
    assert.equal(revoked.status, 200)
    const stale = await api.get(filePath(issuanceId, 'pdf'), { 'if-none-match': valid.headers.get('etag')! })
    assert.equal(stale.status, 200, 'the ETag of the valid file no longer matches')
    assert.match(stale.headers.get('etag')!, /\.pdf\.revoked\./)
    const text = pdfText(stale.bytes)
    assert.match(text, /REVOKED · 취소됨/, 'the diagonal stamp')
    assert.match(text, /This certificate was revoked on/)
    assert.equal(text.includes('issued by mistake'), false, 'the revocation reason is not printed')
    assert.match(text, /김민준/, 'still the same certificate')
  })

  it('a revoked credential created after revocation (born revoked) is a revoked file too', async () => {
    const { issuanceId } = await issueOne(api, { recipient: { externalUserId: 'born', email: 'born@chess.example' } })
    await api.call('POST', `/v2/clubs/${FILES_CLUB}/issuances/${issuanceId}/revoke`)
    assertProblem(await api.call('GET', filePath(issuanceId, 'pdf')), 409, 'credential-pending')
    await api.issuer.worker.drain()
    const response = await api.get(filePath(issuanceId, 'pdf'))
    assert.match(response.headers.get('etag')!, /\.pdf\.revoked\./)
  })

  it('a patched certificate design gives the PDF a new ETag; the baked badges keep theirs', async () => {
    const designId = await createDesign(api, { kind: 'certificate', name: 'Navy', layout: { primaryColor: '#112233' } })
    const { issuanceId } = await issueOne(api, {
      template: { name: '체스 중급', achievementCertificateDesignId: designId },
      recipient: { externalUserId: 'design', email: 'design@chess.example' },
    })
    await api.issuer.worker.drain()
    const before = Object.fromEntries(
      await Promise.all(FORMATS.map(async (format) => [format, (await api.get(filePath(issuanceId, format))).headers.get('etag')])),
    )
    const patched = await api.call('PATCH', `/v2/clubs/${FILES_CLUB}/designs/${designId}`, { layout: { primaryColor: '#884400' } })
    assert.equal(patched.status, 200)
    const afterPatch = Object.fromEntries(
      await Promise.all(FORMATS.map(async (format) => [format, (await api.get(filePath(issuanceId, format))).headers.get('etag')])),
    )
    assert.notEqual(afterPatch.pdf, before.pdf)
    assert.equal(afterPatch.png, before.png)
    assert.equal(afterPatch.svg, before.svg)
  })
})

describe('an issuer without a certificate renderer', () => {
  it('serves png and svg, and answers pdf with 422 unsupported-format listing png and svg only', async () => {
    const api = await openApi()
    try {
      const { issuanceId } = await issueOne(api)
      await api.issuer.worker.drain()
      const body = assertProblem(await api.call('GET', filePath(issuanceId, 'pdf')), 422, 'validation-failed')
      assert.deepEqual(body.errors, [{ message: 'unsupported-format', path: 'format' }])
      assert.match(body.detail, /supported formats: png, svg\.$/)
      for (const format of ['png', 'svg']) {
        const response = await api.issuer.fetch(
          new Request(`http://localhost:8787${filePath(issuanceId, format)}`, { headers: { authorization: `Bearer ${api.token}` } }),
        )
        assert.equal(response.status, 200, format)
      }
    } finally {
      await api.close()
    }
  })

  it('createIssuer refuses a `certificates` option that is not a renderer', () => {
    const options = { storage: createMemoryStorage(), masterKey: new Uint8Array(32), urls: defaultUrls(8787) }
    assert.throws(() => createCoreIssuer({ ...options, certificates: {} as never }), /`certificates` must be a CertificateRenderer/)
    assert.doesNotThrow(() => createCoreIssuer({ ...options, certificates: null }))
  })
})

async function tokenOf(api: Api, client: { client_id: string; client_secret: string }): Promise<string> {
  const response = await api.issuer.fetch(new Request('http://localhost:8787/oauth/token', clientCredentialsGrant(client)))
  return ((await response.json()) as { access_token: string }).access_token
}
