/**
 * Issuing by CSV in chromium against the real server process, as the product's acceptance asks: a staff
 * member chooses a file of 1,000 recipients, 3 of them bad, with the file input; the preview names exactly
 * those 3 rows, shows them and the first 100 good ones, and every row's outcome downloads as CSV; the
 * confirmation issues the 997 others, and the progress bar, moved by the page's own script while the
 * server's worker signs in the background, reaches the end without a reload; the results
 * count 997 issued and 3 not, and their CSV downloads with a row for each recipient; one issued credential
 * is revoked from its issuance page and its share page says so. Every page reached is judged by axe-core
 * and photographed (test/support/browser.ts). The second test does the same upload with the keyboard
 * alone, the CSV typed into the paste box, checking that each control reached shows its focus.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, before, describe, it } from 'node:test'
import type { BrowserContext, Page } from 'playwright-core'
import { answeredInPlace, createLook, navigate, noChromium, startConsoleUnderTest, watchErrors, type ConsoleUnderTest } from '../support/browser.ts'
import { assertFocused, chooseWithArrows, noteUnfocusedStyles, pressAndLoad, tabTo } from '../support/keyboard.ts'

const CLUB = 'swim'
const PASSWORD = '긴 비밀번호 correct horse battery'
const TEMPLATE = '수영 초급'
const HEADER = 'externalUserId,name,email'
const RESULTS_HEADER = 'row,externalUserId,name,email,status,issuanceId,code,message'
const PROGRESS = /\/admin\/issue\/csv\/(csv_[0-9a-f]{24})$/

/**
 * `count` recipients after the header; `bad` replaces rows by their line in the file (the header is
 * line 1, as the preview numbers them).
 */
function membersCsv(count: number, bad: Record<number, string>): string {
  const rows = Array.from({ length: count }, (_, i) => bad[i + 2] ?? `m-${i + 2},회원 ${i + 2},m${i + 2}@swim.example`)
  return [HEADER, ...rows].join('\n') + '\n'
}

/** An invalid e-mail, a missing name, and the same externalUserId as line 2. */
const BAD = { 101: 'm-101,박서준,not-an-address', 502: 'm-502,,m502@swim.example', 903: 'm-2,다시 온 회원,again@swim.example' }

/** Waits until the progress bar says it is done: the worker has signed every credential issued. */
async function untilDone(page: Page): Promise<void> {
  await page.locator('#csv-progress[data-done="true"]').waitFor({ state: 'attached', timeout: 30_000 })
}

/** The outcome codes shown in the preview's error rows, by line. */
async function errorRows(page: Page): Promise<Record<string, string>> {
  const rows = await page
    .locator('#csv-preview-table tr.row-error')
    .evaluateAll((trs) => trs.map((tr) => [tr.id, tr.querySelector('code')?.textContent ?? ''] as const))
  return Object.fromEntries(rows)
}

