/**
 * Share page views (docs/decisions/0047-claims-and-expiry.md): each person's view of a credential's share page counts
 * (`shareViews`, `lastViewedAt` on the detail), link-preview crawlers and robots do not, and a view
 * writes nothing on its own path: the counts reach the storage in a batch (the worker's round here).
 *
 * @see docs/decisions/0047-claims-and-expiry.md
 */
import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { openApi, type Api } from '../../support/api-harness.ts'
import { createTestClock, type TestClock } from '../../support/clock.ts'
import { createTemplate, issue, readIssuance } from '../../support/issuance-api.ts'

const SHARE_ORIGIN = 'http://chess.localhost:8787'
const BROWSER = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1'
const PREVIEWS = [
  'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
  'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
  'TelegramBot (like TwitterBot)',
  'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)',
  'facebookexternalhit/1.1; kakaotalk-scrap/1.0; +https://devtalk.kakao.com/',
  'WhatsApp/2.23.20.0',
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
]

let api: Api
let clock: TestClock
beforeEach(async () => {
  clock = createTestClock()
  api = await openApi({ clock })
})
afterEach(() => api.close())

describe('share page views', () => {
  it('people count, link previews and robots do not, and nothing is written until the batch', async () => {
    const templateId = await createTemplate(api, { name: '체스 입문', description: '기본 규칙을 배웠습니다.' })
    const { results } = await issue(api, { achievementFormId: templateId, recipients: [{ name: 'Kim', email: 'kim@chess.example' }] })
    const id = results[0]!.resourceId as number
    await api.issuer.worker.drain()
    const detail = await readIssuance(api, id)
    const credential = detail.credential!
    assert.equal(detail.shareViews, 0)
    assert.equal(detail.lastViewedAt, null)
    const page = (userAgent: string | null) =>
      api.issuer.fetch(new Request(credential.shareUrl.replace(/^https?:\/\/[^/]+/, SHARE_ORIGIN), { headers: userAgent ? { 'user-agent': userAgent } : {} }))

    for (const agent of PREVIEWS) assert.equal((await page(agent)).status, 200)
    assert.equal((await page(null)).status, 200, 'no User-Agent: a script, not counted')
    assert.equal((await page('curl/8.5.0')).status, 200, 'a command-line client is not a person viewing either')
    for (let i = 0; i < 3; i++) {
      assert.equal((await page(BROWSER)).status, 200)
      clock.advance(1000)
    }
    assert.equal(await api.storage.shareViews.find(credential.id), null, 'a view is not a write on its path')

    await api.issuer.worker.drain()
    const counted = await readIssuance(api, id)
    assert.equal(counted.shareViews, 3)
    assert.equal(counted.lastViewedAt, new Date(clock.now() - 1000).toISOString())
  })
})
