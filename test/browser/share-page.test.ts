/**
 * The share page in a real browser (Debian's chromium driven by playwright-core) against the real server
 * process: the club and its client made with the admin CLI, a template and issuances over HTTP, the page
 * opened at `http://{club}.localhost:{port}/credentials/{id}` as a recipient would (docs/decisions/0001-addresses.md).
 * Screenshots land in test/artifacts/ (git-ignored) for a person to look at.
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { type Browser, type BrowserContext, type Page } from 'playwright-core'
import { accessToken } from '../support/tokens.ts'
import { ROOT, clubAndClient, errorLines, freshDataDir, removeDataDir, startServer, type ServerProcess } from '../support/server.ts'
import { launchChromium, noChromium } from '../support/chromium.ts'

const ARTIFACTS = join(ROOT, 'test/artifacts')
const XSS_NAME = '<script>alert(1)</script>'

const skip = noChromium

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('the share page in chromium', { skip }, () => {
  let server: ServerProcess
  let dataDir: string
  let browser: Browser
  let context: BrowserContext
  let headers: Record<string, string>
  let port: string

  before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true })
    dataDir = freshDataDir()
    const client = await clubAndClient(dataDir, 'chess')
    ;[server, browser] = await Promise.all([startServer({ dataDir }), launchChromium()])
    port = new URL(server.url).port
    headers = { authorization: `Bearer ${await accessToken(server, client)}`, 'content-type': 'application/json' }
    // A phone: the page must read well at 390 CSS pixels.
    context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, locale: 'ko-KR' })
  })
  after(async () => {
    await context?.close()
    await browser?.close()
    if (server) assert.equal(await server.stop(), 0)
    if (dataDir) removeDataDir(dataDir)
    assert.doesNotMatch(server?.stderr ?? '', /failed:/, 'no request ended in a 500')
    if (server) assert.deepEqual(errorLines(server), [], 'no request ended in a 500')
  })

  async function post(path: string, body?: unknown) {
    return server.http(path, { method: 'POST', headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
  }

  /** A template over HTTP, one issuance of it, and the credential pointer once the worker has signed it. */
  async function issueOne(template: Record<string, unknown>): Promise<{ issuanceId: number; id: string; shareUrl: string }> {
    const created = await post('/v2/clubs/chess/achievements', { description: '기본 규칙과 오프닝 원리를 배웠습니다.', ...template })
    assert.equal(created.status, 201, created.text)
    const batch = await post('/v2/clubs/chess/issuances', {
      achievementFormId: created.json.data.id,
      mode: 'none',
      recipients: [{ externalUserId: 'member-1', name: '김민수', email: 'minsu@chess.example' }],
    })
    assert.equal(batch.status, 200, batch.text)
    const issuanceId = batch.json.results[0].resourceId as number
    const end = Date.now() + 15_000
    for (;;) {
      const detail = await server.http(`/v2/clubs/chess/issuances/${issuanceId}`, { headers })
      assert.equal(detail.status, 200, detail.text)
      const pointer = detail.json.data.credential
      if (pointer) return { issuanceId, id: pointer.id, shareUrl: pointer.shareUrl }
      if (Date.now() > end) assert.fail(`issuance ${issuanceId} has no credential after 15 s`)
      await sleep(50)
    }
  }

  /** Opens a page that records dialogs, console errors and every request it makes. */
  async function open(url: string): Promise<{ page: Page; dialogs: string[]; requests: string[]; errors: string[] }> {
    const page = await context.newPage()
    const dialogs: string[] = []
    const requests: string[] = []
    const errors: string[] = []
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message())
      void dialog.dismiss()
    })
    page.on('request', (request) => requests.push(request.url()))
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text())
    })
    const response = await page.goto(url, { waitUntil: 'load' })
    assert.equal(response?.status(), 200, `${url} answered ${response?.status()}`)
    return { page, dialogs, requests, errors }
  }

  /** The banner's background as [r, g, b]. */
  async function bannerColour(page: Page): Promise<number[]> {
    const colour = await page.locator('.verdict').evaluate((element) => getComputedStyle(element).backgroundColor)
    return colour.match(/\d+/g)!.slice(0, 3).map(Number)
  }

  it('shows a valid credential: verdict, recipient, achievement and tags, loading nothing else', async () => {
    const credential = await issueOne({
      name: '체스 입문',
      nameEn: 'Chess basics',
      tag: ['전략', 'tactics', 'endgame'],
      criteria: {
        requirements: [
          { type: 'course_complete', description: '입문 과정 수료' },
          { type: 'score', description: '시험 80점 이상' },
        ],
      },
    })
    assert.equal(credential.shareUrl, `http://chess.localhost:${port}/credentials/${credential.id}`)
    const { page, requests, errors } = await open(credential.shareUrl)
    try {
      const verdict = page.locator('.verdict')
      assert.match(await verdict.innerText(), /유효한 자격증명\s*Valid credential/)
      const [r, g] = await bannerColour(page)
      assert.ok(g! > r!, `the valid banner is green, got rgb ${r},${g}`)
      assert.equal(await page.locator('h1').innerText(), '체스 입문')
      assert.equal(await page.getByText('Chess basics').isVisible(), true)
      assert.equal(await page.getByText('김민수', { exact: true }).isVisible(), true, 'the recipient')
      for (const tag of ['전략', 'tactics', 'endgame']) {
        assert.equal(await page.locator('.tags li', { hasText: tag }).isVisible(), true, `tag ${tag} visible`)
      }
      assert.deepStrictEqual(await page.locator('.criteria li').allInnerTexts(), ['입문 과정 수료', '시험 80점 이상'])
      assert.equal(await page.locator('#verify-url').inputValue(), `http://localhost:${port}/open-badges/v3/achievements/${credential.issuanceId}/verify`)
      assert.equal(await page.locator('#verify-url').getAttribute('readonly'), '')
      assert.equal(await page.locator('.qr img').evaluate((img) => (img as HTMLImageElement).naturalWidth > 0), true, 'the QR code image decodes under the CSP')
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, 'no horizontal scrolling on a phone')
      assert.deepStrictEqual(
        requests.filter((url) => !url.startsWith('data:')),
        [credential.shareUrl, `http://chess.localhost:${port}/share.js`],
        'the page loads nothing but itself and its share button script',
      )
      assert.deepStrictEqual(errors, [], 'no console errors (no CSP violations)')
      await page.screenshot({ path: join(ARTIFACTS, 'share-valid.png'), fullPage: true })
    } finally {
      await page.close()
    }
  })

  it('the "add to wallet" QR code, decoded by zbarimg from a screenshot, is the offer link the page links to', async () => {
    const credential = await issueOne({ name: '지갑 테스트', nameEn: 'Wallet test' })
    const { page, errors } = await open(credential.shareUrl)
    try {
      const offerUri = `http://localhost:${port}/open-badges/v3/issuers/chess/credential-offers/${credential.id}`
      // By reference: the link names the offer, whose every fetch mints a fresh code, so the link itself
      // is the same on every view and the decoded QR code must equal it exactly.
      const expected = `openid-credential-offer://?credential_offer_uri=${encodeURIComponent(offerUri)}`
      assert.equal(await page.locator('a.button--wallet').getAttribute('href'), expected)
      assert.equal(
        await page.locator('.wallet__qr img').evaluate((img) => (img as HTMLImageElement).naturalWidth > 0),
        true,
        'the QR code decodes under the CSP',
      )
      const shot = join(ARTIFACTS, 'share-wallet-qr.png')
      await page.locator('.wallet__qr img').screenshot({ path: shot })
      const decoded = execFileSync('zbarimg', ['--raw', '-q', shot], { encoding: 'utf8' }).trim()
      assert.equal(decoded, expected)
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, 'no horizontal scrolling on a phone')
      assert.deepStrictEqual(errors, [], 'no console errors (no CSP violations)')
      await page.screenshot({ path: join(ARTIFACTS, 'share-wallet.png'), fullPage: true })
    } finally {
      await page.close()
    }
  })

  it('shows a revoked credential as revoked after a reload', async () => {
    const credential = await issueOne({ name: '봄 토너먼트 참가', nameEn: 'Spring tournament', tag: ['tournament'] })
    const { page } = await open(credential.shareUrl)
    try {
      assert.match(await page.locator('.verdict').innerText(), /유효한 자격증명/)
      const revoked = await post(`/v2/clubs/chess/issuances/${credential.issuanceId}/revoke`)
      assert.equal(revoked.status, 200, revoked.text)

      const response = await page.reload({ waitUntil: 'load' })
      assert.equal(response?.status(), 200)
      const verdict = await page.locator('.verdict').innerText()
      assert.match(verdict, /취소됨\s*Revoked/)
      assert.doesNotMatch(verdict, /유효한 자격증명/)
      const [r, g, b] = await bannerColour(page)
      assert.ok(r! > 150 && g! < 80 && b! < 80, `the revoked banner is red, got rgb ${r},${g},${b}`)
      assert.equal(await page.locator('.wallet').count(), 0, 'no "add to wallet" on a revoked credential')
      await page.screenshot({ path: join(ARTIFACTS, 'share-revoked.png'), fullPage: true })
    } finally {
      await page.close()
    }
  })

  it(`shows a template named ${XSS_NAME} as text and never runs it`, async () => {
    const credential = await issueOne({ name: XSS_NAME, tag: ['<img src=x onerror=alert(2)>'] })
    const { page, dialogs } = await open(credential.shareUrl)
    try {
      assert.equal(await page.locator('h1').innerText(), XSS_NAME)
      assert.ok((await page.textContent('body'))!.includes(XSS_NAME), 'the name appears literally as text')
      assert.deepEqual(
        await page.evaluate(() => [...document.querySelectorAll('script')].map((script) => script.outerHTML)),
        ['<script src="/share.js" defer=""></script>'],
        'no script but the share button file',
      )
      assert.equal(await page.evaluate(() => document.querySelectorAll('.tags img').length), 0, 'the tag is text, not an image')
      assert.equal(await page.title(), `${XSS_NAME} · chess club`)
      await sleep(200) // a dialog would be async
      assert.deepStrictEqual(dialogs, [], 'no dialog was opened')
    } finally {
      await page.close()
    }
  })
  /** Opens a page whose `navigator.share` is `share` (`undefined`: the browser has none), before any script runs. */
  async function openWithShare(url: string, share: 'capture' | 'none', extra: { clipboard?: boolean } = {}) {
    const shareContext = await browser.newContext({ locale: 'ko-KR', ...(extra.clipboard ? { permissions: ['clipboard-read', 'clipboard-write'] } : {}) })
    // A string, not a function: tsx's transform would add helpers the page does not have.
    await shareContext.addInitScript(`
      window.shareCalls = []
      if (${JSON.stringify(share)} === 'capture') {
        Object.defineProperty(navigator, 'share', { configurable: true, value: (data) => { window.shareCalls.push(data); return Promise.resolve() } })
      } else {
        // Headless chromium may or may not have it; a browser without it has no such property.
        delete Navigator.prototype.share
      }
    `)
    const page = await shareContext.newPage()
    const errors: string[] = []
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text())
    })
    const response = await page.goto(url, { waitUntil: 'load' })
    assert.equal(response?.status(), 200)
    return { page, errors, close: () => shareContext.close() }
  }

  it("the share button hands the page's address and title to navigator.share, from the keyboard, under the CSP", async () => {
    const credential = await issueOne({ name: '공유 테스트', nameEn: 'Share test' })
    const { page, errors, close } = await openWithShare(credential.shareUrl, 'capture')
    try {
      const button = page.getByRole('button', { name: /공유하기\s*Share/ })
      assert.equal(await button.isVisible(), true, 'the button is shown, by its accessible name')
      // Keyboard only: Tab until the button has focus, then Enter.
      for (let i = 0; i < 30 && !(await button.evaluate((element) => element === document.activeElement)); i++) await page.keyboard.press('Tab')
      assert.equal(await button.evaluate((element) => element === document.activeElement), true, 'the button takes focus from the keyboard')
      await page.keyboard.press('Enter')
      await page.waitForFunction(() => (window as unknown as { shareCalls: unknown[] }).shareCalls.length > 0)
      const calls = await page.evaluate(() => (window as unknown as { shareCalls: unknown[] }).shareCalls)
      assert.deepStrictEqual(calls, [{ title: '공유 테스트 · chess club', url: credential.shareUrl }])
      assert.equal(await page.evaluate(() => location.href), credential.shareUrl, "the address handed over is the page's own")
      assert.deepStrictEqual(errors, [], 'no console errors (no CSP violations)')
    } finally {
      await close()
    }
  })

  it('without the Web Share API the button copies the link and says so in its live region', async () => {
    const credential = await issueOne({ name: '복사 테스트', nameEn: 'Copy test' })
    const { page, errors, close } = await openWithShare(credential.shareUrl, 'none', { clipboard: true })
    try {
      assert.equal(await page.evaluate(() => 'share' in navigator), false, 'this browser has no navigator.share')
      const button = page.getByRole('button', { name: /링크 복사\s*Copy link/ })
      assert.equal(await button.isVisible(), true)
      assert.equal(await page.getByText('공유하기').isVisible(), false, 'the share label is not shown')
      await button.click()
      const status = page.getByRole('status').filter({ hasText: '링크를 복사했습니다' })
      await status.waitFor()
      assert.match(await status.innerText(), /링크를 복사했습니다\.\s*Link copied\./)
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), credential.shareUrl)
      assert.deepStrictEqual(errors, [], 'no console errors (no CSP violations)')
    } finally {
      await close()
    }
  })

  it('the share card decodes in chromium as a 1200×630 image, also for a revoked credential, whose card says nothing of validity', async () => {
    const credential = await issueOne({ name: '카드 테스트', nameEn: 'Card test' })
    const { page } = await open(credential.shareUrl)
    try {
      const cardUrl = await page.locator('meta[property="og:image"]').getAttribute('content')
      assert.equal(cardUrl, `${credential.shareUrl}/card.png`)
      const revoked = await post(`/v2/clubs/chess/issuances/${credential.issuanceId}/revoke`)
      assert.equal(revoked.status, 200, revoked.text)
      // Opened as a document of its own: the page's CSP lets it fetch nothing, as it should.
      const cardPage = await context.newPage()
      try {
        const response = await cardPage.goto(cardUrl!, { waitUntil: 'load' })
        assert.equal(response?.status(), 200)
        assert.equal(response?.headers()['content-type'], 'image/png')
        const size = await cardPage.evaluate(() => {
          const image = document.querySelector('img')!
          return [image.naturalWidth, image.naturalHeight]
        })
        assert.deepStrictEqual(size, [1200, 630])
      } finally {
        await cardPage.close()
      }
    } finally {
      await page.close()
    }
  })
})
