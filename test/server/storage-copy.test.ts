/**
 * Moving a one-node SQLite deployment to PostgreSQL (docs/deployment.md): `storage copy --to`
 * copies every club, client, key, template, issuance, credential and event; a node started on the
 * database with the data dir's master key then serves the same credentials byte for byte, verifies them
 * (revocation included), takes the old client's secret, and issues on without reusing a number.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { startPostgres, type TestPostgres } from '../support/postgres.ts'
import { spawnNode, type NodeProcess } from '../support/node-process.ts'
import { session, sleep } from '../support/club-session.ts'
import { ADDRESS } from '../support/origin.ts'
import { clubAndClient, freshDataDir, removeDataDir, runCli } from '../support/server.ts'
import type { Issuance, ClubEvent } from '../../client/types.ts'

interface Seen {
  issuances: { id: number; credentialId: string; revoked: boolean }[]
  jwts: Map<string, string>
  events: ClubEvent[]
  kid: string
}

/** What a client and a verifier see of the deployment. */
async function look(node: NodeProcess, call: Awaited<ReturnType<typeof session>>): Promise<Seen> {
  const list = await call('GET', '/issuances?limit=100')
  assert.equal(list.status, 200, list.text)
  const issuances = list.json.data.map((item: Issuance) => ({ id: item.id, credentialId: item.credentialId, revoked: item.revokedAt !== null }))
  const jwts = new Map<string, string>()
  for (const item of issuances) {
    const jwt = await node.http(`/open-badges/v3/credentials/${item.credentialId}`)
    assert.equal(jwt.status, 200, jwt.text)
    jwts.set(item.credentialId, jwt.text)
    const verdict = await node.http(`/open-badges/v3/achievements/${item.id}/verify`)
    assert.equal(verdict.status, 200, verdict.text)
    assert.equal(verdict.json.isValid, true)
    assert.equal(verdict.json.status, item.revoked ? 'revoked' : 'valid')
  }
  const events = (await call('GET', '/events?limit=100')).json.data
  const did = await node.http('/open-badges/v3/issuers/rowing/did.json')
  const jwtKeys = did.json.verificationMethod.filter((method: { type: string }) => method.type === 'JsonWebKey2020')
  return { issuances, jwts, events, kid: jwtKeys.at(-1).id }
}

describe('storage copy --to: a SQLite deployment into PostgreSQL', { timeout: 180_000 }, () => {
  let server: TestPostgres
  const dataDir = freshDataDir()
  const nodes: NodeProcess[] = []
  before(async () => {
    server = await startPostgres()
  })
  after(async () => {
    await Promise.all(nodes.map((node) => node.kill()))
    await server?.stop()
    removeDataDir(dataDir)
  })

  it('copies everything, and a PostgreSQL node serves, verifies and issues on from it', async () => {
    // The one-node deployment: a club, a client, a template, four credentials, one revoked, an API key.
    const client = await clubAndClient(dataDir, 'rowing')
    const apiKey = await runCli(dataDir, 'apikey', 'create', '--club', 'rowing')
    assert.equal(apiKey.code, 0, apiKey.stderr)
    const sqliteNode = await spawnNode({ CLUBCRED_DATA_DIR: dataDir, ...ADDRESS })
    nodes.push(sqliteNode)
    const onSqlite = await session(sqliteNode, client)
    const template = await onSqlite('POST', '/achievements', { name: 'Sculls', description: 'Rowed a single scull.', tag: ['rowing'] })
    assert.equal(template.status, 201, template.text)
    const recipients = ['bow', 'two', 'three', 'stroke'].map((seat) => ({ externalUserId: seat, name: `Seat ${seat}`, email: `${seat}@rowing.example` }))
    const issued = await onSqlite('POST', '/issuances', { achievementFormId: template.json.data.id, mode: 'none', recipients })
    assert.equal(issued.status, 200, issued.text)
    for (;;) {
      const list = await onSqlite('GET', '/issuances?limit=100')
      if (list.json.data.every((item: Issuance) => item.credentialId !== null)) break
      await sleep(100)
    }
    const revoked = await onSqlite('POST', `/issuances/${issued.json.results[0].resourceId}/revoke`, { reason: 'Entered twice.' })
    assert.equal(revoked.status, 200, revoked.text)
    const before = await look(sqliteNode, onSqlite)
    await sqliteNode.stop()

    const url = await server.newDatabase()
    const copied = await runCli(dataDir, 'storage', 'copy', '--to', url)
    assert.equal(copied.code, 0, `${copied.stdout}\n${copied.stderr}`)
    // Keys: the platform's, and the club's ES256 and Ed25519 keys.
    for (const [table, rows] of Object.entries({ clubs: 1, clients: 1, keys: 3, achievements: 1, issuances: 4, credentials: 4, events: 9, api_keys: 1 })) {
      assert.equal(copied.json.copied[table], rows, `${table}: ${JSON.stringify(copied.json.copied)}`)
    }
    assert.match(copied.json.masterKey, /master\.key/)
    assert.doesNotMatch(copied.stdout, new RegExp(readFileSync(join(dataDir, 'master.key'), 'utf8').trim()), 'the key itself is never printed')
    const again = await runCli(dataDir, 'storage', 'copy', '--to', url)
    assert.equal(again.code, 2, 'a database with rows is refused')
    assert.match(again.json.error.message, /holds rows already/)

    const masterKey = readFileSync(join(dataDir, 'master.key'), 'utf8').trim()
    const pgNode = await spawnNode({ CLUBCRED_DATABASE_URL: url, CLUBCRED_MASTER_KEY: masterKey, ...ADDRESS })
    nodes.push(pgNode)
    assert.doesNotMatch(pgNode.stderr, /created club "demo"/)
    const onPostgres = await session(pgNode, client)
    const after_ = await look(pgNode, onPostgres)
    assert.deepEqual(after_.issuances, before.issuances, 'the same issuances, ids and credential ids')
    assert.deepEqual(after_.jwts, before.jwts, 'the same credentials, byte for byte')
    assert.deepEqual(after_.events, before.events, 'the same event feed')
    assert.equal(after_.kid, before.kid, 'the same signing key, opened with the same master key')

    // Issuing goes on: fresh numbers after the copied ones, signed with the club's key.
    const more = await onPostgres('POST', '/issuances', {
      achievementFormId: template.json.data.id,
      mode: 'none',
      recipients: [{ externalUserId: 'cox', name: 'Cox', email: 'cox@rowing.example' }],
    })
    assert.equal(more.status, 200, more.text)
    assert.equal(more.json.summary.ok, 1)
    for (;;) {
      const list = await onPostgres('GET', '/issuances?limit=100')
      assert.equal(list.json.data.length, 5)
      assert.equal(list.json.data[0].id, more.json.results[0].resourceId, 'the new issuance lists first: its sequence follows the copied ones')
      if (list.json.data[0].credentialId !== null) break
      await sleep(100)
    }
    const events = (await onPostgres('GET', '/events?limit=2')).json.data
    assert.ok(
      events.every((event: ClubEvent) => Number(event.id) > Math.max(...before.events.map((e) => Number(e.id)))),
      'event ids go on past the copied ones',
    )
  })
})
