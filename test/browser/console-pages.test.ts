/**
 * The staff console's later pages in chromium against the real server process, as a staff member uses
 * them: a PNG badge design uploaded through the designs form (a refused file first) and a certificate
 * design; a template choosing it, a co-issuer added (a refused URL first) and removed, the badge preview
 * loaded and the PDF preview served; an API client with two scopes whose secret is shown once, rotated and
 * deleted; an API key made and revoked; a webhook to a receiver on loopback that gets the issuance's event,
 * replayed, disabled, enabled, rotated and deleted; the event feed; the account page. Every page reached,
 * the 422 answers included, is judged by axe-core and photographed (test/support/browser.ts). The last test
 * fills the designs form and the client form with the keyboard alone, checking that each control shows its
 * focus.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { BrowserContext, Page } from 'playwright-core'
import { answeredInPlace, createLook, navigate, noChromium, startConsoleUnderTest, watchErrors, type ConsoleUnderTest } from '../support/browser.ts'
import { assertFocusVisible, assertFocused, noteUnfocusedStyles, pressAndLoad, tabTo } from '../support/keyboard.ts'
import { samplePng } from '../support/png-samples.ts'
import { startReceiver } from '../support/webhook-receiver.ts'

const CLUB = 'go'
const PASSWORD = '긴 비밀번호 correct horse battery'
const DESIGN = '바둑 배지'

/** A 48×48 RGBA PNG of a checkerboard, for the badge design. */
function checkerboard(): Buffer {
  const row = 1 + 48 * 4
  const raw = new Uint8Array(48 * row)
  for (let y = 0; y < 48; y++) {
    for (let x = 0; x < 48; x++) raw.set((x >> 3) % 2 === (y >> 3) % 2 ? [20, 20, 20, 255] : [240, 220, 160, 255], y * row + 1 + x * 4)
  }
  return Buffer.from(samplePng({ width: 48, height: 48, raw }))
}

const pngFile = (name: string, bytes: Buffer) => ({ name, mimeType: 'image/png', buffer: bytes })

async function logIn(page: Page, base: string, setupUrl: string): Promise<void> {
  await page.goto(setupUrl)
  await page.locator('#password').fill(PASSWORD)
  await page.locator('#confirmation').fill(PASSWORD)
  // Choosing the password signs the person in.
  await navigate(page, () => page.getByRole('button', { name: /Set password/ }).click(), `${base}/?setup=done`)
  assert.match(await page.locator('.done').innerText(), /signed in/)
}

/** Reloads the webhook's page until its delivery log shows a delivered row. */
async function untilDelivered(page: Page): Promise<void> {
  const end = Date.now() + 20_000
  while ((await page.locator('td.delivery-delivered').count()) === 0) {
    assert.ok(Date.now() < end, `no delivery delivered after 20 s: ${await page.locator('main').innerText()}`)
    await new Promise((resolve) => setTimeout(resolve, 250))
    await page.reload()
  }
}

