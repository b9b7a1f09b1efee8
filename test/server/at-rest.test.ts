/**
 * What the data dir holds at rest: no client secret and no private key in the clear (docs/decisions/0006-keys-at-rest.md;
 * docs/api.md §2.2 "stores only a hash").
 */
import assert from 'node:assert/strict'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import Database from 'better-sqlite3'
import { accessToken } from '../support/tokens.ts'
import { adminClubAndClient, cli, demoClientFrom, openAdmin, removeDataDir, startServer, type ServerProcess } from '../support/server.ts'

describe('the data dir at rest', () => {
  let server: ServerProcess
  const secrets: string[] = []

  before(async () => {
    server = await startServer()
    const demo = demoClientFrom(server.stderr)
    assert.ok(demo)
    secrets.push(demo.client_secret)
    const admin = openAdmin(server.dataDir)
    const a = await adminClubAndClient(admin, 'rest-a')
    const b = await adminClubAndClient(admin, 'rest-b', ['clubs:read'])
    secrets.push(a.client_secret, b.client_secret)
    const rotated = await cli(server.dataDir, 'client', 'rotate', '--client', a.client_id) // one secret from the CLI
    secrets.push(rotated.client_secret)
    await accessToken(server, rotated) // creates the platform key
    await accessToken(server, b)
    await admin.keys.rotate('rest-a') // club keys, one rotated
    await admin.keys.rotate('rest-a')
    await admin.close()
  })
  after(async () => {
    if (server) await server.stop()
    if (server) removeDataDir(server.dataDir)
  })

  /** The SQLite file and its WAL, as raw bytes decoded as latin1 (byte for byte searchable). */
  const rawFiles = () =>
    ['clubcred.db', 'clubcred.db-wal']
      .map((name) => join(server.dataDir, name))
      .filter((file) => existsSync(file))
      .map((file) => ({ file, text: readFileSync(file).toString('latin1') }))

  function assertNothingInTheClear() {
    const files = rawFiles()
    assert.ok(files.some(({ file }) => file.endsWith('clubcred.db')))
    // Sanity: the search can find what is there (the club names are stored in the clear).
    assert.ok(
      files.some(({ text }) => text.includes('rest-a club')),
      'the raw search sees stored text',
    )
    for (const { file, text } of files) {
      for (const secret of secrets) {
        assert.ok(!text.includes(secret), `${file} holds a client secret`)
        assert.ok(!text.includes(secret.slice(4)), `${file} holds a client secret without its prefix`)
      }
      assert.doesNotMatch(text, /"d"\s*:/, `${file} holds a JWK with a private "d" member`)
    }
  }

  it('while the server runs, the SQLite file and its WAL hold no client secret and no private JWK', () => {
    assertNothingInTheClear()
  })

  it('every sealed private key is a v1. sealed value, not JSON, and public JWKs have no "d"', () => {
    const db = new Database(join(server.dataDir, 'clubcred.db'), { readonly: true })
    try {
      const rows = db.prepare('SELECT owner, public_jwk, sealed_private_key, active FROM keys').all() as {
        owner: string
        public_jwk: string
        sealed_private_key: string
        active: number
      }[]
      // The club's ES256 and Ed25519 keys, each made and rotated once, and the platform's key.
      assert.deepStrictEqual(rows.map((row) => row.owner).sort(), ['club-ed25519:rest-a', 'club-ed25519:rest-a', 'club:rest-a', 'club:rest-a', 'platform'])
      for (const row of rows) {
        assert.match(row.sealed_private_key, /^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/)
        assert.throws(() => JSON.parse(row.sealed_private_key))
        const publicMembers = row.owner.startsWith('club-ed25519:') ? ['crv', 'kty', 'x'] : ['crv', 'kty', 'x', 'y']
        assert.deepStrictEqual(Object.keys(JSON.parse(row.public_jwk)).sort(), publicMembers)
      }
      assert.equal(rows.filter((row) => row.owner === 'club:rest-a' && row.active === 1).length, 1)
      assert.equal(rows.filter((row) => row.owner === 'club-ed25519:rest-a' && row.active === 1).length, 1)

      const hashes = db.prepare('SELECT secret_hash FROM clients').pluck().all() as string[]
      assert.equal(hashes.length, 3)
      for (const hash of hashes) assert.match(hash, /^sha256\$[A-Za-z0-9_-]{43}$/)
    } finally {
      db.close()
    }
  })

  it('master.key has mode 0600', () => {
    const mode = statSync(join(server.dataDir, 'master.key')).mode & 0o777
    assert.equal(mode.toString(8), '600')
  })

  it('after the server stops, the files still hold no secret in the clear', async () => {
    assert.equal(await server.stop(), 0, server.stderr)
    assertNothingInTheClear()
  })
})
