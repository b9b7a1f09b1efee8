/**
 * Passkeys of the staff console in a real browser (Debian's chromium driven by playwright-core) with
 * the Chrome DevTools Protocol's virtual authenticator (CTAP2, internal, resident keys, user
 * verification): registered at the setup link, then a usernameless login, against a real HTTP server on
 * loopback whose public URL is http://localhost:{port} (a secure context, so WebAuthn runs).
 */
import assert from 'node:assert/strict'

import { createServer, type Server } from 'node:http'
import { after, before, describe, it } from 'node:test'
import { type Browser, type Page } from 'playwright-core'
import { toNodeListener } from '../../adapters/node/index.ts'
import { openConsole, tokenOf, type Console } from '../support/admin-console.ts'
import { launchChromium, noChromium } from '../support/chromium.ts'

const PASSWORD = 'correct horse battery staple'

const skip = noChromium

describe('staff console passkeys in chromium', { skip }, () => {
  let server: Server
  let app: Console
  let browser: Browser
  let page: Page

  before(async () => {
    let handler: ((request: Request) => Promise<Response>) | null = null
    server = createServer((req, res) => toNodeListener((request) => handler!(request))(req, res))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as { port: number }
    ;[app, browser] = await Promise.all([openConsole({ origin: `http://localhost:${port}` }), launchChromium()])
    handler = (request) => app.issuer.fetch(request)
    page = await browser.newPage({ locale: 'ko-KR' })
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('WebAuthn.enable')
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    })
  })
  after(async () => {
    await browser?.close()
    await new Promise((resolve) => server?.close(resolve))
    await app?.close()
  })

  it('registers a passkey at the setup link, then logs in with it without typing the e-mail', async () => {
    await app.issuer.clubs.create({ domain: 'chess', name: 'Chess Club' })
    const { setupUrl } = await app.issuer.admins.create({ club: 'chess', email: 'staff@chess.example', name: '김민수' })
    assert.ok(tokenOf(setupUrl))
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    page.on('console', (message) => {
      // The browser's own favicon request is the only 404 allowed.
      if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico')) errors.push(message.text())
    })

    await page.goto(setupUrl)
    // The script shows the control only where the browser has passkeys; this one has.
    await page.locator('[data-passkey="setup"] button').waitFor({ state: 'visible' })
    await page.fill('#passkey-name', '내 노트북')
    await page.click('[data-passkey="setup"] button')
    await page.locator('.passkey-status', { hasText: 'Passkey registered' }).waitFor()

    // The password form still works after the passkey.
    await page.fill('#password', PASSWORD)
    await page.fill('#confirmation', PASSWORD)
    // Choosing the password signs the person in; logging out leads to the login page.
    await Promise.all([page.waitForURL('**/admin/?setup=done'), page.click('form[action$="/setup"] button[type="submit"]')])
    assert.match(await page.locator('.done').innerText(), /signed in/)
    await Promise.all([page.waitForURL('**/admin/login'), page.getByRole('button', { name: /Log out/ }).click()])

    // A usernameless login: the e-mail field stays empty.
    await page.locator('[data-passkey="login"] button').waitFor({ state: 'visible' })
    await Promise.all([page.waitForURL(/\/admin\/$/), page.click('[data-passkey="login"] button')])
    assert.match(await page.locator('h1').innerText(), /Chess Club/)

    await page.goto(page.url().replace(/\/admin\/$/, '/admin/account'))
    const row = page.locator('tbody tr')
    assert.equal(await row.count(), 1)
    assert.equal(await row.locator('th').innerText(), '내 노트북')
    assert.match(await row.locator('td').nth(1).innerText(), /UTC/, 'the login is the last use')
    assert.deepEqual(errors, [])
  })
})
