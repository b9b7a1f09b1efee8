/**
 * Legacy API keys can be listed and revoked from the admin CLI: `apikey list --club D`
 * shows ids and creation times, never a secret; `apikey revoke --key ID` makes the key answer 401
 * `Invalid token` (docs/api.md §7.5) at once on the running server. Through the real CLI and server processes.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import Database from 'better-sqlite3'
import { join } from 'node:path'
import { accessToken } from '../support/tokens.ts'
import { cli, clubAndClient, freshDataDir, removeDataDir, runCli, startServer, type ServerProcess } from '../support/server.ts'
import { svgBase64 } from '../support/legacy-forms.ts'

const KEY = /^cck_([0-9a-f]{16})\.([A-Za-z0-9_-]{43})$/

describe('apikey list and apikey revoke', () => {
  const dataDir = freshDataDir()
  let server: ServerProcess
  let badge: number
  let keep: string
  let leaked: string
  before(async () => {
    const client = await clubAndClient(dataDir, 'chess')
    await cli(dataDir, 'club', 'create', '--domain', 'go', '--name', 'Go Club')
    keep = (await cli(dataDir, 'apikey', 'create', '--club', 'chess')).api_key
    leaked = (await cli(dataDir, 'apikey', 'create', '--club', 'chess')).api_key
    await cli(dataDir, 'apikey', 'create', '--club', 'go')
    server = await startServer({ dataDir })
    const token = await accessToken(server, client)
    const design = await server.http('/v2/clubs/chess/designs', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'badge', name: 'Badge', image: { mediaType: 'image/svg+xml', data: svgBase64() } }),
    })
    assert.equal(design.status, 201, design.text)
    badge = design.json.data.id
  })
  after(async () => {
    if (server) await server.stop()
    removeDataDir(dataDir)
  })

  const idOf = (apiKey: string) => KEY.exec(apiKey)![1]!
  const legacyCreate = (apiKey: string) =>
    server.http('/open-api/achievements/forms', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${apiKey}` },
      body: JSON.stringify({ name: 'Form', type: 'completion', achievementBadgeDesignId: badge }),
    })

  it("apikey list prints the club's keys, oldest first, with id and creation time and no secret", async () => {
    const printed = await runCli(dataDir, 'apikey', 'list', '--club', 'chess')
    assert.equal(printed.code, 0, printed.stdout + printed.stderr)
    assert.match(printed.stdout, /^[^\n]+\n$/, 'one JSON object on one line')
    const { api_keys: keys, club } = printed.json
    assert.equal(club, 'chess')
    assert.deepStrictEqual(
      keys.map((key: { id: string }) => key.id),
      [idOf(keep), idOf(leaked)],
    )
    for (const key of keys) {
      assert.deepStrictEqual(Object.keys(key).sort(), ['createdAt', 'id', 'revokedAt'])
      assert.ok(!Number.isNaN(Date.parse(key.createdAt)), key.createdAt)
      assert.equal(key.revokedAt, null)
    }
    for (const apiKey of [keep, leaked]) assert.ok(!printed.stdout.includes(KEY.exec(apiKey)![2]!), 'no secret')
    const hashes = new Database(join(dataDir, 'clubcred.db'), { readonly: true }).prepare('SELECT secret_hash FROM api_keys').all() as { secret_hash: string }[]
    for (const { secret_hash } of hashes) assert.ok(!printed.stdout.includes(secret_hash), 'no secret hash')
  })

  it("a revoked key gets 401 Invalid token at once on the running server; the club's other key still works", async () => {
    assert.equal((await legacyCreate(leaked)).status, 201)
    const revoked = await runCli(dataDir, 'apikey', 'revoke', '--key', idOf(leaked))
    assert.equal(revoked.code, 0, revoked.stdout + revoked.stderr)
    assert.equal(revoked.json.id, idOf(leaked))
    assert.equal(revoked.json.club, 'chess')
    assert.ok(!Number.isNaN(Date.parse(revoked.json.revokedAt)))

    const refused = await legacyCreate(leaked)
    assert.equal(refused.status, 401, refused.text)
    assert.deepStrictEqual(refused.json, { statusCode: 401, message: 'Invalid token', error: 'Unauthorized' })
    assert.equal((await legacyCreate(keep)).status, 201)

    const listed = (await cli(dataDir, 'apikey', 'list', '--club', 'chess')).api_keys
    assert.deepStrictEqual(
      listed.map((key: { id: string; revokedAt: string | null }) => [key.id, key.revokedAt]),
      [
        [idOf(keep), null],
        [idOf(leaked), revoked.json.revokedAt],
      ],
    )
  })

  it('revoking again changes nothing and answers the first revocation; cck_<id> is accepted too', async () => {
    const first = (await cli(dataDir, 'apikey', 'list', '--club', 'chess')).api_keys[1]
    const again = await cli(dataDir, 'apikey', 'revoke', '--key', `cck_${idOf(leaked)}`)
    assert.equal(again.revokedAt, first.revokedAt)
    assert.equal((await legacyCreate(leaked)).status, 401)
  })

  it('an unknown key, a malformed one, a full key with its secret, and an unknown club are errors that change nothing', async () => {
    const before = (await cli(dataDir, 'apikey', 'list', '--club', 'chess')).api_keys
    const unknown = await runCli(dataDir, 'apikey', 'revoke', '--key', '0123456789abcdef')
    assert.notEqual(unknown.code, 0)
    assert.equal(unknown.json.error.code, 'api-key-not-found')
    for (const bad of ['nope', keep]) {
      const result = await runCli(dataDir, 'apikey', 'revoke', '--key', bad)
      assert.notEqual(result.code, 0)
      assert.equal(result.json.error.code, 'usage')
      assert.ok(!result.stdout.includes(KEY.exec(keep)![2]!), 'the secret is not echoed')
    }
    const missing = await runCli(dataDir, 'apikey', 'revoke')
    assert.equal(missing.json.error.code, 'usage')
    const noClub = await runCli(dataDir, 'apikey', 'list', '--club', 'nowhere')
    assert.equal(noClub.json.error.code, 'club-not-found')
    assert.deepStrictEqual((await cli(dataDir, 'apikey', 'list', '--club', 'chess')).api_keys, before)
    assert.equal((await legacyCreate(keep)).status, 201)
  })
})
