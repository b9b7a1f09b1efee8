/**
 * The staff console's integration pages over real HTTP (`issuer.fetch`) on real SQLite
 * (docs/admin-console.md § Integrations, and its event feed): each secret on the one
 * answer that made it and usable (a client secret gets a token at the token endpoint, an API key calls
 * the legacy API, a webhook secret verifies deliveries with the `standardwebhooks` package at a real
 * loopback receiver), revocation, replay, the event feed, the session's club only, Origin and CSRF.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it, mock } from 'node:test'
import { openConsole, type Console } from '../support/admin-console.ts'
import { startReceiver } from '../support/webhook-receiver.ts'
import { clientCredentialsGrant } from '../support/tokens.ts'

type Staff = { cookie: string; csrf: string }

const recipients = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => ({ name: `${prefix} 회원 ${i}`, email: `${prefix}.${i}@chess.example` }))

/** The value of the read-only secret field: on the create (or rotate) answer only. */
const secretOn = (page: string) => /<input id="secret" type="text" readonly value="([^"]+)"/.exec(page)?.[1]

describe('staff console: integrations', () => {
  let app: Console
  let chess: Staff
  let go: Staff
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  /** Everything the process wrote to its console while the tests ran: no secret may be in it. */
  const logged: string[] = []

  const form = (staff: Staff, fields: Record<string, string> = {}) => [{ csrf: staff.csrf, ...fields }, { cookie: staff.cookie }] as const
  const post = (path: string, staff: Staff, fields: Record<string, string> = {}) => app.post(path, ...form(staff, fields))
  const postBody = (path: string, staff: Staff, body: string) =>
    app.issuer.fetch(
      new Request(`${app.origin}${path}`, {
        method: 'POST',
        headers: { origin: app.origin, cookie: staff.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: `csrf=${encodeURIComponent(staff.csrf)}&${body}`,
      }),
    )
  const page = async (path: string, staff: Staff = chess) => {
    const response = await app.get(path, staff.cookie)
    assert.equal(response.status, 200, path)
    return response.text()
  }
  const token = (client_id: string, client_secret: string) =>
    app.issuer.fetch(new Request(`${app.origin}/oauth/token`, clientCredentialsGrant({ client_id, client_secret })))
  const legacyCall = (apiKey: string) =>
    app.issuer.fetch(
      new Request(`${app.origin}/open-api/achievements/forms`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: '{}',
      }),
    )

  before(async () => {
    for (const method of ['log', 'info', 'warn', 'error'] as const) {
      mock.method(
        console,
        method,
        (...args: unknown[]) => void logged.push(args.map((arg) => (arg instanceof Error ? `${arg.stack}` : JSON.stringify(arg))).join(' ')),
      )
    }
    app = await openConsole({ webhooks: true })
    await app.adminWithPassword('chess', 'staff@chess.example')
    await app.adminWithPassword('go', 'staff@go.example')
    chess = await app.login('staff@chess.example')
    go = await app.login('staff@go.example')
    receiver = await startReceiver()
  })
  after(async () => {
    mock.restoreAll()
    await receiver.close()
    await app.close()
  })

  describe('API clients', () => {
    let clientId = ''
    let secret = ''

    it('creating needs a scope: none ticked is 422 beside the scopes, and no client is stored', async () => {
      const response = await post('/admin/clients', chess)
      assert.equal(response.status, 422)
      assert.match(await response.text(), /<p class="error" id="scopes-error">권한을 하나 이상 고르세요/)
      assert.deepEqual(await app.issuer.clients.list('chess'), [])
    })

    it('creates a client with the scopes ticked; its secret is on that answer only, and gets a token', async () => {
      const response = await postBody('/admin/clients', chess, 'scope=issuance%3Aread&scope=events%3Aread')
      assert.equal(response.status, 201)
      const created = await response.text()
      secret = secretOn(created) ?? ''
      clientId = /<code id="client-id">(cc_[0-9a-f]{24})<\/code>/.exec(created)?.[1] ?? ''
      assert.match(secret, /^ccs_[A-Za-z0-9_-]{43}$/)
      assert.match(created, /svc:openapi:issuance:read svc:openapi:events:read/)
      assert.equal(response.headers.get('cache-control'), 'no-store')
      const granted = await token(clientId, secret)
      assert.equal(granted.status, 200)
      assert.match(((await granted.json()) as { scope: string }).scope, /svc:openapi:events:read/)

      const list = await page('/admin/clients')
      assert.match(list, new RegExp(`<a href="/admin/clients/${clientId}"><code>${clientId}</code></a>`))
      assert.match(list, /issuance:read events:read/)
      assert.match(list, /cannot be shown again/)
      const detail = await page(`/admin/clients/${clientId}`)
      for (const later of [list, detail]) assert.ok(!later.includes(secret), 'the secret is on no later page')
      assert.match(detail, /The secret cannot be shown again/)
    })

    it('rotating needs the box ticked; then the new secret is shown once, and the old one is refused', async () => {
      const refused = await post(`/admin/clients/${clientId}/rotate`, chess)
      assert.equal(refused.status, 422)
      assert.match(await refused.text(), /id="confirm-rotate-error"/)
      assert.equal((await token(clientId, secret)).status, 200, 'unchanged without the box')
      const response = await post(`/admin/clients/${clientId}/rotate`, chess, { confirm: 'yes' })
      assert.equal(response.status, 200)
      const rotated = secretOn(await response.text()) ?? ''
      assert.match(rotated, /^ccs_/)
      assert.notEqual(rotated, secret)
      assert.equal((await token(clientId, secret)).status, 401)
      assert.equal((await token(clientId, rotated)).status, 200)
      assert.ok(!(await page(`/admin/clients/${clientId}`)).includes(rotated))
      secret = rotated
    })

    it('deleting needs the box ticked; then the client is gone and its secret gets no token', async () => {
      assert.equal((await post(`/admin/clients/${clientId}/delete`, chess)).status, 422)
      assert.equal((await app.issuer.clients.list('chess')).length, 1)
      const response = await post(`/admin/clients/${clientId}/delete`, chess, { confirm: 'yes' })
      assert.equal(response.status, 303)
      assert.equal(response.headers.get('location'), '/admin/clients?done=deleted')
      assert.doesNotMatch(await page('/admin/clients?done=deleted'), new RegExp(clientId))
      assert.equal((await token(clientId, secret)).status, 401)
      assert.equal((await app.get(`/admin/clients/${clientId}`, chess.cookie)).status, 404)
    })
  })

  describe('API keys', () => {
    let apiKey = ''
    let id = ''

    it('creates a key shown on that answer only, which calls the legacy API', async () => {
      const response = await post('/admin/api-keys', chess)
      assert.equal(response.status, 201)
      apiKey = secretOn(await response.text()) ?? ''
      assert.match(apiKey, /^cck_[0-9a-f]{16}\.[A-Za-z0-9_-]{43}$/)
      id = apiKey.slice(4, 20)
      // The key is checked before the body: an empty body is the body's refusal, not the key's 401.
      assert.notEqual((await legacyCall(apiKey)).status, 401)
      const list = await page('/admin/api-keys')
      assert.match(list, new RegExp(`href="/admin/api-keys/${id}"`))
      const detail = await page(`/admin/api-keys/${id}`)
      for (const later of [list, detail]) assert.ok(!later.includes(apiKey.slice(21)), 'the secret part is on no later page')
    })

    it('revoking needs the box ticked; then the key is refused and shown revoked', async () => {
      assert.equal((await post(`/admin/api-keys/${id}/revoke`, chess)).status, 422)
      assert.notEqual((await legacyCall(apiKey)).status, 401)
      const response = await post(`/admin/api-keys/${id}/revoke`, chess, { confirm: 'yes' })
      assert.equal(response.status, 303)
      assert.equal((await legacyCall(apiKey)).status, 401)
      const detail = await page(`/admin/api-keys/${id}?done=revoked`)
      assert.match(detail, /<dd id="state"><span class="status-revoked">폐기됨/)
      assert.doesNotMatch(detail, /\/revoke"/, 'no revoke form on a revoked key')
    })
  })

  describe('webhooks', () => {
    let hookId = ''
    const secrets: string[] = []

    it('a URL the operator does not allow is the API’s error beside the URL field, and nothing is stored', async () => {
      const response = await post('/admin/webhooks', chess, { url: 'https://user:pw@hooks.example/' })
      assert.equal(response.status, 422)
      const text = await response.text()
      assert.match(text, /<p class="error" id="url-error">[^<]+<span lang="en">The webhook URL must not carry credentials\.<\/span>/)
      assert.match(text, /value="https:\/\/user:pw@hooks.example\/"/, 'the form as sent')
      assert.deepEqual(await app.issuer.webhooks.list('chess'), [])
    })

    it('loopback is refused where the operator allows only public addresses', async () => {
      const strict = await openConsole()
      try {
        await strict.adminWithPassword('chess', 'staff@chess.example')
        const staff = await strict.login('staff@chess.example')
        const response = await strict.post('/admin/webhooks', { csrf: staff.csrf, url: `https://127.0.0.1:${receiver.port}/hooks` }, { cookie: staff.cookie })
        assert.equal(response.status, 422)
        assert.match(await response.text(), /id="url-error"[^]*loopback, private, link-local or metadata address/)
        assert.deepEqual(await strict.issuer.webhooks.list('chess'), [])
      } finally {
        await strict.close()
      }
    })

    it('creates an endpoint whose secret, shown once, verifies its deliveries at a real receiver', async () => {
      const response = await postBody('/admin/webhooks', chess, `url=${encodeURIComponent(receiver.url)}`)
      assert.equal(response.status, 201)
      const secret = secretOn(await response.text()) ?? ''
      assert.match(secret, /^whsec_/)
      secrets.push(secret)
      receiver.state.secrets = secrets
      hookId = (await app.issuer.webhooks.list('chess'))[0]!.id
      const achievementFormId = (await app.issuer.achievements.create('chess', { name: '체스 입문', description: 'Chess' })).id
      const { result } = await app.issuer.issuances.issue('chess', { achievementFormId, mode: 'none', recipients: recipients('chess', 11) })
      assert.equal(result.summary.ok, 11)
      await app.issuer.worker.drain()
      assert.equal(receiver.received.length, 22)
      assert.ok(
        receiver.received.every((request) => request.verifiedWith.includes(0)),
        'every delivery verifies with the secret shown',
      )
      const list = await page('/admin/webhooks')
      const detail = await page(`/admin/webhooks/${hookId}`)
      for (const later of [list, detail]) assert.ok(!later.includes(secret), 'the secret is on no later page')
      assert.match(list, new RegExp(`<a href="/admin/webhooks/${hookId}">`))
    })

    it("the endpoint's page lists its deliveries, 20 a page, with state, attempts and the last answer", async () => {
      const first = await page(`/admin/webhooks/${hookId}`)
      const rows = (text: string) => [...text.matchAll(/<td class="delivery-(\w[\w-]*)">/g)].map((match) => match[1])
      assert.deepEqual(rows(first), Array(20).fill('delivered'))
      assert.match(first, /<td>1<\/td>\n<td>200<\/td>/)
      const next = /<a href="(\/admin\/webhooks\/[^"?]+\?before=\d+)">다음/.exec(first)?.[1]
      assert.ok(next, 'a next link')
      assert.deepEqual(rows(await page(next)), ['delivered', 'delivered'])
      assert.equal((await app.get(`/admin/webhooks/${hookId}?before=abc`, chess.cookie)).status, 404)
    })

    it('replay delivers that delivery’s event again, under the same webhook-id', async () => {
      // An older delivery: its event alone goes again, none of the later ones.
      const older = (await app.issuer.webhooks.deliveries(hookId, 5))[4]!
      const response = await post(`/admin/webhooks/${hookId}/replay`, chess, { event: older.eventId })
      assert.equal(response.status, 303)
      assert.equal(response.headers.get('location'), `/admin/webhooks/${hookId}?done=replayed`)
      await app.issuer.worker.drain()
      assert.equal(receiver.received.length, 23)
      assert.equal(receiver.received[22]!.id, older.eventId)
      assert.deepEqual(receiver.received[22]!.verifiedWith, [0])
      assert.equal((await app.issuer.webhooks.deliveries(hookId, 100)).length, 23, 'a new delivery in the log')
      assert.equal((await post(`/admin/webhooks/${hookId}/replay`, chess, { event: '999999' })).status, 422, 'no such event of the club')
    })

    it('rotating shows the new secret once; disable and enable; delete needs the box ticked', async () => {
      const rotated = await post(`/admin/webhooks/${hookId}/rotate`, chess)
      assert.equal(rotated.status, 200)
      const secret = secretOn(await rotated.text()) ?? ''
      assert.match(secret, /^whsec_/)
      secrets.push(secret)
      assert.ok(!(await page(`/admin/webhooks/${hookId}`)).includes(secret))
      const [newest] = await app.issuer.webhooks.deliveries(hookId, 1)
      await post(`/admin/webhooks/${hookId}/replay`, chess, { event: newest!.eventId })
      await app.issuer.worker.drain()
      assert.deepEqual(receiver.received.at(-1)!.verifiedWith, [0, 1], 'signed with the new secret and, for a day, the old')

      assert.equal((await post(`/admin/webhooks/${hookId}/enabled`, chess, { enabled: 'no' })).status, 303)
      assert.match(await page(`/admin/webhooks/${hookId}`), /<dd id="state"><span class="status-revoked">꺼짐/)
      assert.equal((await app.issuer.webhooks.list('chess'))[0]!.enabled, false)
      await post(`/admin/webhooks/${hookId}/enabled`, chess, { enabled: 'yes' })
      assert.equal((await app.issuer.webhooks.list('chess'))[0]!.enabled, true)

      assert.equal((await post(`/admin/webhooks/${hookId}/delete`, chess)).status, 422)
      assert.equal((await app.issuer.webhooks.list('chess')).length, 1)
      const deleted = await post(`/admin/webhooks/${hookId}/delete`, chess, { confirm: 'yes' })
      assert.equal(deleted.status, 303)
      assert.deepEqual(await app.issuer.webhooks.list('chess'), [])
    })
  })

  describe('event feed', () => {
    it("lists the club's events newest first, linked to their issuances, with cursor pages; the overview links it", async () => {
      const feed = (await app.issuer.events.list('chess', { limit: '100' })).data
      assert.ok(feed.length > 20)
      const first = await page('/admin/events')
      const ids = (text: string) => [...text.matchAll(/<\/td><td>(\d+)<\/td><\/tr>/g)].map((match) => match[1])
      assert.deepEqual(
        ids(first),
        feed.slice(0, 20).map((event) => event.id),
      )
      const issuance = feed.find((event) => event.subject.type === 'issuance')!
      assert.match(first, new RegExp(`<a href="/admin/issuances/${issuance.subject.id}">`))
      assert.match(first, /<code>issuance.credential_issued<\/code> 자격 증명 서명됨/)
      const next = /<a href="(\/admin\/events\?cursor=[^"]+)">다음/.exec(first)?.[1]
      assert.ok(next)
      assert.deepEqual(
        ids(await page(next)),
        feed.slice(20, 40).map((event) => event.id),
      )
      assert.equal((await app.get('/admin/events?cursor=nonsense', chess.cookie)).status, 404)
      assert.doesNotMatch(await page('/admin/events', go), /<tbody>/, "another club's feed is its own")
      assert.match(await page('/admin/'), /<a href="\/admin\/events">모든 이벤트/)
    })
  })

  describe('boundaries', () => {
    it("another club's admin gets 404 for every page and action of this club's, and nothing changes", async () => {
      const { client_id, client_secret } = await app.issuer.clients.create({ club: 'chess', scopes: ['events:read'] })
      const { api_key } = await app.issuer.legacy.createApiKey('chess')
      const hook = await app.issuer.webhooks.create({ club: 'chess', url: receiver.url })
      const keyId = api_key.slice(4, 20)
      const [delivery] = await app.issuer.webhooks.deliveries(hook.id, 1)
      for (const path of [`/admin/clients/${client_id}`, `/admin/api-keys/${keyId}`, `/admin/webhooks/${hook.id}`]) {
        assert.equal((await app.get(path, go.cookie)).status, 404, path)
      }
      const actions: [string, Record<string, string>][] = [
        [`/admin/clients/${client_id}/rotate`, { confirm: 'yes' }],
        [`/admin/clients/${client_id}/delete`, { confirm: 'yes' }],
        [`/admin/api-keys/${keyId}/revoke`, { confirm: 'yes' }],
        [`/admin/webhooks/${hook.id}/enabled`, { enabled: 'no' }],
        [`/admin/webhooks/${hook.id}/rotate`, {}],
        [`/admin/webhooks/${hook.id}/replay`, { event: delivery?.eventId ?? '1' }],
        [`/admin/webhooks/${hook.id}/delete`, { confirm: 'yes' }],
      ]
      for (const [path, fields] of actions) assert.equal((await post(path, go, fields)).status, 404, path)
      assert.equal((await token(client_id, client_secret)).status, 200, 'the client and its secret are unchanged')
      assert.notEqual((await legacyCall(api_key)).status, 401, 'the key still works')
      assert.deepEqual(
        await app.issuer.webhooks.list('chess'),
        [hook].map(({ secret: _, ...view }) => view),
      )
      for (const path of ['/admin/clients', '/admin/api-keys', '/admin/webhooks']) {
        const text = await page(path, go)
        for (const id of [client_id, keyId, hook.id]) assert.ok(!text.includes(id), `${path} of go lists nothing of chess`)
      }
      assert.equal((await app.get('/admin/clients/not-an-id', chess.cookie)).status, 404)
    })

    it('every form refuses a foreign Origin and a missing CSRF token with 403, and creates nothing', async () => {
      const before = await Promise.all([app.issuer.clients.list('chess'), app.issuer.legacy.listApiKeys('chess'), app.issuer.webhooks.list('chess')])
      for (const [path, fields] of [
        ['/admin/clients', { scope: 'events:read' }],
        ['/admin/api-keys', {}],
        ['/admin/webhooks', { url: receiver.url }],
      ] as const) {
        const foreign = await app.post(path, { csrf: chess.csrf, ...fields }, { cookie: chess.cookie, headers: { origin: 'https://evil.example' } })
        assert.equal(foreign.status, 403, `${path}: foreign origin`)
        const noToken = await app.post(path, { ...fields }, { cookie: chess.cookie })
        assert.equal(noToken.status, 403, `${path}: no CSRF token`)
      }
      const now = await Promise.all([app.issuer.clients.list('chess'), app.issuer.legacy.listApiKeys('chess'), app.issuer.webhooks.list('chess')])
      assert.deepEqual(now, before)
      assert.equal((await app.get('/admin/clients')).status, 303, 'signed out: to login')
      assert.equal((await app.get('/admin/webhooks/wh_AAAAAAAAAAAAAAAA/rotate', chess.cookie)).status, 405)
    })

    it('no secret shown by these pages was written to the log', () => {
      const text = logged.join('\n')
      assert.doesNotMatch(text, /ccs_|cck_[0-9a-f]{16}\.|whsec_/)
    })
  })
})