describe('the staff console pages after the first ones, in chromium', { skip: noChromium }, () => {
  let console_: ConsoleUnderTest
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  let context: BrowserContext
  let page: Page
  let errors: string[]
  let setupUrl = ''
  const look = createLook('pages')
  const click = (selector: string) => () => page.locator(selector).click()

  before(async () => {
    receiver = await startReceiver()
    console_ = await startConsoleUnderTest(
      async (cli) => {
        await cli('club', 'create', '--domain', CLUB, '--name', '바둑 클럽')
        const created = (await cli('admin', 'create', '--club', CLUB, '--email', 'staff@go.example', '--name', '이하늘')) as { setupUrl: string }
        setupUrl = created.setupUrl
      },
      // The receiver listens on 127.0.0.1 over http://.
      { env: { CLUBCRED_WEBHOOKS_ALLOW_PRIVATE: '1' } },
    )
    context = await console_.newContext()
    page = await context.newPage()
    errors = watchErrors(page)
    await logIn(page, console_.base, setupUrl)
  })
  after(async () => {
    await context?.close()
    await receiver?.close()
    await console_?.close()
  })

  it('designs: a PNG badge design uploaded (a refused file first), renamed, a certificate design', async () => {
    const { base } = console_
    await navigate(page, () => page.getByRole('link', { name: /^디자인 Designs$/ }).click(), `${base}/designs`)
    await look(page, 'designs-empty')
    await navigate(page, () => page.getByRole('link', { name: /New badge design/ }).click(), `${base}/designs/new?kind=badge`)
    await look(page, 'designs-new-badge')

    await page.locator('#name').fill(DESIGN)
    // A PNG of 2,048 pixels a side: over the API's 1,024.
    await page.locator('#image').setInputFiles(pngFile('huge.png', Buffer.from(samplePng({ width: 2048, height: 1 }))))
    await answeredInPlace(page, click('main form button[type=submit]'), 422)
    assert.match(await page.locator('#image-error').innerText(), /image-dimensions/)
    assert.equal(await page.locator('#image').getAttribute('aria-invalid'), 'true')
    assert.equal(await page.locator('#name').inputValue(), DESIGN, 'the form comes back as sent')
    await look(page, 'designs-new-refused')

    await page.locator('#image').setInputFiles(pngFile('badge.png', checkerboard()))
    await navigate(page, click('main form button[type=submit]'), /\/admin\/designs\/\d+\?done=created$/)
    assert.equal(await page.locator('h1').innerText(), DESIGN)
    const preview = page.locator('img.preview')
    await preview.waitFor()
    await page.waitForFunction('document.querySelector("img.preview").complete')
    assert.equal(await preview.evaluate((img: HTMLImageElement) => img.naturalWidth), 48, "the design's badge preview is its PNG")
    await look(page, 'design-created')

    await page.locator('#name').fill(`${DESIGN} 2`)
    await navigate(page, click('main form button[type=submit]'), /\/admin\/designs\/\d+\?done=saved$/)
    assert.equal(await page.locator('h1').innerText(), `${DESIGN} 2`, 'renamed; the image was left empty and stays')
    await look(page, 'design-saved')

    await navigate(page, () => page.getByRole('link', { name: /← 디자인/ }).click(), `${base}/designs`)
    await look(page, 'designs-one')
    await navigate(page, () => page.getByRole('link', { name: /New certificate design/ }).click(), `${base}/designs/new?kind=certificate`)
    await look(page, 'designs-new-certificate')
    await page.locator('#name').fill('바둑 인증서')
    await page.locator('#orientation').selectOption('portrait')
    await page.locator('input[name="show.qrCode"]').uncheck()
    await navigate(page, click('main form button[type=submit]'), /\/admin\/designs\/\d+\?done=created$/)
    assert.equal(await page.locator('#orientation').inputValue(), 'portrait')
    assert.equal(await page.locator('input[name="show.qrCode"]').isChecked(), false)
    // A colour input shows its colour: the swatch needs room inside the padding every input has.
    const swatch = await page
      .locator('#primaryColor')
      .evaluate((input) => input.clientHeight - parseFloat(getComputedStyle(input).paddingTop) - parseFloat(getComputedStyle(input).paddingBottom))
    assert.ok(swatch >= 20, `the colour swatch has ${swatch}px of height, not 20`)
    await look(page, 'design-certificate')

    await navigate(page, () => page.getByRole('link', { name: /← 디자인/ }).click(), `${base}/designs`)
    assert.deepEqual(await page.locator('tbody tr a').allInnerTexts(), ['바둑 인증서', `${DESIGN} 2`])
    await look(page, 'designs-list')
  })

  it('a template choosing the design: a co-issuer added (a refused URL first) and removed, the badge and PDF previews', async () => {
    const { base } = console_
    await navigate(
      page,
      () =>
        page
          .getByRole('link', { name: /Templates/ })
          .first()
          .click(),
      `${base}/templates`,
    )
    await look(page, 'templates-empty')
    await navigate(page, () => page.getByRole('link', { name: /New template/ }).click(), `${base}/templates/new`)
    await look(page, 'templates-new')
    await page.locator('#name').fill('바둑 초급')
    await page.locator('#description').fill('초급 과정을 마쳤습니다.')
    await page.locator('#achievementBadgeDesignId').selectOption({ label: `${DESIGN} 2` })
    await navigate(page, () => page.getByRole('button', { name: /Save/ }).click(), /\/admin\/templates\/\d+\?done=created$/)
    const templateUrl = page.url().replace(/\?.*$/, '')
    await page.waitForFunction('document.querySelector("img.preview").complete')
    assert.equal(await page.locator('img.preview').evaluate((img: HTMLImageElement) => img.naturalWidth), 48, "the template's badge is the design's PNG")
    await look(page, 'template-created')

    const pdfHref = await page.getByRole('link', { name: /Certificate preview/ }).getAttribute('href')
    const pdf = await page.request.get(new URL(pdfHref!, page.url()).href)
    assert.equal(pdf.status(), 200)
    assert.equal(pdf.headers()['content-type'], 'application/pdf')
    assert.equal((await pdf.body()).subarray(0, 5).toString(), '%PDF-')
    await navigate(page, () => page.getByRole('link', { name: /^배지 PNG Badge PNG$/ }).click(), `${templateUrl}/preview?format=png`)
    // Chromium's own image viewer, not a console page: axe is not run on it (it has no lang to judge).
    assert.equal(await page.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth), 48, 'the badge PNG opens in the browser')
    await page.goBack()

    await page.locator('#coIssuerName').fill('한국기원')
    await page.locator('#coIssuerUrl').fill('ftp://baduk.example')
    await answeredInPlace(page, () => page.getByRole('button', { name: /^추가 Add$/ }).click(), 422)
    assert.match(await page.locator('#coIssuerUrl-error').innerText(), /invalid-url/)
    assert.equal(await page.locator('#coIssuerName').inputValue(), '한국기원')
    await look(page, 'template-co-issuer-refused')

    await page.locator('#coIssuerUrl').fill('https://baduk.example')
    await page.getByRole('checkbox', { name: /verified it/ }).check()
    await navigate(page, () => page.getByRole('button', { name: /^추가 Add$/ }).click(), `${templateUrl}?done=co-issuer-added`)
    const partner = page.locator('#co-issuers-heading ~ table tbody tr', { hasText: '한국기원' })
    assert.match(await partner.innerText(), /https:\/\/baduk\.example[\s\S]*협력 기관[\s\S]*예/)
    await look(page, 'template-co-issuer-added')

    await navigate(page, () => partner.getByRole('button', { name: /Remove 한국기원/ }).click(), `${templateUrl}?done=co-issuer-removed`)
    assert.equal(await page.locator('#co-issuers-heading ~ table tbody tr', { hasText: '한국기원' }).count(), 0)
    await look(page, 'template-co-issuer-removed')

    await navigate(
      page,
      () =>
        page
          .getByRole('link', { name: /Templates/ })
          .first()
          .click(),
      `${base}/templates`,
    )
    await look(page, 'templates-list')
  })

  it('API clients: none ticked is refused, two scopes made with the secret shown once, rotated, deleted', async () => {
    const { base } = console_
    await navigate(page, () => page.getByRole('link', { name: /Integrations/ }).click(), `${base}/clients`)
    await look(page, 'clients-empty')
    await answeredInPlace(page, () => page.getByRole('button', { name: /^만들기 Create$/ }).click(), 422)
    assert.match(await page.locator('#scopes-error').innerText(), /\S/)
    await look(page, 'clients-create-refused')

    await page.getByRole('checkbox', { name: /issuance:write/ }).check()
    await page.getByRole('checkbox', { name: /events:read/ }).check()
    await answeredInPlace(page, () => page.getByRole('button', { name: /^만들기 Create$/ }).click(), 201)
    const secret = await page.locator('#secret').inputValue()
    const clientId = await page.locator('#client-id').innerText()
    assert.ok(secret.length >= 20, 'the secret is shown on the answer')
    assert.match(await page.locator('main').innerText(), /issuance:write/)
    await look(page, 'client-created')

    await navigate(page, () => page.getByRole('link', { name: /View the client/ }).click(), `${base}/clients/${clientId}`)
    await page.reload()
    assert.equal(await page.locator('#secret').count(), 0, "the client's page has no secret field")
    assert.ok(!(await page.content()).includes(secret), "the secret is on no page but the create's answer")
    assert.equal(await page.locator('h1').innerText(), clientId)
    await look(page, 'client')

    await answeredInPlace(page, click('form[action$="/rotate"] button'), 422)
    assert.equal(await page.locator('#confirm-rotate').getAttribute('aria-invalid'), 'true')
    await look(page, 'client-rotate-unconfirmed')
    await page.locator('#confirm-rotate').check()
    await answeredInPlace(page, click('form[action$="/rotate"] button'), 200)
    const rotated = await page.locator('#secret').inputValue()
    assert.notEqual(rotated, secret)
    await look(page, 'client-rotated')

    await navigate(page, () => page.getByRole('link', { name: /View the client/ }).click(), `${base}/clients/${clientId}`)
    await look(page, 'client-after-rotation')
    await page.locator('#confirm-delete').check()
    await navigate(page, click('form[action$="/delete"] button'), `${base}/clients?done=deleted`)
    assert.equal(await page.locator('tbody tr').count(), 0)
    await look(page, 'clients-deleted')
  })

  it('API keys: made with the key shown once, revoked (refused without the box first)', async () => {
    const { base } = console_
    await navigate(
      page,
      () =>
        page
          .locator('nav.subnav')
          .getByRole('link', { name: /API keys/ })
          .click(),
      `${base}/api-keys`,
    )
    await look(page, 'api-keys-empty')
    await answeredInPlace(page, () => page.getByRole('button', { name: /^만들기 Create$/ }).click(), 201)
    const key = await page.locator('#secret').inputValue()
    assert.match(key, /^cck_[0-9a-f]{16}\./)
    await look(page, 'api-key-created')

    const id = key.slice(4, 20)
    await navigate(page, () => page.getByRole('link', { name: /View the key/ }).click(), `${base}/api-keys/${id}`)
    assert.ok(!(await page.content()).includes(key), "the key's page does not show it")
    await look(page, 'api-key')
    await answeredInPlace(page, click('form[action$="/revoke"] button'), 422)
    assert.match(await page.locator('#confirm-revoke-error').innerText(), /Tick the box/)
    await look(page, 'api-key-revoke-unconfirmed')
    await page.locator('#confirm-revoke').check()
    await navigate(page, click('form[action$="/revoke"] button'), `${base}/api-keys/${id}?done=revoked`)
    assert.match(await page.locator('#state').innerText(), /폐기됨\s*Revoked/)
    await look(page, 'api-key-revoked')

    await navigate(page, () => page.getByRole('link', { name: /← API 키/ }).click(), `${base}/api-keys`)
    assert.match(await page.locator('tbody tr').innerText(), /Revoked/)
    await look(page, 'api-keys-list')
  })

  it('webhooks: a receiver on loopback gets the issuance, replayed, disabled, enabled, rotated, deleted; the events; the account', async () => {
    const { base } = console_
    await navigate(
      page,
      () =>
        page
          .locator('nav.subnav')
          .getByRole('link', { name: /Webhooks/ })
          .click(),
      `${base}/webhooks`,
    )
    await look(page, 'webhooks-empty')
    await page.locator('#url').fill(receiver.url.replace('http://', 'http://user:secret@'))
    await answeredInPlace(page, () => page.getByRole('button', { name: /^만들기 Create$/ }).click(), 422)
    assert.match(await page.locator('#url-error').innerText(), /credentials/)
    await look(page, 'webhooks-create-refused')

    await page.locator('#url').fill(receiver.url)
    await page.getByRole('checkbox', { name: /issuance\.issued/ }).check()
    await answeredInPlace(page, () => page.getByRole('button', { name: /^만들기 Create$/ }).click(), 201)
    const secret = await page.locator('#secret').inputValue()
    receiver.state.secrets = [secret]
    await look(page, 'webhook-created')
    await navigate(page, () => page.getByRole('link', { name: /View the webhook/ }).click(), /\/admin\/webhooks\/wh_[\w-]{16}$/)
    const hookUrl = page.url()
    assert.match(await page.locator('main').innerText(), /No deliveries/)
    await look(page, 'webhook')

    await navigate(page, () => page.getByRole('link', { name: /^발급 Issue$/ }).click(), `${base}/issue`)
    await look(page, 'issue')
    await page.locator('#achievementFormId').selectOption({ label: '바둑 초급' })
    await page.locator('#name').fill('정민호')
    await page.locator('#email').fill('minho@go.example')
    await page.locator('input[name=mode][value=none]').check()
    await navigate(page, () => page.getByRole('button', { name: /^발급 Issue$/ }).click(), /\/admin\/issuances\/\d+\?done=issued$/)
    await look(page, 'issuance')

    await page.goto(hookUrl)
    await untilDelivered(page)
    assert.equal(receiver.received.length, 1)
    assert.deepEqual(receiver.received[0]!.verifiedWith, [0], 'signed with the secret the page showed once')
    assert.equal((JSON.parse(receiver.received[0]!.body) as { type: string }).type, 'issuance.issued')
    await look(page, 'webhook-delivered')

    await navigate(
      page,
      () =>
        page
          .getByRole('button', { name: /Replay/ })
          .first()
          .click(),
      `${hookUrl}?done=replayed`,
    )
    assert.equal(await page.locator('tbody tr').count(), 2, 'the replay is a new delivery')
    await look(page, 'webhook-replayed')
    await navigate(page, () => page.getByRole('button', { name: /^끄기 Disable$/ }).click(), `${hookUrl}?done=disabled`)
    assert.match(await page.locator('#state').innerText(), /Disabled/)
    await look(page, 'webhook-disabled')
    await navigate(page, () => page.getByRole('button', { name: /^켜기 Enable$/ }).click(), `${hookUrl}?done=enabled`)
    assert.match(await page.locator('#state').innerText(), /Enabled/)
    await look(page, 'webhook-enabled')
    await answeredInPlace(page, click('form[action$="/rotate"] button'), 200)
    assert.notEqual(await page.locator('#secret').inputValue(), secret)
    await look(page, 'webhook-rotated')

    await navigate(page, () => page.getByRole('link', { name: /View the webhook/ }).click(), hookUrl)
    await look(page, 'webhook-after-rotation')
    await answeredInPlace(page, click('form[action$="/delete"] button'), 422)
    assert.match(await page.locator('#confirm-delete-error').innerText(), /Tick the box/)
    await look(page, 'webhook-delete-unconfirmed')
    await page.locator('#confirm-delete').check()
    await navigate(page, click('form[action$="/delete"] button'), `${base}/webhooks?done=deleted`)
    await look(page, 'webhooks-deleted')

    await navigate(page, () => page.getByRole('link', { name: /^이벤트 Events$/ }).click(), `${base}/events`)
    assert.match(await page.locator('tbody').innerText(), /issuance\.issued/)
    await look(page, 'events')
    await navigate(page, () => page.getByRole('link', { name: /Account/ }).click(), `${base}/account`)
    assert.match(await page.locator('main').innerText(), /staff@go\.example/)
    await look(page, 'account')

    assert.deepEqual(errors, [], 'no console errors (no CSP violations)')
  })

  it('the designs form and the client form with the keyboard alone: each control is reached by Tab and shows its focus', async () => {
    // A page of its own in the signed-in context: logging in by keyboard is console.test.ts's.
    const keyPage = await context.newPage()
    const keyErrors = watchErrors(keyPage)
    const { base } = console_
    const keys = keyPage.keyboard
    const path = new URL(base).pathname
    await keyPage.goto(`${base}/`)

    await tabTo(keyPage, `nav a[href="${path}/designs"]`)
    await pressAndLoad(keyPage, 'Enter', `${base}/designs`)
    await tabTo(keyPage, `a[href="${path}/designs/new?kind=badge"]`)
    await pressAndLoad(keyPage, 'Enter', `${base}/designs/new?kind=badge`)
    await tabTo(keyPage, '#name')
    await keys.type('키보드 배지')
    await tabTo(keyPage, '#image')
    // A file chooser is the operating system's dialog, which no page can drive: the file is set
    // programmatically, on the input the keyboard focused.
    await keyPage.locator('#image').setInputFiles(pngFile('keys.png', checkerboard()))
    await assertFocused(keyPage, '#image')
    await assertFocusVisible(keyPage)
    await tabTo(keyPage, 'main form button[type=submit]')
    await pressAndLoad(keyPage, 'Enter', /\/admin\/designs\/\d+\?done=created$/)
    assert.equal(await keyPage.locator('h1').innerText(), '키보드 배지')

    await tabTo(keyPage, `nav a[href="${path}/clients"]`)
    await pressAndLoad(keyPage, 'Enter', `${base}/clients`)
    await tabTo(keyPage, '#scope-issuance\\:read')
    await keys.press('Space')
    await tabTo(keyPage, '#scope-issuance\\:revoke')
    await keys.press('Space')
    await tabTo(keyPage, 'main form button[type=submit]')
    await answeredInPlace(keyPage, () => keys.press('Enter'), 201)
    await noteUnfocusedStyles(keyPage)
    assert.match(await keyPage.locator('h1').innerText(), /Client created/)
    assert.match(await keyPage.locator('main').innerText(), /issuance:read[\s\S]*issuance:revoke/)
    // The secret's field is read-only but focusable, so that it can be selected and copied.
    await tabTo(keyPage, '#secret')
    await tabTo(keyPage, `main a[href^="${path}/clients/"]`)
    await pressAndLoad(keyPage, 'Enter', /\/admin\/clients\/[\w-]+$/)
    await tabTo(keyPage, '#confirm-delete')
    await keys.press('Space')
    await tabTo(keyPage, 'form[action$="/delete"] button', { max: 1 })
    await pressAndLoad(keyPage, 'Enter', `${base}/clients?done=deleted`)

    assert.deepEqual(keyErrors, [], 'no console errors (no CSP violations)')
    await keyPage.close()
  })
})
