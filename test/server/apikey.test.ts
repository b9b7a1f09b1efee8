import assert from 'node:assert/strict'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import Database from 'better-sqlite3'
import { accessToken } from '../support/tokens.ts'
import { cli, clubAndClient, freshDataDir, removeDataDir, runCli, startServer, type ServerProcess } from '../support/server.ts'
import { svgBase64 } from '../support/legacy-forms.ts'

/**
 * Legacy API keys from the admin CLI (docs/decisions/0023-legacy-form-creation.md § API keys;
 * docs/api.md §4.13, §5 items 7 and 10): printed once, usable at once against the real server, never
 * stored in plain text.
 */

const KEY = /^cck_([0-9a-f]{16})\.([A-Za-z0-9_-]{43})$/

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [path]
  })
}

/** The files of the data dir that hold a needle, as text or as the bytes it encodes. */
function filesHolding(dataDir: string, needles: Buffer[]): string[] {
  return filesUnder(dataDir).filter((path) => {
    const bytes = readFileSync(path)
    return needles.some((needle) => bytes.includes(needle))
  })
}

/** The secret part of a key as it might be stored: its text, its text in UTF-16, and the 32 bytes it encodes. */
function secretForms(apiKey: string): Buffer[] {
  const secret = KEY.exec(apiKey)![2]!
  return [Buffer.from(secret, 'utf8'), Buffer.from(secret, 'utf16le'), Buffer.from(secret, 'base64url')]
}

describe('apikey create --club D (docs/decisions/0023-legacy-form-creation.md § API keys)', () => {
  const dataDir = freshDataDir()
  let client: { client_id: string; client_secret: string }
  let printed: Awaited<ReturnType<typeof runCli>>
  let apiKey: string
  before(async () => {
    client = await clubAndClient(dataDir, 'chess')
    printed = await runCli(dataDir, 'apikey', 'create', '--club', 'chess')
    apiKey = printed.json?.api_key
  })
  after(() => removeDataDir(dataDir))

  it('prints { api_key, club } once: one JSON object on one line, exit 0', () => {
    assert.equal(printed.code, 0, printed.stdout + printed.stderr)
    assert.match(printed.stdout, /^[^\n]+\n$/, 'one line on stdout')
    assert.deepStrictEqual(Object.keys(printed.json).sort(), ['api_key', 'club'])
    assert.equal(printed.json.club, 'chess')
    assert.match(apiKey, KEY)
    assert.equal((printed.stdout + printed.stderr).split(apiKey).length - 1, 1, 'the key is shown exactly once, and not in the logs')
  })

  it('prints a new key on every call', async () => {
    const second = await cli(dataDir, 'apikey', 'create', '--club', 'chess')
    assert.match(second.api_key, KEY)
    assert.notEqual(second.api_key, apiKey)
    assert.notEqual(KEY.exec(second.api_key)![1], KEY.exec(apiKey)![1], 'a new key id too')
  })

  it('prints { error: { code: club-not-found } } and exits non-zero for a club that does not exist', async () => {
    const result = await runCli(dataDir, 'apikey', 'create', '--club', 'nope')
    assert.notEqual(result.code, 0)
    assert.deepStrictEqual(Object.keys(result.json), ['error'])
    assert.equal(result.json.error.code, 'club-not-found')
  })

  it('prints { error: { code: usage } } and exits 2 without --club', async () => {
    const result = await runCli(dataDir, 'apikey', 'create')
    assert.equal(result.code, 2)
    assert.equal(result.json.error.code, 'usage')
  })

  describe('against the real server process', () => {
    let server: ServerProcess
    let token: string
    let badge: number
    before(async () => {
      server = await startServer({ dataDir })
      token = await accessToken(server, client)
      const design = await server.http('/v2/clubs/chess/designs', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ kind: 'badge', name: 'Badge', image: { mediaType: 'image/svg+xml', data: svgBase64() } }),
      })
      assert.equal(design.status, 201, design.text)
      badge = design.json.data.id
    })
    after(async () => {
      await server.stop()
    })

    const legacyCreate = (authorization: string | null, name: string) =>
      server.http('/open-api/achievements/forms', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...(authorization === null ? {} : { authorization }) },
        body: JSON.stringify({ name, type: 'completion', achievementBadgeDesignId: badge, tags: ['체스'] }),
      })

    async function assertCreatedInChess(response: Awaited<ReturnType<typeof legacyCreate>>, name: string): Promise<void> {
      assert.equal(response.status, 201, response.text)
      assert.equal(response.json.statusCode, 201)
      assert.match(response.json.message, /[가-힣]/)
      const read = await server.http(`/v2/clubs/chess/achievements/${response.json.achievementFormId}`, { headers: { authorization: `Bearer ${token}` } })
      assert.equal(read.status, 200, read.text)
      assert.equal(read.json.data.name, name)
      assert.deepStrictEqual(read.json.data.tag, ['체스'])
    }

    it('creates a legacy form in the key’s club with Authorization: Bearer <key>', async () => {
      await assertCreatedInChess(await legacyCreate(`Bearer ${apiKey}`, 'Bearer form'), 'Bearer form')
    })

    it('creates a legacy form with the bare key', async () => {
      await assertCreatedInChess(await legacyCreate(apiKey, 'Bare form'), 'Bare form')
    })

    it('accepts a key created while the server runs, at once', async () => {
      const fresh = await cli(dataDir, 'apikey', 'create', '--club', 'chess')
      await assertCreatedInChess(await legacyCreate(`Bearer ${fresh.api_key}`, 'Fresh key form'), 'Fresh key form')
    })

    it('answers 401 Invalid token for a wrong secret and for no key', async () => {
      for (const authorization of [`Bearer ${apiKey.slice(0, -1)}${apiKey.endsWith('A') ? 'B' : 'A'}`, null]) {
        const response = await legacyCreate(authorization, 'Never')
        assert.equal(response.status, 401, response.text)
        assert.deepStrictEqual(response.json, { statusCode: 401, message: 'Invalid token', error: 'Unauthorized' })
      }
    })

    it('keeps the secret part of every key out of the data dir while the server runs', () => {
      assert.deepStrictEqual(filesHolding(dataDir, secretForms(apiKey)), [])
    })
  })

  it('stores only a hash: neither the SQLite file nor anything else in the data dir holds a secret part in plain text', async () => {
    const keys = [apiKey, (await cli(dataDir, 'apikey', 'create', '--club', 'chess')).api_key as string]
    const db = new Database(join(dataDir, 'clubcred.db'), { readonly: true })
    try {
      const rows = db.prepare('SELECT * FROM api_keys').all() as Record<string, unknown>[]
      assert.ok(rows.length >= keys.length, 'the keys are stored')
      for (const key of keys) {
        const [, id, secret] = KEY.exec(key)!
        const row = rows.find((candidate) => candidate.id === id)
        assert.ok(row, `key ${id} is stored by its id`)
        for (const value of Object.values(row)) assert.ok(!String(value).includes(secret!), 'no column holds the secret')
      }
    } finally {
      db.close()
    }
    assert.ok(
      filesUnder(dataDir).some((path) => path.endsWith('clubcred.db')),
      'the SQLite file is there to search',
    )
    assert.notDeepStrictEqual(
      filesHolding(dataDir, [Buffer.from(KEY.exec(apiKey)![1]!)]),
      [],
      'the search sees what is stored: the key id, kept in plain text, is found',
    )
    for (const key of keys) assert.deepStrictEqual(filesHolding(dataDir, secretForms(key)), [], 'no file holds the secret part')
  })
})
