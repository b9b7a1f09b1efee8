/**
 * The share card (docs/share-card.md, docs/decisions/0043-share-card.md): the share page's Open Graph tags as
 * open-graph-scraper (an Open Graph parser this project did not write) reads them, and the card itself
 * as pngjs decodes it: 1200×630, not blank, the badge drawn (PNG designs, SVG designs, the built-in
 * badge), Hangul drawn in a real face, one card per template and name, cache headers and ETag, and the
 * same card for a revoked credential. In-process through `issuer.fetch`, one issuer for the file: each
 * card costs about 0.1 s of a worker thread.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import ogs from 'open-graph-scraper'
import { PNG } from 'pngjs'
import { openApi, type Api } from '../../support/api-harness.ts'
import { createDesign, issueOne } from '../../support/file-api.ts'
import { readIssuance } from '../../support/issuance-api.ts'
import { samplePng } from '../../support/png-samples.ts'
import { createShareCardRenderer } from '../../../adapters/share-card/index.ts'
import { SVG_NS } from '../../support/svg-designs.ts'
import { ProblemError } from '../../../core/errors.ts'

const SHARE_ORIGIN = 'http://chess.localhost:8787'
/** Where the card draws the badge, and where the achievement's name goes (core/share-cards/card-svg.ts). */
const BADGE_BOX = { x: 80, y: 135, width: 360, height: 360 }
const NAME_BOX = { x: 520, y: 120, width: 600, height: 260 }

interface Card {
  status: number
  headers: Headers
  png: Uint8Array
}

/** `[r, g, b]` of every pixel in `box`. */
function pixels(png: Uint8Array, box: { x: number; y: number; width: number; height: number }): [number, number, number][] {
  const image = PNG.sync.read(Buffer.from(png))
  const out: [number, number, number][] = []
  for (let y = box.y; y < box.y + box.height; y++) {
    for (let x = box.x; x < box.x + box.width; x++) {
      const i = (y * image.width + x) * 4
      out.push([image.data[i]!, image.data[i + 1]!, image.data[i + 2]!])
    }
  }
  return out
}

const share = (count: number, of: number) => count / of

