/**
 * The staff console on the Deno entry (docs/admin-console.md): `server/deno.ts` as a child process, the
 * admin made by the CLI run on Deno (node:sqlite, no FFI) against the same data dir, then driven over
 * HTTP as a browser would: the setup link, the password (scrypt on Deno's node:crypto), login, a
 * template with a Korean name, one issuance by the Issue form, signed by the server's worker, revoked
 * with its confirmation; a passkey added on the account page (WebAuthn verified by @simplewebauthn/server
 * on Deno, the authenticator a software one) and a login with it; logout ends the session.
 */
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { denoCli, startDenoServer } from '../support/deno-server.ts'
import { createSoftAuthenticator } from '../support/soft-authenticator.ts'

const PASSWORD = 'a long enough pass phrase'

describe('the staff console on Deno', () => {
  it('setup link, password, login, template, issue, revoke, a passkey, logout, login with the passkey', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'clubcred-deno-console-'))
    const server = await startDenoServer(dataDir)
    try {
      // Requests go to the address it listens on; a form's Origin is its public URL's (localhost, its default).
      const address = new URL(server.url).origin
      const origin = `http://localhost:${new URL(server.url).port}`
      const created = (await denoCli(dataDir, 'admin', 'create', '--club', 'demo', '--email', 'staff@demo.example')) as { setupUrl: string }
      const token = new URL(created.setupUrl).searchParams.get('token')!
      let cookie = ''
      const get = (path: string) => fetch(`${address}${path}`, { headers: cookie ? { cookie } : {}, redirect: 'manual' })
      const post = (path: string, form: Record<string, string>) =>
        fetch(`${address}${path}`, {
          method: 'POST',
          headers: { origin, 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
          body: new URLSearchParams(form).toString(),
          redirect: 'manual',
        })
      const pageOf = async (path: string) => {
        const response = await get(path)
        assert.equal(response.status, 200, `${path} answered ${response.status}`)
        return response.text()
      }

      assert.match(await pageOf(`/admin/setup?token=${token}`), /staff@demo\.example/)
      const setup = await post('/admin/setup', { token, password: PASSWORD, confirmation: PASSWORD })
      assert.equal(setup.status, 303, await setup.text())
      const login = await post('/admin/login', { email: 'staff@demo.example', password: PASSWORD })
      assert.equal(login.status, 303, await login.text())
      cookie = login.headers.getSetCookie()[0]!.split(';')[0]!
      const overview = await pageOf('/admin/')
      const csrf = /name="csrf" value="([^"]+)"/.exec(overview)![1]!

      const template = await post('/admin/templates/new', { csrf, name: '데노 배지', description: '데노에서 만든 템플릿', type: 'completion' })
      assert.equal(template.status, 303, await template.text())
      const templateId = /\/admin\/templates\/(\d+)/.exec(template.headers.get('location')!)![1]!
      assert.match(await pageOf(`/admin/templates/${templateId}`), /데노 배지/)

      const issued = await post('/admin/issue', { csrf, achievementFormId: templateId, name: '김데노', email: 'deno@demo.example', mode: 'none' })
      assert.equal(issued.status, 303, await issued.text())
      const issuancePath = new URL(issued.headers.get('location')!, origin).pathname
      // The server's worker signs it a moment later: the page then links the credential's JWT.
      let page = await pageOf(issuancePath)
      for (let i = 0; i < 200 && !page.includes('/credential.jwt"'); i++) {
        await new Promise((resolve) => setTimeout(resolve, 50))
        page = await pageOf(issuancePath)
      }
      assert.ok(page.includes('/credential.jwt"'), 'signed within 10 s')
      assert.match(page, /김데노/)

      const revoked = await post(`${issuancePath}/revoke`, { csrf, reason: '테스트', confirm: 'yes' })
      assert.equal(revoked.status, 303, await revoked.text())
      assert.match(await pageOf(issuancePath), /취소|[Rr]evoked/)

      const json = (path: string, body: unknown, headers: Record<string, string> = {}) =>
        fetch(`${address}${path}`, {
          method: 'POST',
          headers: { origin, 'content-type': 'application/json', ...(cookie ? { cookie } : {}), ...headers },
          body: JSON.stringify(body),
        })
      const device = createSoftAuthenticator({ rpId: 'localhost', origin })
      const options = await json('/admin/account/passkeys/options', { name: 'deno' }, { 'x-csrf-token': csrf })
      assert.equal(options.status, 200, await options.clone().text())
      const added = await json('/admin/account/passkeys', { name: 'deno', credential: device.register(await options.json()) }, { 'x-csrf-token': csrf })
      assert.equal(added.status, 201, await added.text())

      const out = await post('/admin/logout', { csrf })
      assert.equal(out.status, 303)
      const after = await get('/admin/')
      assert.equal(after.status, 303, 'the session ended')
      await after.body?.cancel()
      cookie = ''
      const loginOptions = await (await json('/admin/passkeys/login/options', { email: '' })).json()
      const passkeyLogin = await json('/admin/passkeys/login', { email: '', credential: device.login(loginOptions) })
      assert.equal(passkeyLogin.status, 200, await passkeyLogin.clone().text())
      cookie = passkeyLogin.headers.getSetCookie()[0]!.split(';')[0]!
      assert.match(await pageOf('/admin/account'), /deno/)
    } finally {
      assert.equal(await server.stop(), 0, server.stderr)
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