describe('issuing by CSV in chromium', { skip: noChromium }, () => {
  let console_: ConsoleUnderTest
  let context: BrowserContext
  let page: Page
  let errors: string[]
  let setupUrl = ''
  const look = createLook('csv')

  before(async () => {
    console_ = await startConsoleUnderTest(async (cli) => {
      await cli('club', 'create', '--domain', CLUB, '--name', '수영 클럽')
      const created = (await cli('admin', 'create', '--club', CLUB, '--email', 'staff@swim.example', '--name', '최유나')) as { setupUrl: string }
      setupUrl = created.setupUrl
    })
    context = await console_.newContext()
    page = await context.newPage()
    errors = watchErrors(page)
    const { base } = console_
    await page.goto(setupUrl)
    await page.locator('#password').fill(PASSWORD)
    await page.locator('#confirmation').fill(PASSWORD)
    // Choosing the password signs the person in.
    await navigate(page, () => page.getByRole('button', { name: /Set password/ }).click(), `${base}/?setup=done`)
    // The template to issue: the templates pages are judged by console.test.ts.
    await page.goto(`${base}/templates/new`)
    await page.locator('#name').fill(TEMPLATE)
    await page.locator('#description').fill('25 m를 쉬지 않고 헤엄쳤습니다.')
    await navigate(page, () => page.getByRole('button', { name: /Save/ }).click(), /\/admin\/templates\/\d+\?done=created$/)
  })
  after(async () => {
    await context?.close()
    await console_?.close()
  })

  it('1,000 rows chosen as a file, 3 bad: previewed, issued, signed with the bar moving, results downloaded, one revoked', async () => {
    const { base } = console_
    await page.goto(`${base}/`)
    await navigate(page, () => page.getByRole('link', { name: /^발급 Issue$/ }).click(), `${base}/issue`)
    await look(page, 'issue')
    await navigate(page, () => page.locator('#issue-csv-link').click(), `${base}/issue/csv`)
    await look(page, 'csv-form')

    await page.locator('#achievementFormId').selectOption({ label: TEMPLATE })
    await page.locator('#mode-none').check()
    await page.locator('#csv-file').setInputFiles({ name: 'members.csv', mimeType: 'text/csv', buffer: Buffer.from(membersCsv(1000, BAD)) })
    await answeredInPlace(page, () => page.locator('#csv-preview').click(), 200)
    assert.equal(await page.locator('#csv-rows').innerText(), '1000')
    assert.equal(await page.locator('#csv-will-issue').innerText(), '997')
    assert.equal(await page.locator('#csv-errors').innerText(), '3')
    assert.deepEqual(await page.locator('#csv-error-rows a').allInnerTexts(), ['101', '502', '903'])
    assert.deepEqual(await errorRows(page), { 'row-101': 'invalid-email', 'row-502': 'required', 'row-903': 'duplicate-in-request' })
    // The page shows the 3 rows with errors and the first 100 to be issued; every row's outcome downloads.
    assert.equal(await page.locator('#csv-preview-table tbody tr').count(), 103)
    await look(page, 'csv-preview', { fullPage: false })
    const [outcomes] = await Promise.all([page.waitForEvent('download'), page.locator('#csv-outcomes-download').click()])
    assert.match(outcomes.suggestedFilename(), /^clubcred-preview-[0-9a-f]{16}\.csv$/)
    const outcomeLines = readFileSync((await outcomes.path())!, 'utf8')
      .slice(1)
      .split('\r\n')
      .slice(1, -1)
    assert.equal(outcomeLines.length, 1000, 'a line for every row')
    assert.deepEqual(
      outcomeLines.filter((line) => !line.includes(',to-issue,')).map((line) => line.split(',')[0]),
      ['101', '502', '903'],
    )

    await navigate(page, () => page.locator('#csv-confirm').click(), PROGRESS)
    // A reload or a navigation would make a new window object: the mark proves the bar moved in this page.
    await page.evaluate('window.__sameDocument = true')
    const barNow = () =>
      page.locator('#csv-progress').evaluate((bar: HTMLProgressElement) => ({ value: bar.value, max: bar.max, done: bar.dataset.done ?? null }))
    // The worker signs the 997 in one round, which starts as the confirmation commits and stores them all
    // at its end, about a second later: the page usually comes at 0 signed and its script moves the bar.
    // A machine slow enough to load the page after the round is no failure of the product, so it is not
    // asserted; the mark below still shows that the page reached the end without a reload.
    const atLoad = await barNow()
    assert.equal(atLoad.max, 997)
    assert.equal(await page.getByRole('progressbar', { name: /서명된 배지 Credentials signed/ }).count(), 1, 'the bar has its name')
    for (const words of ['#csv-progress-text', '#csv-progress-done']) {
      const live = await page.locator(words).evaluate((element) => element.closest('[aria-live]')?.getAttribute('aria-live') ?? null)
      assert.equal(live, 'polite', `${words} is in a polite live region, which says what changes`)
    }
    await look(page, 'csv-progress-start')
    await untilDone(page)
    assert.equal(await page.evaluate('window.__sameDocument'), true, 'the bar reached the end without a reload')
    assert.deepEqual(await barNow(), { value: 997, max: 997, done: 'true' }, 'the bar is full')
    assert.equal(await page.locator('#csv-progress-text').innerText(), '997 / 997')
    assert.equal(await page.locator('#csv-progress-done').isVisible(), true)
    assert.equal(await page.locator('#csv-progress-status').isVisible(), false)
    await look(page, 'csv-progress-done')

    await navigate(page, () => page.locator('#csv-results-link').click(), /\/admin\/issue\/csv\/csv_[0-9a-f]{24}\/results$/)
    assert.equal(await page.locator('#csv-issued').innerText(), '997')
    const notIssued = Number(await page.locator('#csv-skipped').innerText()) + Number(await page.locator('#csv-failed').innerText())
    assert.equal(notIssued, 3)
    await look(page, 'csv-results', { fullPage: false })

    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#csv-results-download').click()])
    assert.match(download.suggestedFilename(), /^clubcred-upload-csv_[0-9a-f]{24}\.csv$/)
    const text = readFileSync((await download.path())!, 'utf8')
    assert.ok(text.startsWith('\uFEFF'), 'a byte order mark, for spreadsheets')
    const lines = text.slice(1).split('\r\n')
    assert.equal(lines.pop(), '', 'every line ends with CRLF')
    assert.equal(lines[0], RESULTS_HEADER)
    assert.equal(lines.length - 1, 1000, 'a row for each recipient')
    assert.equal(lines.filter((line) => /^\d+,[^,]*,[^,]*,[^,]*,issued,\d+,,$/.test(line)).length, 997)
    const byLine = new Map(lines.slice(1).map((line) => [line.split(',')[0], line]))
    assert.match(byLine.get('101')!, /^101,m-101,박서준,not-an-address,failed,,invalid-email,/)
    assert.match(byLine.get('502')!, /^502,m-502,,m502@swim\.example,(failed|skipped),,required,/)
    assert.match(byLine.get('903')!, /^903,m-2,다시 온 회원,again@swim\.example,(failed|skipped),,duplicate-in-request,/)

    await navigate(page, () => page.locator('#csv-results-table #row-2 a').click(), /\/admin\/issuances\/\d+$/)
    assert.match(await page.locator('main').innerText(), /회원 2/)
    assert.equal(await page.locator('#status').getAttribute('class'), 'status-valid', 'signed by the worker')
    await look(page, 'issuance')
    await page.locator('#reason').fill('명단 오류')
    await page.getByRole('checkbox', { name: /cannot be undone/ }).check()
    await navigate(page, () => page.getByRole('button', { name: /Revoke/ }).click(), /\/admin\/issuances\/\d+\?done=revoked$/)
    assert.match(await page.locator('#status').innerText(), /취소됨\s*Revoked/)
    await look(page, 'issuance-revoked')

    const share = page.getByRole('link', { name: /Share page/ })
    const shareUrl = (await share.getAttribute('href'))!
    assert.match(shareUrl, new RegExp(`^http://${CLUB}\\.localhost:\\d+/credentials/`))
    await navigate(page, () => share.click(), shareUrl)
    assert.match(await page.locator('.verdict').innerText(), /취소됨\s*Revoked/)
    await look(page, 'share-revoked')

    assert.deepEqual(errors, [], 'no console errors (no CSP violations)')
  })

  it('the same with the keyboard alone: 20 rows typed into the paste box, 1 bad, previewed, issued, results downloaded', async () => {
    const keyPage = await context.newPage()
    const keyErrors = watchErrors(keyPage)
    const { base } = console_
    const keys = keyPage.keyboard
    const path = new URL(base).pathname
    await keyPage.goto(`${base}/`)

    await tabTo(keyPage, `nav a[href="${path}/issue"]`)
    await pressAndLoad(keyPage, 'Enter', `${base}/issue`)
    await tabTo(keyPage, '#issue-csv-link')
    await pressAndLoad(keyPage, 'Enter', `${base}/issue/csv`)
    await tabTo(keyPage, '#achievementFormId')
    await chooseWithArrows(keyPage, TEMPLATE)
    // The radio group takes the focus on its checked radio; an arrow moves the choice.
    await tabTo(keyPage, '#mode-email:checked', { max: 1 })
    await keys.press('ArrowDown')
    await assertFocused(keyPage, '#mode-none:checked')
    // The file input is reached by Tab and shows its focus; the CSV is typed into the paste box instead
    // of choosing a file (the file chooser is the operating system's dialog, which no page drives).
    await tabTo(keyPage, '#csv-file', { max: 1 })
    await tabTo(keyPage, '#csv-text', { max: 1 })
    await keys.type(membersCsv(20, { 12: 'k-12,키보드,no-at-sign' }).replaceAll('m-', 'k-').replaceAll('@swim', '@keys.swim'))
    await tabTo(keyPage, '#csv-preview', { max: 1 })
    await answeredInPlace(keyPage, () => keys.press('Enter'), 200)
    await noteUnfocusedStyles(keyPage)
    assert.equal(await keyPage.locator('#csv-will-issue').innerText(), '19')
    assert.deepEqual(await errorRows(keyPage), { 'row-12': 'invalid-email' })
    // The link to the bad row is reached by Tab and leads to it.
    await tabTo(keyPage, '#csv-error-rows a[href="#row-12"]')
    await keys.press('Enter')
    await keyPage.waitForURL(/#row-12$/)
    await tabTo(keyPage, '#csv-confirm', { backwards: true })
    await pressAndLoad(keyPage, 'Enter', PROGRESS)

    await untilDone(keyPage)
    await noteUnfocusedStyles(keyPage)
    await tabTo(keyPage, '#csv-results-link')
    await pressAndLoad(keyPage, 'Enter', /\/admin\/issue\/csv\/csv_[0-9a-f]{24}\/results$/)
    assert.equal(await keyPage.locator('#csv-issued').innerText(), '19')
    await tabTo(keyPage, '#csv-results-download')
    const [download] = await Promise.all([keyPage.waitForEvent('download'), keys.press('Enter')])
    assert.equal(readFileSync((await download.path())!, 'utf8').split('\r\n').length - 2, 20)
    await tabTo(keyPage, '#csv-results-table #row-2 a')
    await pressAndLoad(keyPage, 'Enter', /\/admin\/issuances\/\d+$/)
    assert.match(await keyPage.locator('main').innerText(), /회원 2/)

    assert.deepEqual(keyErrors, [], 'no console errors (no CSP violations)')
    await keyPage.close()
  })
})