describe('the share card', () => {
  let api: Api
  before(async () => {
    api = await openApi({ shareCards: createShareCardRenderer() })
  })
  after(() => api.close())

  async function fetchText(url: string): Promise<string> {
    const response = await api.issuer.fetch(new Request(url))
    assert.equal(response.status, 200, url)
    return response.text()
  }

  async function card(url: string, headers: Record<string, string> = {}): Promise<Card> {
    const response = await api.issuer.fetch(new Request(url, { headers }))
    return { status: response.status, headers: response.headers, png: new Uint8Array(await response.arrayBuffer()) }
  }

  /** Issues one credential of a fresh template (each name a template of its own); its share URL and issuance id. */
  async function shared(template: Record<string, unknown>, recipient: Record<string, unknown> = {}) {
    const { issuanceId, templateId } = await issueOne(api, { template, recipient })
    await api.issuer.worker.drain()
    const pointer = (await readIssuance(api, issuanceId)).credential as { id: string; shareUrl: string }
    return { issuanceId, templateId, shareUrl: pointer.shareUrl, cardUrl: `${pointer.shareUrl}/card.png` }
  }

  it('the share page names the card for an Open Graph parser: absolute URL, 1200×630, PNG, alt text, and X’s large image card', async () => {
    const { shareUrl, cardUrl } = await shared({ name: '체스 입문 카드', nameEn: 'Chess basics card' })
    const html = await fetchText(shareUrl)
    const { result, error } = await ogs({ html })
    assert.equal(error, false)
    assert.equal(result.twitterCard, 'summary_large_image')
    assert.equal(result.ogUrl, shareUrl)
    assert.match(result.ogTitle ?? '', /^체스 입문 카드 · /)
    assert.match(result.ogDescription ?? '', /Chess Club 발급 디지털 자격증명/)
    assert.equal(result.ogImage?.length, 1, JSON.stringify(result.ogImage))
    const [image] = result.ogImage!
    assert.equal(image!.url, cardUrl)
    assert.equal(new URL(image!.url).origin, SHARE_ORIGIN, 'an absolute URL on the share host')
    assert.equal(image!.width, '1200')
    assert.equal(image!.height, '630')
    assert.equal(image!.type, 'image/png')
    assert.equal(image!.alt, '체스 입문 카드 배지 · Chess Club (Chess basics card badge)')
    assert.ok(!image!.alt!.includes('김민준'), 'the alt text names no recipient')
    assert.deepEqual(
      result.twitterImage?.map((entry) => entry.url),
      [cardUrl],
    )
  })

  it('is a 1200×630 PNG that pngjs decodes, not blank, with a strong ETag and a day of caching; If-None-Match gets 304', async () => {
    const { cardUrl } = await shared({ name: '엔드게임 기초', nameEn: 'Endgame basics' })
    const first = await card(cardUrl)
    assert.equal(first.status, 200)
    assert.equal(first.headers.get('content-type'), 'image/png')
    assert.equal(first.headers.get('cache-control'), 'public, max-age=86400')
    assert.equal(first.headers.get('x-content-type-options'), 'nosniff')
    const etag = first.headers.get('etag')!
    assert.match(etag, /^"card\.[0-9a-f]{32}"$/)
    const image = PNG.sync.read(Buffer.from(first.png))
    assert.deepEqual([image.width, image.height], [1200, 630])
    const colours = new Set(pixels(first.png, { x: 0, y: 0, width: 1200, height: 630 }).map(([r, g, b]) => (r << 16) | (g << 8) | b))
    assert.ok(colours.size > 50, `not blank: ${colours.size} colours`)
    const dark = pixels(first.png, NAME_BOX).filter(([r, g, b]) => r + g + b < 200).length
    assert.ok(share(dark, NAME_BOX.width * NAME_BOX.height) > 0.02, `the name is drawn in dark ink (${dark} dark pixels)`)
    const navy = pixels(first.png, BADGE_BOX).filter(([r, g, b]) => Math.abs(r - 0x1f) < 12 && Math.abs(g - 0x3a) < 12 && Math.abs(b - 0x5f) < 12).length
    assert.ok(share(navy, BADGE_BOX.width * BADGE_BOX.height) > 0.3, 'the built-in badge (a disc in the default colour) without a design')

    const again = await card(cardUrl, { 'if-none-match': etag })
    assert.equal(again.status, 304)
    assert.equal(again.png.length, 0)
    assert.equal(again.headers.get('etag'), etag)
    const head = await api.issuer.fetch(new Request(cardUrl, { method: 'HEAD' }))
    assert.equal(head.status, 200)
    assert.equal(head.headers.get('etag'), etag)
  })

  it('sets Hangul in a real face: two Korean names of the same length draw differently, and differ from a Latin name', async () => {
    const [a, b, latin] = await Promise.all(
      ['체스 기초 과정', '바둑 기초 과정', 'Chess basics'].map(async (name) => (await card((await shared({ name, nameEn: null })).cardUrl)).png),
    )
    const differing = (x: Uint8Array, y: Uint8Array) => {
      const [p, q] = [pixels(x, NAME_BOX), pixels(y, NAME_BOX)]
      return p.filter((pixel, i) => pixel.some((channel, c) => Math.abs(channel - q[i]![c]!) > 40)).length
    }
    // A missing font draws every Hangul syllable as the same .notdef box (or nothing): these would then be equal.
    assert.ok(differing(a!, b!) > 500, `체스 vs 바둑: ${differing(a!, b!)} pixels differ`)
    assert.ok(differing(a!, latin!) > 500, `Korean vs Latin: ${differing(a!, latin!)} pixels differ`)
  })

  it('draws PNG and SVG badge designs into the card', async () => {
    const side = 64
    const raw = new Uint8Array(side * (1 + side * 3))
    for (let row = 0; row < side; row++) for (let x = 0; x < side; x++) raw.set([0xd0, 0x10, 0x10], row * (1 + side * 3) + 1 + x * 3)
    const png = samplePng({ width: side, height: side, colourType: 2, raw })
    const pngDesign = await createDesign(api, {
      kind: 'badge',
      name: 'Red square',
      image: { mediaType: 'image/png', data: Buffer.from(png).toString('base64') },
    })
    const svg = `<svg xmlns="${SVG_NS}" width="64" height="64"><circle cx="32" cy="32" r="30" fill="#10a040"/></svg>`
    const svgDesign = await createDesign(api, {
      kind: 'badge',
      name: 'Green disc',
      image: { mediaType: 'image/svg+xml', data: Buffer.from(svg).toString('base64') },
    })

    const red = pixels((await card((await shared({ name: 'PNG 배지', achievementBadgeDesignId: pngDesign })).cardUrl)).png, BADGE_BOX)
    assert.ok(share(red.filter(([r, g, b]) => r > 180 && g < 60 && b < 60).length, red.length) > 0.9, 'the PNG design fills the badge box')
    const green = pixels((await card((await shared({ name: 'SVG 배지', achievementBadgeDesignId: svgDesign })).cardUrl)).png, BADGE_BOX)
    assert.ok(share(green.filter(([r, g, b]) => r < 60 && g > 130 && b < 100).length, green.length) > 0.6, 'the SVG design, scaled to the badge box')
  })

  it('is one card per template and name: two recipients share it, and it carries nothing of either', async () => {
    const first = await shared({ name: '같은 카드', nameEn: 'Same card' }, { externalUserId: 'a', name: 'Recipient One' })
    const issued = await api.call('POST', '/v2/clubs/chess/issuances', {
      achievementFormId: first.templateId,
      mode: 'none',
      recipients: [{ externalUserId: 'b', name: 'Recipient Two', email: 'two@chess.example' }],
    })
    assert.equal(issued.status, 200, JSON.stringify(issued.body))
    await api.issuer.worker.drain()
    const second = (await readIssuance(api, issued.body.results[0].resourceId)).credential as { shareUrl: string }
    const [a, b] = [await card(first.cardUrl), await card(`${second.shareUrl}/card.png`)]
    assert.notEqual(first.cardUrl, `${second.shareUrl}/card.png`)
    assert.equal(a.headers.get('etag'), b.headers.get('etag'))
    assert.deepEqual(a.png, b.png)
  })

  it('stays the same picture for a revoked credential: it states no validity, so nothing cached of it turns false', async () => {
    const { issuanceId, cardUrl, shareUrl } = await shared({ name: '취소될 카드', nameEn: 'Revoked card' })
    const before = await card(cardUrl)
    const revoked = await api.call('POST', `/v2/clubs/chess/issuances/${issuanceId}/revoke`)
    assert.equal(revoked.status, 200, JSON.stringify(revoked.body))
    const after = await card(cardUrl)
    assert.equal(after.status, 200)
    assert.equal(after.headers.get('etag'), before.headers.get('etag'))
    assert.deepEqual(after.png, before.png)
    assert.match(await fetchText(shareUrl), /<meta property="og:image" content="[^"]+\/card\.png">/, 'the revoked page still names its card')
  })

  it('answers 404 (the share host’s HTML page) for no such credential, a malformed id, or another club’s credential', async () => {
    const { cardUrl } = await shared({ name: '다른 클럽', nameEn: 'Other club' })
    for (const url of [
      `${SHARE_ORIGIN}/credentials/00000000-0000-4000-8000-000000000000/card.png`,
      `${SHARE_ORIGIN}/credentials/not-an-id/card.png`,
      cardUrl.replace('//chess.', '//go.'),
    ]) {
      const response = await card(url)
      assert.equal(response.status, 404, url)
      assert.equal(response.headers.get('content-type'), 'text/html; charset=utf-8')
    }
  })
})

