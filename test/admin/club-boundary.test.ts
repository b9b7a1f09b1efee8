/**
 * The staff console's club boundary (docs/admin-console.md § Sessions): a second club's admin, signed in
 * and holding its own valid CSRF token, gets 404 for every page and every action of the console that
 * names one of the first club's objects (every path of the console's route table with an `:id`, so a new
 * route is checked here without an edit), and nothing stored
 * changes. A path with an `:id` whose object this test does not know fails the test, so a new page
 * cannot escape it.
 */
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import Database from 'better-sqlite3'
import { CONSOLE_PATHS } from '../../adapters/admin/route-table.ts'
import { openConsole, type Console } from '../support/admin-console.ts'

describe("staff console: another club's objects", () => {
  let app: Console
  let go: { cookie: string; csrf: string }
  /** The first club's object of each kind, by the path prefix that names it. */
  const ids = new Map<string, string>()

  before(async () => {
    app = await openConsole({ webhooks: true })
    const { issuer, storage } = app
    await app.adminWithPassword('chess', 'staff@chess.example')
    await app.adminWithPassword('go', 'staff@go.example')
    const chess = await app.login('staff@chess.example')
    go = await app.login('staff@go.example')

    const template = await issuer.achievements.create('chess', { name: '체스 오프닝', description: 'Openings' })
    ids.set('/templates', String(template.id))
    const batch = await issuer.issuances.issue('chess', {
      achievementFormId: template.id,
      mode: 'none',
      recipients: [{ name: '김체스', email: 'kim@chess.example' }],
    })
    const item = batch.result.results[0]!
    assert.equal(item.status, 'issued')
    ids.set('/issuances', String(item.resourceId))
    await issuer.worker.drain()
    ids.set('/clients', (await issuer.clients.create({ club: 'chess', scopes: ['clubs:read'] })).client_id)
    ids.set('/api-keys', /^cck_([0-9a-f]{16})/.exec((await issuer.legacy.createApiKey('chess')).api_key)![1]!)
    ids.set('/webhooks', (await issuer.webhooks.create({ club: 'chess', url: 'http://127.0.0.1:9/hook' })).id)
    ids.set('/designs', String((await issuer.designs.create('chess', { kind: 'certificate', name: '체스 인증서' })).id))
    const admin = (await storage.admins.findByEmail('staff@chess.example'))!
    const passkeyId = 'pk_0123456789abcdef01234567'
    await storage.transaction((tx) =>
      tx.adminPasskeys.insert({
        id: passkeyId,
        credentialId: 'Y2hlc3MtcGFzc2tleQ',
        publicKey: 'pQECAyYgASFYIA',
        counter: 0,
        transports: ['internal'],
        adminId: admin.id,
        club: 'chess',
        name: '노트북',
        createdAt: app.clock.now(),
        lastUsedAt: null,
      }),
    )
    ids.set('/account/passkeys', passkeyId)
    // A CSV upload of the first club, through its own console.
    const form = new FormData()
    for (const [name, value] of Object.entries({
      csrf: chess.csrf,
      achievementFormId: String(template.id),
      mode: 'none',
      csv: 'name,email\n박체스,park@chess.example',
    })) {
      form.set(name, value)
    }
    const preview = await app.issuer.fetch(
      new Request(`${app.origin}/admin/issue/csv`, { method: 'POST', headers: { origin: app.origin, cookie: chess.cookie }, body: form }),
    )
    const previewed = await preview.text()
    const confirmed = await app.post(
      '/admin/issue/csv/confirm',
      {
        csrf: chess.csrf,
        achievementFormId: String(template.id),
        mode: 'none',
        nonce: /name="nonce" value="([^"]+)"/.exec(previewed)![1]!,
        digest: /name="digest" value="([^"]+)"/.exec(previewed)![1]!,
      },
      { cookie: chess.cookie },
    )
    ids.set('/issue/csv', /\/admin\/issue\/csv\/([^/]+)$/.exec(confirmed.headers.get('location') ?? '')![1]!)
    await issuer.worker.drain()
  })
  after(() => app.close())

  /** A digest of every row of every table but the sessions (each request of the second admin touches its own). */
  const snapshot = (): string => {
    const db = new Database(app.file, { readonly: true })
    try {
      const hash = createHash('sha256')
      for (const { name } of db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name <> 'admin_sessions' ORDER BY name").all() as {
        name: string
      }[]) {
        hash.update(name)
        for (const row of db.prepare(`SELECT * FROM "${name}"`).raw().iterate()) hash.update(JSON.stringify(row))
      }
      return hash.digest('hex')
    } finally {
      db.close()
    }
  }

  /** Every field any console form reads, filled as a confirmed, valid submission would be. */
  const EVERYTHING = {
    confirm: 'yes',
    reason: '남의 클럽',
    name: '남의 것',
    description: 'not ours',
    url: 'https://partner.example',
    enabled: '0',
    after: '0',
    eventId: '1',
    kind: 'certificate',
  }

  const withIds = CONSOLE_PATHS.filter(([path]) => path.includes(':id'))

  it('knows the object of every console path with an id', () => {
    assert.ok(withIds.length >= 20, `${withIds.length} paths with an id`)
    for (const [path] of withIds) {
      const prefix = path.slice(0, path.indexOf('/:id'))
      assert.ok(ids.has(prefix), `no object of the first club for ${path}: add one to this test`)
    }
  })

  it('answers 404 to every page and action naming one of them, and nothing stored changes', async () => {
    const before = snapshot()
    for (const [path, allow] of withIds) {
      const prefix = path.slice(0, path.indexOf('/:id'))
      const url = `/admin${path.replace(':id', encodeURIComponent(ids.get(prefix)!))}`
      if (allow.includes('GET')) {
        for (const query of ['', '?format=png', '?format=pdf']) {
          const response = await app.get(`${url}${query}`, go.cookie)
          assert.equal(response.status, 404, `GET ${url}${query} as the other club's admin: ${response.status}`)
        }
      }
      if (allow.includes('POST')) {
        const response = await app.post(url, { csrf: go.csrf, ...EVERYTHING }, { cookie: go.cookie })
        assert.equal(response.status, 404, `POST ${url} as the other club's admin: ${response.status}`)
      }
    }
    assert.equal(snapshot(), before, "the other club's requests changed nothing stored")
  })

  it("the first club's own admin reaches the same pages (the ids are real)", async () => {
    const chess = await app.login('staff@chess.example')
    for (const [path, allow] of withIds) {
      if (!allow.includes('GET') || path.endsWith('/file') || path.endsWith('/preview')) continue
      const prefix = path.slice(0, path.indexOf('/:id'))
      const url = `/admin${path.replace(':id', encodeURIComponent(ids.get(prefix)!))}`
      const response = await app.get(url, chess.cookie)
      assert.equal(response.status, 200, `GET ${url} as its own club's admin: ${response.status}`)
    }
  })
})
