/**
 * The staff console's sign-in slice over real HTTP (`issuer.fetch`) on real SQLite (docs/admin-console.md):
 * the setup link, login and its limits, the cookie, session lifetimes, logout, CSRF and Origin, the CSP and
 * the session's club.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { openConsole, PASSWORD, tokenOf, type Console } from '../support/admin-console.ts'
import { createScryptPasswordHasher } from '../../adapters/node/password-hasher.ts'

const MINUTE = 60_000

describe('staff console: the setup link', () => {
  let app: Console
  before(async () => {
    app = await openConsole()
    await app.issuer.clubs.create({ domain: 'chess', name: 'Chess Club' })
  })
  after(() => app.close())

  it('sets the password once and signs the person in; the link then answers 410 and the password logs in', async () => {
    const { setupUrl } = await app.issuer.admins.create({ club: 'chess', email: 'Once@Chess.example' })
    const token = tokenOf(setupUrl)
    assert.ok(setupUrl.startsWith(`${app.origin}/admin/setup?token=`))
    const form = await app.get(`/admin/setup?token=${encodeURIComponent(token)}`)
    assert.equal(form.status, 200)
    assert.match(await form.text(), /once@chess\.example/)
    const set = await app.post('/admin/setup', { token, password: PASSWORD, confirmation: PASSWORD })
    assert.equal(set.status, 303)
    // @see docs/decisions/0042-outside-review-smaller-findings.md: signed in at once, with a fresh session and the login's cookie flags.
    assert.equal(set.headers.get('location'), '/admin/?setup=done')
    const [setCookie] = set.headers.getSetCookie()
    assert.match(setCookie!, /^clubcred-admin=[A-Za-z0-9_-]{43}; Path=\/admin; HttpOnly; SameSite=Lax$/)
    const session = setCookie!.split(';')[0]!
    const overview = await app.get('/admin/?setup=done', session)
    assert.equal(overview.status, 200)
    assert.match(await overview.text(), /Your password is set, and you are signed in\./)
    const later = await app.login('once@chess.example')
    assert.notEqual(later.cookie, session, 'a login makes another session')
    const again = await app.post('/admin/setup', { token, password: 'another password 123', confirmation: 'another password 123' })
    assert.equal(again.status, 410)
    assert.equal((await app.get(`/admin/setup?token=${encodeURIComponent(token)}`)).status, 410)
    assert.equal((await app.login('once@chess.example')).response.status, 303)
    assert.equal((await app.login('once@chess.example', 'another password 123')).response.status, 401)
  })

  it('stops working 24 hours after it was made', async () => {
    const { setupUrl } = await app.issuer.admins.create({ club: 'chess', email: 'late@chess.example' })
    const token = tokenOf(setupUrl)
    app.clock.advance(24 * 60 * MINUTE)
    assert.equal((await app.get(`/admin/setup?token=${encodeURIComponent(token)}`)).status, 410)
    assert.equal((await app.post('/admin/setup', { token, password: PASSWORD, confirmation: PASSWORD })).status, 410)
    assert.equal((await app.login('late@chess.example')).response.status, 401)
  })

  it('refuses a password under 12 characters with the error beside the field, and changes nothing', async () => {
    const { setupUrl } = await app.issuer.admins.create({ club: 'chess', email: 'short@chess.example' })
    const token = tokenOf(setupUrl)
    const refused = await app.post('/admin/setup', { token, password: 'elevenchars', confirmation: 'elevenchars' })
    assert.equal(refused.status, 422)
    const page = await refused.text()
    assert.match(
      page,
      /<input id="password"[^>]*aria-invalid="true" aria-describedby="password-error">\n<p class="error" id="password-error">비밀번호는 12자 이상/,
    )
    assert.match(page, /at least 12 characters/)
    // The link still works, and no password was set.
    assert.equal((await app.get(`/admin/setup?token=${encodeURIComponent(token)}`)).status, 200)
    assert.equal((await app.login('short@chess.example', 'elevenchars')).response.status, 401)
    assert.equal((await app.post('/admin/setup', { token, password: 'twelve chars', confirmation: 'twelve chars' })).status, 303)
  })
})

describe('staff console: login', () => {
  let app: Console
  before(async () => {
    app = await openConsole({ limits: { failuresPerAccount: 3, failuresPerAddress: 100 } })
    await app.adminWithPassword('chess', 'staff@chess.example')
    await app.adminWithPassword('chess', 'locked@chess.example')
  })
  after(() => app.close())

  it('the right password opens a session and the overview; a wrong one answers 401 without a cookie', async () => {
    const right = await app.login('STAFF@chess.example ')
    assert.equal(right.response.status, 303)
    assert.equal(right.response.headers.get('location'), '/admin/')
    const overview = await app.get('/admin/', right.cookie)
    assert.equal(overview.status, 200)
    assert.match(await overview.text(), /chess club/)
    const wrong = await app.login('staff@chess.example', 'not the password')
    assert.equal(wrong.response.status, 401)
    assert.deepStrictEqual(wrong.response.headers.getSetCookie(), [])
    assert.equal((await app.get('/admin/')).status, 303)
  })

  it('an unknown e-mail gets exactly the answer of a wrong password', async () => {
    const unknown = await app.post('/admin/login', { email: 'nobody@chess.example', password: 'not the password' })
    const wrong = await app.post('/admin/login', { email: 'staff@chess.example', password: 'not the password' })
    assert.equal(unknown.status, wrong.status)
    // The page echoes the e-mail typed; the rest is identical.
    assert.equal((await unknown.text()).replace('nobody@chess.example', 'E'), (await wrong.text()).replace('staff@chess.example', 'E'))
    assert.deepStrictEqual([...unknown.headers.keys()].sort(), [...wrong.headers.keys()].sort())
  })

  it('locks an account after its limit of failures, even for the right password, and not other accounts', async () => {
    for (let i = 0; i < 3; i++) assert.equal((await app.login('locked@chess.example', 'wrong password!')).response.status, 401)
    const locked = await app.login('locked@chess.example')
    assert.equal(locked.response.status, 429)
    assert.ok(Number(locked.response.headers.get('retry-after')) > 0)
    assert.equal(locked.cookie, '')
    assert.equal((await app.login('staff@chess.example')).response.status, 303)
    app.clock.advance(15 * MINUTE)
    assert.equal((await app.login('locked@chess.example')).response.status, 303)
  })
})

describe('staff console: the limit per address', () => {
  let app: Console
  before(async () => {
    app = await openConsole({ limits: { failuresPerAccount: 100, failuresPerAddress: 4 } })
    await app.adminWithPassword('chess', 'staff@chess.example')
  })
  after(() => app.close())

  it('failures across many e-mails from one address lock that address out, right password or not', async () => {
    for (let i = 0; i < 4; i++) assert.equal((await app.login(`guess${i}@chess.example`, 'wrong password!')).response.status, 401)
    assert.equal((await app.login('staff@chess.example')).response.status, 429)
  })
})

describe('staff console: the session cookie', () => {
  it('on http: HttpOnly, SameSite=Lax, the console path, not Secure', async () => {
    const app = await openConsole()
    try {
      await app.adminWithPassword('chess', 'staff@chess.example')
      const { response } = await app.login('staff@chess.example')
      const [cookie] = response.headers.getSetCookie()
      assert.match(cookie!, /^clubcred-admin=[A-Za-z0-9_-]{43}; Path=\/admin; HttpOnly; SameSite=Lax$/)
    } finally {
      await app.close()
    }
  })

  it('on https: __Host- prefixed, Secure, Path=/', async () => {
    const app = await openConsole({ origin: 'https://badges.example' })
    try {
      await app.adminWithPassword('chess', 'staff@chess.example')
      const { response, cookie } = await app.login('staff@chess.example')
      const [header] = response.headers.getSetCookie()
      assert.match(header!, /^__Host-clubcred-admin=[A-Za-z0-9_-]{43}; Path=\/; Secure; HttpOnly; SameSite=Lax$/)
      assert.equal((await app.get('/admin/', cookie)).status, 200)
    } finally {
      await app.close()
    }
  })
})

describe('staff console: session lifetimes and ends', () => {
  let app: Console
  before(async () => {
    app = await openConsole()
    await app.adminWithPassword('chess', 'staff@chess.example')
  })
  after(() => app.close())

  it('ends after 30 minutes without a request, and lives on while used', async () => {
    const { cookie } = await app.login('staff@chess.example')
    app.clock.advance(29 * MINUTE)
    assert.equal((await app.get('/admin/', cookie)).status, 200)
    app.clock.advance(29 * MINUTE)
    assert.equal((await app.get('/admin/', cookie)).status, 200)
    app.clock.advance(30 * MINUTE)
    const ended = await app.get('/admin/', cookie)
    assert.equal(ended.status, 303)
    assert.equal(ended.headers.get('location'), '/admin/login')
  })

  it('ends 12 hours after login however busy', async () => {
    const { cookie } = await app.login('staff@chess.example')
    for (let elapsed = 0; elapsed < 12 * 60 - 20; elapsed += 20) {
      app.clock.advance(20 * MINUTE)
      assert.equal((await app.get('/admin/', cookie)).status, 200, `at ${elapsed + 20} minutes`)
    }
    app.clock.advance(20 * MINUTE)
    assert.equal((await app.get('/admin/', cookie)).status, 303)
  })

  it('logout (POST with the CSRF token) ends the session and clears the cookie', async () => {
    const { cookie, csrf } = await app.login('staff@chess.example')
    assert.ok(csrf.length > 20)
    const out = await app.post('/admin/logout', { csrf }, { cookie })
    assert.equal(out.status, 303)
    assert.match(out.headers.getSetCookie()[0]!, /^clubcred-admin=; Path=\/admin; HttpOnly; SameSite=Lax; Max-Age=0$/)
    assert.equal((await app.get('/admin/', cookie)).status, 303)
  })

  it("a removed admin's session ends at once", async () => {
    await app.adminWithPassword('chess', 'leaving@chess.example')
    const { cookie } = await app.login('leaving@chess.example')
    assert.equal((await app.get('/admin/', cookie)).status, 200)
    await app.issuer.admins.remove({ club: 'chess', email: 'leaving@chess.example' })
    assert.equal((await app.get('/admin/', cookie)).status, 303)
  })

  it('a login whose hash has other parameters than new hashes get stores a new hash; the password keeps working', async () => {
    await app.adminWithPassword('chess', 'rehash@chess.example')
    const admin = (await app.storage.admins.findByEmail('rehash@chess.example'))!
    const older = await createScryptPasswordHasher({ parameters: { ln: 11, r: 8, p: 1 } }).hash(PASSWORD)
    assert.equal(await app.storage.transaction((tx) => tx.admins.replacePasswordHash(admin.id, admin.passwordHash!, older)), true)
    assert.equal((await app.login('rehash@chess.example', 'a wrong password!')).response.status, 401)
    assert.equal((await app.storage.admins.findById(admin.id))?.passwordHash, older, 'a failed login rehashes nothing')
    assert.equal((await app.login('rehash@chess.example')).response.status, 303)
    const rehashed = (await app.storage.admins.findById(admin.id))!.passwordHash!
    assert.match(rehashed, /^\$scrypt\$ln=10,r=8,p=1\$/)
    assert.equal((await app.login('rehash@chess.example')).response.status, 303)
    assert.equal((await app.storage.admins.findById(admin.id))?.passwordHash, rehashed, 'rehashed once')
  })

  it("the worker's housekeeping deletes ended sessions and keeps live ones", async () => {
    await app.adminWithPassword('chess', 'idle@chess.example')
    const sessionsLeft = () => app.storage.transaction((tx) => tx.adminSessions.purgeEnded(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER))
    await sessionsLeft()
    await app.login('idle@chess.example')
    const live = await app.login('idle@chess.example')
    app.clock.advance(29 * 60_000)
    assert.equal((await app.get('/admin/', live.cookie)).status, 200)
    // The first session has been idle 31 minutes, the second one 2; a minute more makes the purge due.
    app.clock.advance(2 * 60_000)
    await app.issuer.worker.runOnce()
    assert.equal((await app.get('/admin/', live.cookie)).status, 200)
    assert.equal(await sessionsLeft(), 1)
  })
})

describe('staff console: a form body without a length', () => {
  it('is read only up to the limit: 413 after 16 KiB of a chunked body, the rest never pulled', async () => {
    const app = await openConsole()
    try {
      let pulled = 0
      const endless = new ReadableStream<Uint8Array>({
        pull(controller) {
          pulled++
          // Bounded: a reader that took everything would stop here, after 64 MiB.
          if (pulled > 65_536) controller.close()
          else controller.enqueue(new TextEncoder().encode('a'.repeat(1024)))
        },
      })
      const answer = await app.issuer.fetch(
        new Request(`${app.origin}/admin/login`, {
          method: 'POST',
          headers: { origin: app.origin, 'content-type': 'application/x-www-form-urlencoded' },
          body: endless,
          duplex: 'half',
        } as RequestInit),
      )
      assert.equal(answer.status, 413)
      assert.ok(pulled < 64, `${pulled} chunks of 1 KiB pulled`)
    } finally {
      await app.close()
    }
  })
})

describe('staff console: a flood of logins', () => {
  it('a login beyond the hasher’s bound is 503 with Retry-After, and the next one passes', async () => {
    const app = await openConsole({ hasher: { concurrency: 1, maxWaiting: 0 } })
    try {
      const email = await app.adminWithPassword('chess', 'busy@chess.example')
      const answers = await Promise.all(Array.from({ length: 4 }, () => app.post('/admin/login', { email, password: PASSWORD })))
      const statuses = answers.map((answer) => answer.status)
      assert.equal(statuses.filter((status) => status === 303).length, 1, String(statuses))
      assert.equal(statuses.filter((status) => status === 503).length, 3, String(statuses))
      const busy = answers.find((answer) => answer.status === 503)!
      assert.equal(busy.headers.get('retry-after'), '2')
      assert.match(await busy.text(), /Too many sign-ins/)
      assert.equal((await app.post('/admin/login', { email, password: PASSWORD })).status, 303)
    } finally {
      await app.close()
    }
  })
})

describe('staff console: CSRF, Origin and CSP', () => {
  let app: Console
  before(async () => {
    app = await openConsole()
    await app.adminWithPassword('chess', 'staff@chess.example')
  })
  after(() => app.close())

  it('a POST without the CSRF token, or with another session’s, is 403 and the session lives on', async () => {
    const { cookie } = await app.login('staff@chess.example')
    const other = await app.login('staff@chess.example')
    assert.equal((await app.post('/admin/logout', {}, { cookie })).status, 403)
    assert.equal((await app.post('/admin/logout', { csrf: other.csrf }, { cookie })).status, 403)
    assert.equal((await app.get('/admin/', cookie)).status, 200)
  })

  it('a POST with a foreign or a missing Origin is 403 and changes nothing', async () => {
    const { cookie, csrf } = await app.login('staff@chess.example')
    const foreign = await app.post('/admin/logout', { csrf }, { cookie, headers: { origin: 'https://evil.example' } })
    assert.equal(foreign.status, 403)
    const missing = await app.issuer.fetch(
      new Request(`${app.origin}/admin/logout`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: `csrf=${csrf}`,
      }),
    )
    assert.equal(missing.status, 403)
    assert.equal((await app.get('/admin/', cookie)).status, 200)
    const login = await app.post('/admin/login', { email: 'staff@chess.example', password: PASSWORD }, { headers: { origin: 'https://evil.example' } })
    assert.equal(login.status, 403)
    assert.deepStrictEqual(login.headers.getSetCookie(), [])
  })

  it('every page has a strict CSP without unsafe-inline, and no inline script or style', async () => {
    const { cookie } = await app.login('staff@chess.example')
    for (const response of [await app.get('/admin/login'), await app.get('/admin/', cookie), await app.get('/admin/nope')]) {
      const csp = response.headers.get('content-security-policy') ?? ''
      for (const directive of ["script-src 'self'", "form-action 'self'", "frame-ancestors 'none'", "base-uri 'none'"]) assert.ok(csp.includes(directive), csp)
      assert.doesNotMatch(csp, /unsafe-inline/)
      const page = await response.text()
      // A script only as a file of the console's own (the passkey script), never inline.
      assert.doesNotMatch(page, /<script(?! src="\/admin\/passkey\.js" defer><\/script>)|<style|style="/)
    }
  })
})

describe("staff console: the session's club", () => {
  let app: Console
  before(async () => {
    app = await openConsole()
    await app.adminWithPassword('chess', 'staff@chess.example')
    await app.adminWithPassword('go', 'staff@go.example')
    await app.issuer.achievements.create('chess', { name: '체스 입문', description: 'Beginners' })
    await app.issuer.achievements.create('chess', { name: '체스 중급', description: 'Intermediate' })
  })
  after(() => app.close())

  it("shows each admin only its own club's counts, whatever the request names", async () => {
    const chess = await app.login('staff@chess.example')
    const go = await app.login('staff@go.example')
    assert.match(await (await app.get('/admin/', chess.cookie)).text(), /id="count-templates">2</)
    const goPage = await (await app.get('/admin/?club=chess', go.cookie)).text()
    assert.match(goPage, /id="count-templates">0</)
    assert.doesNotMatch(goPage, /chess club/)
  })
})