describe('an issuer without a share card renderer', () => {
  it('names no og:image, keeps X’s plain summary card, and has no card to serve', async () => {
    const api = await openApi()
    try {
      const { issuanceId } = await issueOne(api)
      await api.issuer.worker.drain()
      const { shareUrl } = (await readIssuance(api, issuanceId)).credential as { shareUrl: string }
      const html = await (await api.issuer.fetch(new Request(shareUrl))).text()
      const { result } = await ogs({ html })
      assert.equal(result.ogImage, undefined)
      assert.equal(result.twitterCard, 'summary')
      assert.equal((await api.issuer.fetch(new Request(`${shareUrl}/card.png`))).status, 404)
    } finally {
      await api.close()
    }
  })
})

describe('a share card renderer that is too busy', () => {
  it('answers the share host’s 503 page with Retry-After, not a 500', async () => {
    const busy = { renderPng: () => Promise.reject(new ProblemError('server-busy', { detail: 'busy', extra: { retryAfter: 1 } })) }
    const api = await openApi({ shareCards: busy })
    try {
      const { issuanceId } = await issueOne(api)
      await api.issuer.worker.drain()
      const { shareUrl } = (await readIssuance(api, issuanceId)).credential as { shareUrl: string }
      const response = await api.issuer.fetch(new Request(`${shareUrl}/card.png`))
      assert.equal(response.status, 503)
      assert.equal(response.headers.get('retry-after'), '1')
      assert.equal(response.headers.get('content-type'), 'text/html; charset=utf-8')
      assert.match(await response.text(), /요청이 많아 잠시 처리할 수 없습니다/)
    } finally {
      await api.close()
    }
  })
})
