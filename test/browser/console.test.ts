/**
 * The staff console in chromium against the real server process, as a staff member uses it: the setup
 * link that `admin create` prints, the password, login, a template with a Korean name and a PNG design,
 * issuing to one recipient, revoking from the issuance's page and the share page saying so, logout;
 * with the parts of docs/decisions/0047-claims-and-expiry.md: the template's expiry reminders, the issuance's wallets and views,
 * the list's "not in a wallet yet" and "expiring within 30 days", the overview's activity in words and chart.
 * Every page visited is judged by axe-core and photographed (test/support/browser.ts). The second test
 * does the same with the keyboard alone and checks that each control it reaches shows its focus.
 */
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { Page } from 'playwright-core'
import { createLook, navigate, noChromium, startConsoleUnderTest, watchErrors, type ConsoleUnderTest } from '../support/browser.ts'
import { assertFocused, chooseWithArrows, pressAndLoad, tabTo } from '../support/keyboard.ts'
import { samplePng } from '../support/png-samples.ts'

const CLUB = 'chess'
const DESIGN = '체스 배지 PNG'
const PASSWORD = '긴 비밀번호 correct horse battery'

/** A 64×64 RGBA PNG of stripes, for the badge design. */
function stripes(): Uint8Array {
  const row = 1 + 64 * 4
  const raw = new Uint8Array(64 * row)
  for (let y = 0; y < 64; y++) {
    for (let x = 0; x < 64; x++) raw.set(x % 16 < 8 ? [24, 73, 169, 255] : [255, 255, 255, 255], y * row + 1 + x * 4)
  }
  return samplePng({ width: 64, height: 64, raw })
}

/** Reloads the issuance's page until the worker has signed it (the status reads "Issued"). */
async function untilSigned(page: Page): Promise<void> {
  const end = Date.now() + 20_000
  while ((await page.locator('#status').getAttribute('class')) !== 'status-valid') {
    assert.ok(Date.now() < end, `not signed after 20 s: ${await page.locator('#status').innerText()}`)
    await new Promise((resolve) => setTimeout(resolve, 250))
    await page.reload()
  }
}

/** Reloads the issuance's page until its credential has `count` versions (the worker signs a reissue in the background). */
async function untilVersions(page: Page, count: number): Promise<void> {
  const end = Date.now() + 20_000
  const rows = page.locator('section:has(h2:has-text("Versions")) tbody tr')
  while ((await rows.count()) !== count) {
    assert.ok(Date.now() < end, `not ${count} versions after 20 s`)
    await new Promise((resolve) => setTimeout(resolve, 250))
    await page.reload()
  }
}

