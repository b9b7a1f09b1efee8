/**
 * A baked SVG badge opened from disk in a real browser (Debian's chromium driven by playwright-core), as
 * a recipient double-clicking the downloaded file would ("No script in a badge"): there is
 * no CSP there, so only the sanitiser stands between a design and a script. Each check has its control:
 * the same harness opens the unsanitised file and catches the script (a global set, a dialog, a request
 * or a navigation), so the check can fail.
 */
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { after, before, describe, it } from 'node:test'
import { type Browser, type BrowserContext } from 'playwright-core'
import { openApi, type Api } from '../support/api-harness.ts'
import { FILES_CLUB, filePath, issueOne } from '../support/file-api.ts'
import { BADGE_SVG, BYPASSES } from '../support/svg-designs.ts'
import { launchChromium, noChromium } from '../support/chromium.ts'

const skip = noChromium

/**
 * The one bypass chromium ignores in the raw file (`@import` is not valid in a style attribute); it is
 * refused anyway, since an escape hides from any reader what the CSS says. Every other raw bypass runs a
 * script or loads from evil.example, and the harness must see it.
 */
const INERT_IN_CHROMIUM = new Set(['escaped CSS @\\69mport in a style attribute'])

interface Observed {
  /** `window.pwned`, which every bypass script sets. */
  pwned: unknown
  dialogs: string[]
  /** Requests other than the file itself and inline `data:` images. */
  requests: string[]
  /** Where the page ended up, when not at the file. */
  navigatedTo: string | null
}

describe('a baked SVG badge opened from disk in chromium', { skip }, () => {
  let api: Api
  let browser: Browser
  let context: BrowserContext
  let dir: string

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'clubcred-badge-'))
    ;[api, browser] = await Promise.all([openApi(), launchChromium()])
    context = await browser.newContext({ viewport: { width: 256, height: 256 } })
  })
  after(async () => {
    await context?.close()
    await browser?.close()
    await api?.close()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  /** Writes `svg` to a file, opens it by its file:// URL and reports what ran. */
  async function open(name: string, svg: string): Promise<Observed & { screenshot: Buffer }> {
    const file = join(dir, `${name}.svg`)
    writeFileSync(file, svg)
    const url = pathToFileURL(file).href
    const page = await context.newPage()
    const dialogs: string[] = []
    const requests: string[] = []
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message())
      void dialog.dismiss()
    })
    page.on('request', (request) => {
      if (request.url() !== url && !request.url().startsWith('data:')) requests.push(request.url())
    })
    await page.goto(url, { waitUntil: 'load' })
    // Timers, animations that begin at 0 and iframes get a moment to act.
    await page.waitForTimeout(300)
    const pwned = await page.evaluate(() => (globalThis as { pwned?: unknown }).pwned ?? null).catch(() => null)
    const screenshot = await page.screenshot()
    const navigatedTo = page.url() === url ? null : page.url()
    await page.close()
    return { pwned, dialogs, requests, navigatedTo, screenshot }
  }

  const caught = ({ pwned, dialogs, requests, navigatedTo }: Observed) => pwned !== null || dialogs.length > 0 || requests.length > 0 || navigatedTo !== null

  /** The baked badge (file?format=svg) of an issuance of a template using this design. */
  async function bakedWith(designId: number, name: string): Promise<string> {
    const { issuanceId } = await issueOne(api, { template: { name, achievementBadgeDesignId: designId } })
    await api.issuer.worker.drain()
    const response = await api.get(filePath(issuanceId, 'svg'))
    assert.equal(response.status, 200)
    return response.text
  }

  it('the control: the harness catches a script run from an unsanitised file opened from disk', async () => {
    const observed = await open('raw-script', BYPASSES[0]!.svg)
    assert.equal(observed.pwned, 's:script')
    assert.equal(caught(observed), true)
  })

  it('a badge baked from an allowed design runs nothing and looks exactly like the uploaded drawing', async () => {
    const created = await api.call('POST', `/v2/clubs/${FILES_CLUB}/designs`, {
      kind: 'badge',
      name: 'Gold',
      image: { mediaType: 'image/svg+xml', data: Buffer.from(BADGE_SVG).toString('base64') },
    })
    assert.equal(created.status, 201, JSON.stringify(created.body))
    const baked = await bakedWith(created.body.data.id, 'Gold badge')
    assert.match(baked, /<openbadges:credential verify="[\w-]+\.[\w-]+\.[\w-]+"><\/openbadges:credential>/)
    const opened = await open('baked-gold', baked)
    assert.equal(caught(opened), false, JSON.stringify({ ...opened, screenshot: undefined }))
    const original = await open('original-gold', BADGE_SVG)
    assert.ok(opened.screenshot.equals(original.screenshot), 'the same pixels as the uploaded file')
  })

  it('every bypass stored before the allow-list (an old row) is baked into a file that runs and loads nothing; the raw file is caught', async () => {
    for (const [index, bypass] of BYPASSES.entries()) {
      const bytes = new TextEncoder().encode(bypass.svg)
      const hash = createHash('sha256').update(bytes).digest('hex')
      const designId = await api.storage.transaction(async (tx) => {
        await tx.images.put({ hash, mediaType: 'image/svg+xml', bytes })
        return (await tx.designs.insert({ club: FILES_CLUB, kind: 'badge', name: `Old ${index}`, image: hash, layout: null, createdAt: 0, updatedAt: 0 })).id
      })
      const raw = await open(`old-raw-${index}`, bypass.svg)
      if (!INERT_IN_CHROMIUM.has(bypass.name)) assert.ok(caught(raw), `${bypass.name}: the control catches the raw file`)
      const baked = await open(`old-baked-${index}`, await bakedWith(designId, `Old badge ${index}`))
      assert.equal(caught(baked), false, `${bypass.name}: ${JSON.stringify({ ...baked, screenshot: undefined })}`)
    }
  })
})
