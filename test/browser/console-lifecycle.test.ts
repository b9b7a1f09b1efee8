/**
 * Resend and bulk revoke in the staff console, in chromium against the real server process with a real
 * SMTP server on loopback (docs/admin-console.md § Issuances): the issuance page's "send again", the mail
 * arriving and the page's delivery saying so; then two rows of the issuances page chosen and revoked with
 * one confirmation, with the keyboard alone. Every page reached is judged by axe-core and photographed
 * (test/support/browser.ts).
 *
 * @see docs/decisions/0045-resend-and-bulk-revoke.md
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Page } from 'playwright-core'
import { answeredInPlace, createLook, navigate, noChromium, startConsoleUnderTest, watchErrors, type ConsoleUnderTest } from '../support/browser.ts'
import { pressAndLoad, tabTo } from '../support/keyboard.ts'
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts'
import { accessToken } from '../support/tokens.ts'
import type { ClientCredentials } from '../../core/clients/create.ts'

const CLUB = 'chess'
const PASSWORD = '긴 비밀번호 correct horse battery'

/** Reloads the page until `selector` is on it (the server's worker signs and mails in the background). */
async function until(page: Page, selector: string): Promise<void> {
  const end = Date.now() + 20_000
  while ((await page.locator(selector).count()) === 0) {
    assert.ok(Date.now() < end, `no ${selector} after 20 s: ${await page.locator('main').innerText()}`)
    await new Promise((resolve) => setTimeout(resolve, 250))
    await page.reload()
  }
}

describe('resend and bulk revoke in the staff console, in chromium', { skip: noChromium }, () => {
  let console_: ConsoleUnderTest
  let sink: SmtpSink
  let setupUrl = ''
  let client: ClientCredentials
  const look = createLook('lifecycle')

  before(async () => {
    sink = await startSmtpSink()
    console_ = await startConsoleUnderTest(
      async (cli) => {
        await cli('club', 'create', '--domain', CLUB, '--name', '체스 클럽')
        setupUrl = ((await cli('admin', 'create', '--club', CLUB, '--email', 'staff@chess.example', '--name', '김지수')) as { setupUrl: string }).setupUrl
        client = (await cli('client', 'create', '--club', CLUB)) as ClientCredentials
      },
      { env: { CLUBCRED_SMTP_URL: sink.url } },
    )
  })
  after(async () => {
    await console_?.close()
    await sink?.close()
  })

  it('send again from the issuance page; then choose two rows and revoke them with one confirmation, by keyboard', async () => {
    const { server, base } = console_
    const headers = { authorization: `Bearer ${await accessToken(server, client)}`, 'content-type': 'application/json' }
    const template = await server.http(`/v2/clubs/${CLUB}/achievements`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: '체스 입문 과정', description: '기초를 배웠습니다.' }),
    })
    assert.equal(template.status, 201, template.text)
    const recipients = ['김민준', '이서연', '박도윤'].map((name, i) => ({ name, email: `member${i}@chess.example` }))
    const issued = await server.http(`/v2/clubs/${CLUB}/issuances`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ achievementFormId: template.json.data.id, mode: 'none', recipients }),
    })
    const ids: number[] = issued.json.results.map((item: { resourceId: number }) => item.resourceId)

    const context = await console_.newContext()
    const page = await context.newPage()
    const errors = watchErrors(page)
    await page.goto(setupUrl)
    await page.locator('#password').fill(PASSWORD)
    await page.locator('#confirmation').fill(PASSWORD)
    // Choosing the password signs the person in.
    await navigate(page, () => page.getByRole('button', { name: /Set password/ }).click(), `${base}/?setup=done`)

    await page.goto(`${base}/issuances/${ids[0]}`)
    await until(page, '#status.status-valid')
    assert.match(await page.locator('#delivery-title').innerText(), /Delivery/)
    await look(page, 'issuance-delivery')
    await navigate(page, () => page.getByRole('button', { name: /Send again/ }).click(), `${base}/issuances/${ids[0]}?done=notified`)
    assert.match(await page.getByRole('status').innerText(), /on its way again/)
    await sink.waitFor(1)
    assert.deepStrictEqual(sink.messages[0]!.to, ['member0@chess.example'])
    await until(page, 'section[aria-labelledby="delivery-title"] td.status-valid')
    await look(page, 'issuance-delivery-sent')

    await page.goto(`${base}/issuances`)
    await look(page, 'issuances-choose')
    // Newest first: the third recipient's row comes before the second's.
    await tabTo(page, `#pick-${ids[2]}`)
    await page.keyboard.press('Space')
    await tabTo(page, `#pick-${ids[1]}`)
    await page.keyboard.press('Space')
    await tabTo(page, '#bulk button[type=submit]')
    await pressAndLoad(page, 'Enter', `${base}/issuances/revoke`)
    assert.match(await page.locator('h1').innerText(), /Revoke 2 issuances/)
    await look(page, 'bulk-confirm')
    await tabTo(page, 'input[name=confirm]')
    await page.keyboard.press('Space')
    await tabTo(page, 'form button[type=submit]:not(header button)')
    await answeredInPlace(page, () => page.keyboard.press('Enter'), 200)
    assert.match(await page.getByRole('status').innerText(), /Revoked 2\. Skipped 0, failed 0\./)
    await look(page, 'bulk-result')

    for (const [i, id] of ids.entries()) {
      const detail = await server.http(`/v2/clubs/${CLUB}/issuances/${id}`, { headers })
      assert.equal(detail.json.data.status, i === 0 ? 'valid' : 'revoked')
    }
    assert.deepEqual(errors, [])
    await context.close()
  })
})