describe('the staff console in chromium', { skip: noChromium }, () => {
  let console_: ConsoleUnderTest
  const setupUrls = new Map<string, string>()
  const look = createLook()

  before(async () => {
    console_ = await startConsoleUnderTest(async (cli) => {
      const folder = mkdtempSync(join(tmpdir(), 'clubcred-design-'))
      const png = join(folder, 'badge.png')
      writeFileSync(png, stripes())
      await cli('club', 'create', '--domain', CLUB, '--name', '체스 클럽')
      await cli('design', 'create', '--club', CLUB, '--kind', 'badge', '--name', DESIGN, '--file', png)
      rmSync(folder, { recursive: true })
      for (const email of ['mouse@chess.example', 'keys@chess.example']) {
        const created = (await cli('admin', 'create', '--club', CLUB, '--email', email, '--name', '김지수')) as { setupUrl: string }
        setupUrls.set(email, created.setupUrl)
      }
    })
  })
  after(async () => {
    await console_?.close()
  })

  it('setup, login, a template with a Korean name and a PNG design, issue, revoke, the share page says revoked, logout', async () => {
    const context = await console_.newContext()
    const page = await context.newPage()
    const errors = watchErrors(page)
    const { base } = console_

    await page.goto(setupUrls.get('mouse@chess.example')!)
    await look(page, 'setup')
    await page.locator('#password').fill(PASSWORD)
    await page.locator('#confirmation').fill(PASSWORD)
    // Choosing the password signs the person in; the login page is judged after logging out.
    await navigate(page, () => page.getByRole('button', { name: /Set password/ }).click(), `${base}/?setup=done`)
    assert.match(await page.locator('.done').innerText(), /Your password is set, and you are signed in/)
    await look(page, 'overview-after-setup')
    await navigate(page, () => page.getByRole('button', { name: /Log out/ }).click(), `${base}/login`)
    await look(page, 'login')
    await page.locator('#email').fill('mouse@chess.example')
    await page.locator('#password').fill('not the password')
    await navigate(page, () => page.getByRole('button', { name: /^로그인 Log in$/ }).click(), `${base}/login`, 401)
    assert.match(await page.getByRole('alert').innerText(), /The e-mail or password is not correct/)
    await look(page, 'login-refused')
    await page.locator('#password').fill(PASSWORD)
    await navigate(page, () => page.getByRole('button', { name: /^로그인 Log in$/ }).click(), `${base}/`)
    assert.match(await page.locator('h1').innerText(), /체스 클럽/)
    await look(page, 'overview')

    await navigate(page, () => page.getByRole('link', { name: /Templates/ }).click(), `${base}/templates`)
    await look(page, 'templates-empty')
    await navigate(page, () => page.getByRole('link', { name: /New template/ }).click(), `${base}/templates/new`)
    await look(page, 'templates-new')
    await page.locator('#name').fill('한국어 배지 테스트')
    await page.locator('#nameEn').fill('Korean badge test')
    await page.locator('#description').fill('브라우저에서 만든 템플릿입니다.')
    await page.locator('#requirement-0-url').fill('not a url')
    await page.locator('#expiryReminders').fill('P30D, P2Y')
    await navigate(page, () => page.getByRole('button', { name: /Save/ }).click(), `${base}/templates/new`, 422)
    assert.match(await page.locator('#requirement-0-url-error').innerText(), /invalid-url/)
    assert.match(await page.locator('#expiryReminders-error').innerText(), /reminder-too-long/)
    await page.locator('#expiryReminders').fill('P7D, P30D')
    await look(page, 'templates-new-refused')
    await page.locator('#requirement-0-url').fill('https://chess.example/rules')
    await page.locator('#tag').fill('브라우저\nchromium')
    await page.locator('#achievementBadgeDesignId').selectOption({ label: DESIGN })
    await navigate(page, () => page.getByRole('button', { name: /Save/ }).click(), /\/admin\/templates\/\d+\?done=created$/)
    assert.equal(await page.locator('h1').innerText(), '한국어 배지 테스트')
    assert.equal(await page.locator('#achievementBadgeDesignId option:checked').innerText(), DESIGN)
    assert.equal(await page.locator('#expiryReminders').inputValue(), 'P30D, P7D')
    await look(page, 'templates-edit')
    await navigate(
      page,
      () =>
        page
          .getByRole('link', { name: /Templates/ })
          .first()
          .click(),
      `${base}/templates`,
    )
    assert.equal(await page.locator('tbody tr a').innerText(), '한국어 배지 테스트')
    await look(page, 'templates-list')

    await navigate(page, () => page.getByRole('link', { name: /^발급 Issue$/ }).click(), `${base}/issue`)
    await look(page, 'issue')
    await page.locator('#achievementFormId').selectOption({ label: '한국어 배지 테스트' })
    await page.locator('#name').fill('이서연')
    await page.locator('#email').fill('seoyeon@chess.example')
    await page.locator('input[name=mode][value=none]').check()
    await navigate(page, () => page.getByRole('button', { name: /^발급 Issue$/ }).click(), /\/admin\/issuances\/\d+\?done=issued$/)
    await untilSigned(page)
    assert.match(await page.locator('#claimed-at').innerText(), /아직 아님\s*Not yet/)
    assert.equal(await page.locator('#share-views').innerText(), '0')
    await look(page, 'issuance-signed')

    // Reissue: a past date is refused beside its field; a new expiry with the template as it is now
    // signs a second version of the same credential.
    await page.locator('#reissue-expires').fill('2001-01-01')
    await navigate(page, () => page.getByRole('button', { name: /Reissue/ }).click(), /\/admin\/issuances\/\d+\/reissue$/, 422)
    assert.equal(await page.locator('#reissue-expiresOn-error').isVisible(), true, 'the refused date is named beside its field')
    await look(page, 'issuance-reissue-refused')
    await page.locator('#reissue-expires').fill('2099-12-31')
    await page.getByRole('checkbox', { name: /template as it is now/ }).check()
    await navigate(page, () => page.getByRole('button', { name: /Reissue/ }).click(), /\/admin\/issuances\/\d+\?done=reissued$/)
    await untilVersions(page, 2)
    await look(page, 'issuance-reissued')
    const issuanceUrl = page.url().replace(/\?done=reissued$/, '')

    // Renew from the list: the row chosen, a new expiry, one confirmation; a third version.
    await navigate(
      page,
      () =>
        page
          .getByRole('link', { name: /Issuances/ })
          .first()
          .click(),
      `${base}/issuances`,
    )
    await look(page, 'issuances-renew')
    await page.getByRole('checkbox', { name: /이서연/ }).check()
    await page.locator('#renew-expires').fill('2100-06-30')
    await page.getByRole('checkbox', { name: /new version/ }).check()
    await navigate(page, () => page.getByRole('button', { name: /Renew/ }).click(), `${base}/issuances?done=renewed&count=1`)
    await look(page, 'issuances-renewed')
    await page.goto(issuanceUrl)
    await untilVersions(page, 3)

    await page.locator('#reason').fill('잘못 발급함')
    await navigate(page, () => page.getByRole('button', { name: /Revoke/ }).click(), /\/admin\/issuances\/\d+\/revoke$/, 422)
    assert.equal(await page.locator('#confirm-error').isVisible(), true, 'without the box ticked, nothing is revoked')
    await look(page, 'issuance-revoke-unconfirmed')
    await page.getByRole('checkbox', { name: /cannot be undone/ }).check()
    await navigate(page, () => page.getByRole('button', { name: /Revoke/ }).click(), /\/admin\/issuances\/\d+\?done=revoked$/)
    assert.match(await page.locator('#status').innerText(), /취소됨\s*Revoked/)
    await look(page, 'issuance-revoked')

    await navigate(
      page,
      () =>
        page
          .getByRole('link', { name: /Issuances/ })
          .first()
          .click(),
      `${base}/issuances`,
    )
    assert.match(await page.locator('tbody tr').innerText(), /이서연[\s\S]*취소됨/)
    await look(page, 'issuances-list')
    await page.getByRole('checkbox', { name: /Not in a wallet yet/ }).check()
    await navigate(page, () => page.getByRole('button', { name: /Show/ }).click(), /\/admin\/issuances\?.*claimed=false/)
    assert.match(await page.locator('tbody tr').innerText(), /이서연/)
    await page.getByRole('checkbox', { name: /Expiring within 30 days/ }).check()
    await navigate(page, () => page.getByRole('button', { name: /Show/ }).click(), /\/admin\/issuances\?.*expiring=true&claimed=false/)
    assert.match(await page.locator('section.card p').last().innerText(), /No issuances match/)
    await look(page, 'issuances-filtered')
    await page.goto(`${base}/issuances`)

    await page.goto(`${base}/no-such-page`)
    await look(page, 'not-found')
    await page.goBack()

    await navigate(page, () => page.locator('tbody tr a').click(), /\/admin\/issuances\/\d+$/)
    const share = page.getByRole('link', { name: /Share page/ })
    const shareUrl = await share.getAttribute('href')
    assert.match(shareUrl!, new RegExp(`^http://${CLUB}\\.localhost:\\d+/credentials/`))
    await navigate(page, () => share.click(), shareUrl!)
    assert.match(await page.locator('.verdict').innerText(), /취소됨\s*Revoked/)
    await look(page, 'share-revoked')

    await page.goBack()
    await page.goto(`${base}/`)
    assert.match(await page.locator('ul.activity').innerText(), /이서연 · 한국어 배지 테스트 · 발급 취소됨\s*Issuance revoked/)
    assert.equal(await page.getByRole('img', { name: /Issued, taken into a wallet and expiring by week/ }).count(), 1)
    assert.equal(await page.locator('#weekly-table tbody tr').count(), 8)
    await look(page, 'overview-activity')
    await navigate(page, () => page.getByRole('button', { name: /Log out/ }).click(), `${base}/login`)
    await page.goto(`${base}/`)
    assert.equal(page.url(), `${base}/login`, 'signed out: the overview sends to login')

    assert.deepEqual(errors, [], 'no console errors (no CSP violations)')
    await context.close()
  })

  it('the same with the keyboard alone: every control is reached by Tab and shows its focus', async () => {
    const context = await console_.newContext()
    const page = await context.newPage()
    const errors = watchErrors(page)
    const { base } = console_
    const keys = page.keyboard
    // Links are written as paths: selectors of an href use the path.
    const path = new URL(base).pathname

    await page.goto(setupUrls.get('keys@chess.example')!)
    await tabTo(page, '#password')
    await keys.type(PASSWORD)
    await tabTo(page, '#confirmation')
    await keys.type(PASSWORD)
    await tabTo(page, 'button[type=submit]')
    // Choosing the password signs the person in.
    await pressAndLoad(page, 'Enter', `${base}/?setup=done`)

    // The first Tab of a page behind login is the skip link, which leads past the menu into the page.
    await tabTo(page, 'a.skip', { max: 1 })
    await look(page, 'keyboard-skip-link')
    await tabTo(page, `nav a[href="${path}/templates"]`)
    await pressAndLoad(page, 'Enter', `${base}/templates`)
    await tabTo(page, 'a.skip')
    await keys.press('Enter')
    await tabTo(page, `a[href="${path}/templates/new"]`, { max: 1 })
    await pressAndLoad(page, 'Enter', `${base}/templates/new`)

    await tabTo(page, '#name')
    await keys.type('키보드 배지 테스트')
    await tabTo(page, '#description')
    await keys.type('키보드만으로 만든 템플릿입니다.')
    await tabTo(page, '#achievementBadgeDesignId')
    await chooseWithArrows(page, DESIGN)
    await tabTo(page, 'form button[type=submit]')
    await pressAndLoad(page, 'Enter', /\/admin\/templates\/\d+\?done=created$/)
    assert.equal(await page.locator('h1').innerText(), '키보드 배지 테스트')

    await tabTo(page, `nav a[href="${path}/issue"]`)
    await pressAndLoad(page, 'Enter', `${base}/issue`)
    await tabTo(page, '#achievementFormId')
    await chooseWithArrows(page, '키보드 배지 테스트')
    await tabTo(page, '#name')
    await keys.type('박도윤')
    await tabTo(page, '#email')
    await keys.type('doyun@chess.example')
    await tabTo(page, 'form button[type=submit]')
    // Back into the radio group, whose checked radio takes the focus; an arrow moves the choice.
    await tabTo(page, 'input[name=mode]:checked', { backwards: true, max: 1 })
    await keys.press('ArrowDown')
    await assertFocused(page, 'input[name=mode][value=none]:checked')
    await tabTo(page, 'form button[type=submit]', { max: 1 })
    await pressAndLoad(page, 'Enter', /\/admin\/issuances\/\d+\?done=issued$/)

    await untilSigned(page)
    await tabTo(page, '#reason')
    await keys.type('키보드 테스트')
    await tabTo(page, 'input[name=confirm]', { max: 1 })
    await keys.press('Space')
    await tabTo(page, 'form[action$="/revoke"] button', { max: 1 })
    await pressAndLoad(page, 'Enter', /\/admin\/issuances\/\d+\?done=revoked$/)
    assert.match(await page.locator('#status').innerText(), /취소됨\s*Revoked/)

    await tabTo(page, 'header button')
    await pressAndLoad(page, 'Enter', `${base}/login`)

    assert.deepEqual(errors, [], 'no console errors (no CSP violations)')
    await context.close()
  })
})
