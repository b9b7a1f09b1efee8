import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { openApi, type Api } from '../../support/api-harness.ts'
import { assertProblem } from '../../support/achievement-api.ts'
import { decompressionBomb, rawSize, samplePng } from '../../support/png-samples.ts'

/**
 * A PNG whose decoded size does not match its header, or that decodes to more than is drawn, is refused
 * at upload with 422 `validation-failed`, and nothing is stored: no design, no image.
 * @see docs/decisions/0029-no-request-stalls-every-club.md
 */
const DESIGNS = '/v2/clubs/chess/designs'
const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64')
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

describe('PNG uploads are decoded before they are stored', () => {
  let api: Api
  before(async () => {
    api = await openApi()
  })
  after(() => api.close())

  async function assertRefused(png: Uint8Array, code: string) {
    const before = (await api.call('GET', DESIGNS)).body.data.length
    const asBadge = await api.call('POST', DESIGNS, { kind: 'badge', name: 'Badge', image: { mediaType: 'image/png', data: base64(png) } })
    assert.deepEqual(assertProblem(asBadge, 422, 'validation-failed').errors, [{ message: code, path: 'image' }])
    const asLogo = await api.call('POST', DESIGNS, { kind: 'certificate', name: 'Logo', layout: { logo: { mediaType: 'image/png', data: base64(png) } } })
    assert.deepEqual(assertProblem(asLogo, 422, 'validation-failed').errors, [{ message: code, path: 'layout.logo' }])
    assert.equal((await api.call('GET', DESIGNS)).body.data.length, before, 'no design stored')
    assert.equal(await api.storage.images.findByHash(sha256(png)), null, 'no image stored')
  }

  it('refuses a decompression bomb: 1×1 declared, 250 MB inflated', async () => {
    await assertRefused(decompressionBomb(), 'image-png-size-mismatch')
  })

  it('refuses image data that does not match IHDR', async () => {
    await assertRefused(samplePng({ width: 16, height: 16, raw: new Uint8Array(rawSize({ width: 16, height: 16 }) * 2) }), 'image-png-size-mismatch')
  })

  it('refuses an honest PNG larger than what is drawn: 2048×2048 16-bit', async () => {
    await assertRefused(samplePng({ width: 2048, height: 2048, bitDepth: 16 }), 'image-dimensions')
  })

  it('refuses a PNG whose data does not inflate', async () => {
    const png = samplePng({ width: 2, height: 2 })
    await assertRefused(png.subarray(0, 8 + 25 + 8 + 3), 'image-png-undecodable')
  })

  it('stores an honest PNG within the bounds, and a patch with a bomb leaves the design as it was', async () => {
    const png = samplePng({ width: 512, height: 512 })
    const created = await api.call('POST', DESIGNS, { kind: 'badge', name: 'Fine', image: { mediaType: 'image/png', data: base64(png) } })
    assert.equal(created.status, 201, JSON.stringify(created.body))
    const patched = await api.call('PATCH', `${DESIGNS}/${created.body.data.id}`, {
      image: { mediaType: 'image/png', data: base64(decompressionBomb(10_000_000)) },
    })
    assertProblem(patched, 422, 'validation-failed')
    assert.deepEqual((await api.call('GET', `${DESIGNS}/${created.body.data.id}`)).body.data, created.body.data)
  })
})
