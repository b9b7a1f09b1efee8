/**
 * Passkeys of the staff console in process (docs/admin-console.md § Passkeys): registration through the
 * setup link and the account page, login, and the refusals (a replayed challenge, a wrong origin,
 * another admin's credential, a removed or reset admin, bad input), with a software authenticator
 * (test/support/soft-authenticator.ts) against the real verifier. The browser test drives Chromium.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { openConsole, tokenOf, type Console } from '../support/admin-console.ts'
import { createSoftAuthenticator, type SoftAuthenticator } from '../support/soft-authenticator.ts'

describe('staff console passkeys', () => {
  let console_: Console
  let counter = 0
  before(async () => {
    console_ = await openConsole()
  })
  after(() => console_.close())

  const json = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    console_.issuer.fetch(
      new Request(`${console_.origin}${path}`, {
        method: 'POST',
        headers: { origin: console_.origin, 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    )
  const authenticator = () => createSoftAuthenticator({ rpId: 'localhost', origin: console_.origin })

  /** A new admin (its own e-mail) with a passkey registered at its setup link, and the link's token. */
  async function adminWithPasskey(club = 'chess'): Promise<{ email: string; token: string; device: SoftAuthenticator }> {
    const email = `staff${++counter}@${club}.example`
    if (!(await console_.issuer.clubs.find(club))) await console_.issuer.clubs.create({ domain: club, name: `${club} club` })
    const token = tokenOf((await console_.issuer.admins.create({ club, email })).setupUrl)
    const device = authenticator()
    const options = await json('/admin/passkeys/setup/options', { token, name: '노트북' })
    assert.equal(options.status, 200)
    const registered = await json('/admin/passkeys/setup', { token, name: '노트북', credential: device.register(await options.json()) })
    assert.equal(registered.status, 201, await registered.clone().text())
    assert.equal((await registered.json()).name, '노트북')
    return { email, token, device }
  }

  async function passkeyLogin(device: SoftAuthenticator, { email = '', origin }: { email?: string; origin?: string } = {}) {
    const options = await (await json('/admin/passkeys/login/options', { email })).json()
    const credential = device.login(options, origin ? { origin } : {})
    return { credential, response: await json('/admin/passkeys/login', { email, credential }) }
  }

  it('a passkey registered at setup logs in without an e-mail, opening a session like a password login', async () => {
    const { device, token } = await adminWithPasskey()
    // The setup link still sets the password after the passkey.
    assert.equal((await console_.get(`/admin/setup?token=${token}`)).status, 200)
    const { response } = await passkeyLogin(device)
    assert.equal(response.status, 200)
    assert.deepEqual(await response.json(), { location: '/admin/' })
    const cookie = response.headers.getSetCookie()[0]!.split(';')[0]!
    assert.match(cookie, /^clubcred-admin=/)
    const account = await console_.get('/admin/account', cookie)
    assert.equal(account.status, 200)
    const page = await account.text()
    assert.match(page, /<th scope="row">노트북<\/th>/)
    assert.doesNotMatch(page, /<td>—<\/td>\n<td><form/, 'the last use is shown')
  })

  it('a challenge works once: the same signed answer replayed is refused', async () => {
    const { device } = await adminWithPasskey()
    const { credential, response } = await passkeyLogin(device)
    assert.equal(response.status, 200)
    const replayed = await json('/admin/passkeys/login', { email: '', credential })
    assert.equal(replayed.status, 401)
    assert.equal((await replayed.json()).code, 'invalid-login')
  })

  it('an answer signed for another origin is refused, though the request came from the public origin', async () => {
    const { device } = await adminWithPasskey()
    const { response } = await passkeyLogin(device, { origin: 'https://evil.example' })
    assert.equal(response.status, 401)
    assert.equal(response.headers.getSetCookie().length, 0)
    const device2 = authenticator()
    const email = `staff${++counter}@chess.example`
    const token = tokenOf((await console_.issuer.admins.create({ club: 'chess', email })).setupUrl)
    const options = await (await json('/admin/passkeys/setup/options', { token, name: '' })).json()
    const refused = await json('/admin/passkeys/setup', { token, name: '', credential: device2.register(options, { origin: 'https://evil.example' }) })
    assert.equal(refused.status, 422)
    assert.equal((await refused.json()).code, 'refused')
  })

  it('another admin’s passkey logs no one in for the e-mail typed, and another admin cannot remove it', async () => {
    const alice = await adminWithPasskey()
    const bob = await adminWithPasskey()
    const { response } = await passkeyLogin(bob.device, { email: alice.email })
    assert.equal(response.status, 401)
    // Bob's passkey with Bob's e-mail works; Alice, signed in, cannot remove it.
    assert.equal((await passkeyLogin(bob.device, { email: bob.email })).response.status, 200)
    const aliceLogin = await passkeyLogin(alice.device, { email: alice.email })
    const cookie = aliceLogin.response.headers.getSetCookie()[0]!.split(';')[0]!
    const csrf = /name="csrf" value="([^"]+)"/.exec(await (await console_.get('/admin/account', cookie)).text())![1]!
    const bobCookie = (await passkeyLogin(bob.device)).response.headers.getSetCookie()[0]!.split(';')[0]!
    const bobPage = await (await console_.get('/admin/account', bobCookie)).text()
    const bobPasskey = /\/account\/passkeys\/(pk_[0-9a-f]{24})\/remove/.exec(bobPage)![1]!
    const removal = await console_.post(`/admin/account/passkeys/${bobPasskey}/remove`, { csrf, confirm: 'yes' }, { cookie })
    assert.equal(removal.status, 404)
    assert.equal((await passkeyLogin(bob.device)).response.status, 200, 'Bob’s passkey still works')
  })

  it('a removed admin’s passkeys stop working, and a reset ends them too', async () => {
    const removed = await adminWithPasskey()
    await console_.issuer.admins.remove({ club: 'chess', email: removed.email })
    assert.equal((await passkeyLogin(removed.device)).response.status, 401)
    const reset = await adminWithPasskey()
    await console_.issuer.admins.reset({ club: 'chess', email: reset.email })
    assert.equal((await passkeyLogin(reset.device)).response.status, 401)
    // The old setup link registers nothing more either.
    assert.equal((await json('/admin/passkeys/setup/options', { token: reset.token, name: '' })).status, 410)
  })

  it('removing a passkey on the account page needs the ticked box; then it logs in no more', async () => {
    const { device, email } = await adminWithPasskey()
    const second = authenticator()
    // Signed in with the first passkey, the admin adds a second through the account's endpoints.
    const login = await passkeyLogin(device, { email })
    const cookie = login.response.headers.getSetCookie()[0]!.split(';')[0]!
    const csrf = /name="csrf" value="([^"]+)"/.exec(await (await console_.get('/admin/account', cookie)).text())![1]!
    assert.equal((await json('/admin/account/passkeys/options', { name: 'phone' }, { cookie })).status, 403, 'no CSRF token')
    const options = await (await json('/admin/account/passkeys/options', { name: 'phone' }, { cookie, 'x-csrf-token': csrf })).json()
    const added = await json('/admin/account/passkeys', { name: 'phone', credential: second.register(options) }, { cookie, 'x-csrf-token': csrf })
    assert.equal(added.status, 201)
    const { id } = (await added.json()) as { id: string }
    const unconfirmed = await console_.post(`/admin/account/passkeys/${id}/remove`, { csrf }, { cookie })
    assert.equal(unconfirmed.status, 422)
    assert.equal((await passkeyLogin(second)).response.status, 200)
    const removed = await console_.post(`/admin/account/passkeys/${id}/remove`, { csrf, confirm: 'yes' }, { cookie })
    assert.equal(removed.status, 303)
    assert.equal(removed.headers.get('location'), '/admin/account?done=removed')
    assert.equal((await passkeyLogin(second)).response.status, 401)
    assert.equal((await passkeyLogin(device)).response.status, 200, 'the other passkey stays')
  })

  it('bad input is a 4xx problem and stores nothing', async () => {
    const { device, email } = await adminWithPasskey()
    const cases: [Response, number, string][] = [
      [await json('/admin/passkeys/login/options', {}, { origin: 'https://evil.example' }), 403, 'forbidden'],
      [await json('/admin/passkeys/login/options', {}, { 'content-type': 'text/plain' }), 415, 'unsupported-media-type'],
      [await json('/admin/passkeys/login/options', '{not json'), 400, 'invalid-request'],
      [await json('/admin/passkeys/login/options', '[]'), 400, 'invalid-request'],
      [await json('/admin/passkeys/login/options', { email: 7 }), 400, 'invalid-request'],
      [await json('/admin/passkeys/login', { credential: 'x' }), 400, 'invalid-request'],
      [await json('/admin/passkeys/login', { credential: { id: 'x', response: {} } }), 401, 'invalid-login'],
      [await json('/admin/passkeys/setup/options', { token: 'ccsetup_nothing' }), 410, 'invalid-link'],
      [await json('/admin/passkeys/login', 'x'.repeat(70_000)), 413, 'payload-too-large'],
      [await json('/admin/account/passkeys/options', { name: '' }), 401, 'signed-out'],
    ]
    for (const [response, status, code] of cases) {
      assert.equal(response.status, status, code)
      assert.equal(response.headers.get('content-type'), 'application/problem+json')
      assert.equal((await response.json()).code, code)
    }
    const token = tokenOf((await console_.issuer.admins.create({ club: 'chess', email: `staff${++counter}@chess.example` })).setupUrl)
    const longName = await json('/admin/passkeys/setup/options', { token, name: 'x'.repeat(65) })
    assert.equal(longName.status, 422)
    assert.equal((await longName.json()).code, 'invalid-name')
    // The first admin still has exactly its one passkey.
    const cookie = (await passkeyLogin(device, { email })).response.headers.getSetCookie()[0]!.split(';')[0]!
    assert.equal((await (await console_.get('/admin/account', cookie)).text()).match(/<th scope="row">/g)?.length, 1)
  })
})
