import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createPdfRenderer } from '../../../adapters/pdf/index.ts'
import { openApi, type Api } from '../../support/api-harness.ts'
import { ORIGIN } from '../../support/origin.ts'
import { createTestClock } from '../../support/clock.ts'
import { assertProblem } from '../../support/achievement-api.ts'
import { FILES_CLUB, filePath, issueOne } from '../../support/file-api.ts'
import type { CertificateModel } from '../../../core/files/certificate-model.ts'
import type { CertificateRenderer } from '../../../core/ports/certificate-renderer.ts'

/**
 * Certificate files must not let one club stall the event loop every club shares: rendered files are
 * kept by their strong ETag, PDFs render a few at a time, and each club has a download rate.
 * @see docs/decisions/0029-no-request-stalls-every-club.md
 */

/** The real PDF renderer, counting its renders. */
function countingRenderer(): CertificateRenderer & { calls: number } {
  const real = createPdfRenderer()
  const counting = {
    calls: 0,
    renderPdf(model: CertificateModel) {
      counting.calls++
      return real.renderPdf(model)
    },
  }
  return counting
}

describe('rendered files are kept by their strong ETag', () => {
  const renderer = countingRenderer()
  let api: Api
  let issuanceId: number
  before(async () => {
    api = await openApi({ certificates: renderer })
    ;({ issuanceId } = await issueOne(api))
    await api.issuer.worker.drain()
  })
  after(() => api.close())

  it('repeated requests for a PDF, also concurrent ones, render it once and answer the same bytes', async () => {
    const [first, ...others] = await Promise.all([1, 2, 3].map(() => api.get(filePath(issuanceId, 'pdf'))))
    others.push(await api.get(filePath(issuanceId, 'pdf')))
    for (const response of [first!, ...others]) {
      assert.equal(response.status, 200)
      assert.deepEqual(response.bytes, first!.bytes)
    }
    assert.equal(renderer.calls, 1)
  })

  it('a revocation changes the ETag, so the revoked certificate is rendered anew, never served stale', async () => {
    const before = await api.get(filePath(issuanceId, 'pdf'))
    const calls = renderer.calls
    assert.equal((await api.call('POST', `/v2/clubs/${FILES_CLUB}/issuances/${issuanceId}/revoke`, {})).status, 200)
    const after = await api.get(filePath(issuanceId, 'pdf'))
    assert.notEqual(after.headers.get('etag'), before.headers.get('etag'))
    assert.notDeepEqual(after.bytes, before.bytes)
    assert.equal(renderer.calls, calls + 1)
  })
})

describe('PDF renderings are bounded', () => {
  it('past the running and waiting ones, a PDF request is refused at once with 503 server-busy and Retry-After', async () => {
    let entered!: () => void
    const running = new Promise<void>((resolve) => (entered = resolve))
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    const real = createPdfRenderer()
    const held: CertificateRenderer = {
      async renderPdf(model) {
        entered()
        await released
        return real.renderPdf(model)
      },
    }
    // One at a time and none waiting, so that the second is refused whatever the timing.
    const api = await openApi({ certificates: held, files: { renderConcurrency: 1, renderQueue: 0 } })
    try {
      const ids = []
      for (const name of ['a', 'b']) ids.push((await issueOne(api, { template: { name }, recipient: { externalUserId: name } })).issuanceId)
      await api.issuer.worker.drain()
      const first = api.get(filePath(ids[0]!, 'pdf'))
      await running
      const refused = await api.call('GET', filePath(ids[1]!, 'pdf'))
      assertProblem(refused, 503, 'server-busy')
      assert.equal(refused.headers.get('retry-after'), '1')
      release()
      assert.equal((await first).status, 200)
      assert.equal((await api.get(filePath(ids[1]!, 'pdf'))).status, 200, 'served once there is room')
    } finally {
      release()
      await api.close()
    }
  })
})

describe('file downloads are limited per club', () => {
  const clock = createTestClock()
  let api: Api
  let chess: number
  let goToken: string
  let go: number
  before(async () => {
    api = await openApi({ clock, files: { downloadsPerClub: { burst: 3, perSecond: 0.5 } } })
    ;({ issuanceId: chess } = await issueOne(api))
    await api.issuer.clubs.create({ domain: 'go', name: 'Go Club' })
    const template = await api.issuer.achievements.create('go', { name: '바둑 입문', description: '바둑의 기본' })
    const { result } = await api.issuer.issuances.issue('go', { achievementFormId: template.id, recipients: [{ name: '이서연', email: 'seoyeon@go.example' }] })
    go = (result.results[0] as { resourceId: number }).resourceId
    await api.issuer.worker.drain()
    const client = await api.issuer.clients.create({ club: 'go' })
    goToken = (await api.issuer.tokens.issue({ clientId: client.client_id, clientSecret: client.client_secret, grantType: 'client_credentials', scope: null }))
      .access_token
  })
  after(() => api.close())

  const goFile = (format: string) =>
    api.issuer.fetch(new Request(`${ORIGIN}/v2/clubs/go/issuances/${go}/file?format=${format}`, { headers: { authorization: `Bearer ${goToken}` } }))

  it('one club past its burst gets 429 rate-limited with Retry-After, while another club is still served', async () => {
    for (const format of ['png', 'svg', 'png']) assert.equal((await api.get(filePath(chess, format))).status, 200)
    const limited = await api.call('GET', filePath(chess, 'png'))
    const body = assertProblem(limited, 429, 'rate-limited')
    assert.equal(limited.headers.get('retry-after'), '2', 'one request refills in 2 s at 0.5 a second')
    assert.equal(limited.headers.get('content-type'), 'application/problem+json')
    assert.match(body.detail, /0.5 a second/)
    assert.equal((await api.get(filePath(chess, 'svg'))).status, 429, 'every format counts')

    const other = await goFile('png')
    assert.equal(other.status, 200, 'the other club is served')
    assert.equal(other.headers.get('content-type'), 'image/png')
  })

  it('the club is served again once its bucket refills', async () => {
    clock.advance(2000)
    assert.equal((await api.get(filePath(chess, 'png'))).status, 200)
    assert.equal((await api.get(filePath(chess, 'png'))).status, 429)
  })
})
