/**
 * The console's login limits as an outside review tried them (docs/admin-console.md § Limits; decision
 * 0042): IPv6 clients counted by their /64, directly and behind a trusted proxy; a password lock that
 * holds the pair of account and address, beside a per-account backoff, so that an outsider who knows an
 * e-mail cannot keep its owner out; passkey logins never held up by password failures; the setup link of
 * `admin reset` lifting the lock; passkey login challenges limited per address and bounded in storage.
 *
 * @see docs/decisions/0042-outside-review-smaller-findings.md
 */
import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { request } from 'undici'
import { addressBlockOf, noteClientAddress } from '../../adapters/http/client-address.ts'
import { createTrustedProxies } from '../../adapters/http/trusted-proxies.ts'
import { toNodeListener } from '../../adapters/node/index.ts'
import { CONSOLE_ORIGIN, openConsole, PASSWORD, tokenOf, type Console } from '../support/admin-console.ts'

const MINUTE = 60_000

/** A login POST from `address`, as the node listener notes the peer. */
function loginFrom(app: Console, address: string, email: string, password: string): Promise<Response> {
  const request = new Request(`${CONSOLE_ORIGIN}/admin/login`, {
    method: 'POST',
    headers: { origin: CONSOLE_ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, password }).toString(),
  })
  noteClientAddress(request, address)
  return app.issuer.fetch(request)
}

/** A JSON POST to a passkey endpoint from `address`. */
function passkeyPostFrom(app: Console, address: string, path: string, body: unknown): Promise<Response> {
  const request = new Request(`${CONSOLE_ORIGIN}/admin/passkeys/${path}`, {
    method: 'POST',
    headers: { origin: CONSOLE_ORIGIN, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  noteClientAddress(request, address)
  return app.issuer.fetch(request)
}

describe('the address the login limits count', () => {
  it('is an IPv6 address’s /64, an IPv4-mapped address’s IPv4 address, anything else as it is', () => {
    assert.equal(addressBlockOf('2001:db8:1:2:aaaa:bbbb:cccc:dddd'), '2001:db8:1:2::/64')
    assert.equal(addressBlockOf('2001:db8:1:2::1'), '2001:db8:1:2::/64')
    assert.equal(addressBlockOf('[2001:db8:1:3::1]'), '2001:db8:1:3::/64')
    assert.equal(addressBlockOf('fe80::1%eth0'), 'fe80::/64')
    assert.equal(addressBlockOf('::ffff:192.0.2.7'), '192.0.2.7')
    assert.equal(addressBlockOf('192.0.2.7'), '192.0.2.7')
    assert.equal(addressBlockOf('unknown'), 'unknown')
  })
})

describe('staff console: IPv6 clients by their /64', () => {
  let app: Console
  before(async () => {
    app = await openConsole({ limits: { failuresPerAccount: 100, failuresPerAddress: 10 } })
    await app.adminWithPassword('chess', 'staff@chess.example')
  })
  after(() => app.close())

  it('failures from 40 addresses of one /64 are counted as one client', async () => {
    let limited = 0
    for (let i = 1; i <= 40; i++) {
      const status = (await loginFrom(app, `2001:db8:aa:bb::${i.toString(16)}`, `guess${i}@chess.example`, 'wrong password!')).status
      if (status === 429) limited++
    }
    assert.equal(limited, 30, 'the 11th failure onwards is refused')
    assert.equal((await loginFrom(app, '2001:db8:aa:bb:ffff::9', 'staff@chess.example', PASSWORD)).status, 429)
    // The next /64 and IPv4 clients are other clients.
    assert.equal((await loginFrom(app, '2001:db8:aa:bc::1', 'staff@chess.example', PASSWORD)).status, 303)
    assert.equal((await loginFrom(app, '::ffff:192.0.2.7', 'staff@chess.example', PASSWORD)).status, 303)
  })

  it('behind a trusted proxy, the forwarded addresses of one /64 are one client', async () => {
    const server = createServer(toNodeListener(app.issuer.fetch, { trustedProxies: createTrustedProxies(['127.0.0.1']) }))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const { port } = server.address() as AddressInfo
      const statuses: number[] = []
      for (let i = 1; i <= 12; i++) {
        const answer = await request(`http://127.0.0.1:${port}/admin/login`, {
          method: 'POST',
          headers: {
            host: new URL(CONSOLE_ORIGIN).host,
            origin: CONSOLE_ORIGIN,
            'content-type': 'application/x-www-form-urlencoded',
            'x-forwarded-for': `2001:db8:cc:dd:${i.toString(16)}::1`,
          },
          body: new URLSearchParams({ email: `guess${i}@chess.example`, password: 'wrong password!' }).toString(),
        })
        await answer.body.text()
        statuses.push(answer.statusCode)
      }
      assert.deepStrictEqual(statuses, [...Array(10).fill(401), 429, 429])
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })
})

describe('staff console: an outsider cannot lock an account’s owner out', () => {
  let app: Console
  before(async () => {
    app = await openConsole({ limits: { failuresPerAccount: 5, accountBackoffSeconds: 60, failuresPerAddress: 1000 } })
    await app.adminWithPassword('chess', 'owner@chess.example')
    await app.adminWithPassword('chess', 'reset@chess.example')
  })
  after(() => app.close())

  it('five failures lock the outsider’s address for that account; the owner’s address waits at most the backoff', async () => {
    const outsider = '203.0.113.66'
    for (let i = 0; i < 5; i++) assert.equal((await loginFrom(app, outsider, 'owner@chess.example', 'wrong password!')).status, 401)
    const locked = await loginFrom(app, outsider, 'owner@chess.example', PASSWORD)
    assert.equal(locked.status, 429, 'the pair is locked, right password or not')
    // The owner, elsewhere: the account's backoff, no longer than accountBackoffSeconds.
    const owner = '198.51.100.20'
    const waiting = await loginFrom(app, owner, 'owner@chess.example', PASSWORD)
    assert.equal(waiting.status, 429)
    assert.ok(Number(waiting.headers.get('retry-after')) <= 60, `retry-after ${waiting.headers.get('retry-after')}`)
    app.clock.advance(MINUTE)
    assert.equal((await loginFrom(app, owner, 'owner@chess.example', PASSWORD)).status, 303, 'the owner is in after the backoff')
    // The outsider's pair stays locked for its window.
    assert.equal((await loginFrom(app, outsider, 'owner@chess.example', PASSWORD)).status, 429)
  })

  it('past the first failures, guesses from many addresses are spaced by the backoff', async () => {
    app.clock.advance(15 * MINUTE)
    const statuses: number[] = []
    for (let i = 0; i < 8; i++) statuses.push((await loginFrom(app, `203.0.113.${i}`, 'owner@chess.example', 'wrong password!')).status)
    assert.deepStrictEqual(statuses, [401, 401, 401, 401, 401, 429, 429, 429])
    app.clock.advance(MINUTE)
    assert.equal((await loginFrom(app, '203.0.113.50', 'owner@chess.example', 'wrong password!')).status, 401, 'one more a minute')
    assert.equal((await loginFrom(app, '203.0.113.51', 'owner@chess.example', 'wrong password!')).status, 429)
  })

  it('an unknown e-mail gets the same answers as an admin’s', async () => {
    const statuses: number[] = []
    for (let i = 0; i < 7; i++) statuses.push((await loginFrom(app, `203.0.113.${100 + i}`, 'nobody@chess.example', 'wrong password!')).status)
    assert.deepStrictEqual(statuses, [401, 401, 401, 401, 401, 429, 429])
  })

  it('the setup link of admin reset lifts the lock and signs the owner in', async () => {
    for (let i = 0; i < 6; i++) await loginFrom(app, `203.0.113.${200 + i}`, 'reset@chess.example', 'wrong password!')
    assert.equal((await loginFrom(app, '198.51.100.30', 'reset@chess.example', PASSWORD)).status, 429)
    const { setupUrl } = await app.issuer.admins.reset({ club: 'chess', email: 'reset@chess.example' })
    const set = await app.post('/admin/setup', { token: tokenOf(setupUrl), password: 'a new password 2026', confirmation: 'a new password 2026' })
    assert.equal(set.status, 303)
    assert.equal(set.headers.getSetCookie().length, 1)
    assert.equal((await loginFrom(app, '198.51.100.30', 'reset@chess.example', 'a new password 2026')).status, 303)
  })
})

describe('staff console: passkey logins and password failures', () => {
  let app: Console
  before(async () => {
    app = await openConsole({ limits: { failuresPerAccount: 3, failuresPerAddress: 5, challengesPerAddress: 4, challengesKept: 6 } })
    await app.adminWithPassword('chess', 'owner@chess.example')
  })
  after(() => app.close())

  it('password failures of the account and of the address do not hold a passkey login up', async () => {
    const address = '198.51.100.77'
    for (let i = 0; i < 5; i++) await loginFrom(app, address, 'owner@chess.example', 'wrong password!')
    assert.equal((await loginFrom(app, address, 'owner@chess.example', PASSWORD)).status, 429, 'the password is locked here')
    const options = await passkeyPostFrom(app, address, 'login/options', { email: 'owner@chess.example' })
    assert.equal(options.status, 200)
    // An assertion that fails on its merits (no such credential) is 401, not 429: nothing locked it.
    const attempt = await passkeyPostFrom(app, address, 'login', {
      email: 'owner@chess.example',
      credential: { id: 'bm8tc3VjaC1wYXNza2V5', rawId: 'bm8tc3VjaC1wYXNza2V5', type: 'public-key', response: {} },
    })
    assert.equal(attempt.status, 401, await attempt.clone().text())
  })

  it('login challenges are limited per address and bounded in storage', async () => {
    const statuses: number[] = []
    for (let i = 0; i < 6; i++) statuses.push((await passkeyPostFrom(app, '2001:db8:77::1', 'login/options', { email: '' })).status)
    assert.deepStrictEqual(statuses, [200, 200, 200, 200, 429, 429])
    const refused = await passkeyPostFrom(app, '2001:db8:77::ffff', 'login/options', { email: '' })
    assert.equal(refused.status, 429, 'another address of the same /64')
    assert.ok(Number(refused.headers.get('retry-after')) > 0)
    for (let i = 0; i < 4; i++) {
      for (let j = 0; j < 4; j++) assert.equal((await passkeyPostFrom(app, `192.0.2.${i}`, 'login/options', { email: '' })).status, 200)
    }
    const { kept } = (await countChallenges(app)) as { kept: number }
    assert.equal(kept, 6, 'no more than challengesKept are kept')
  })
})

/** The login challenges stored, read through the console's SQLite file. */
async function countChallenges(app: Console): Promise<{ kept: number }> {
  const { default: Database } = await import('better-sqlite3')
  const db = new Database(app.file, { readonly: true })
  try {
    return db.prepare("SELECT count(*) AS kept FROM passkey_challenges WHERE purpose = 'login'").get() as { kept: number }
  } finally {
    db.close()
  }
}
