/**
 * The database stops for a few seconds while a club issues: the API answers 503
 * `storage-unavailable` problems meanwhile (not a 500, not a hang), every issuance it accepted (200) gets
 * its credential, and signing resumes by itself once the database is back, with no restart. Every line
 * the server writes after its listening line, through the outage and its shutdown, is JSON (docs/logs.md).
 */
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import postgres from 'postgres'
import { startPostgres, type TestPostgres } from '../support/postgres.ts'
import { spawnNode, type NodeProcess } from '../support/node-process.ts'
import { demoClientFrom, linesAfterListening } from '../support/server.ts'
import { accessToken } from '../support/tokens.ts'

const BATCH = 20
const OUTAGE_MS = 3000
const RECOVERY_MS = 60_000

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('the database down for a few seconds', { timeout: 180_000 }, () => {
  let server: TestPostgres
  let node: NodeProcess | undefined
  before(async () => {
    server = await startPostgres()
  })
  after(async () => {
    await node?.kill()
    await server?.stop()
  })

  it('answers 503 storage-unavailable meanwhile, loses no accepted issuance and signs again on its own', async (t) => {
    const databaseUrl = await server.newDatabase()
    node = await spawnNode({
      CLUBCRED_DATABASE_URL: databaseUrl,
      CLUBCRED_MASTER_KEY: randomBytes(32).toString('hex'),
      CLUBCRED_DATABASE_STATEMENT_TIMEOUT_MS: '2000',
    })
    const client = demoClientFrom(node.stderr)!
    const token = await accessToken(node, client)
    const call = (method: string, path: string, body?: unknown) =>
      node!.http(`/v2/clubs/demo${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
    const created = await call('POST', '/achievements', { name: 'Night watch', description: 'Kept the night watch.', tag: ['watch'] })
    assert.equal(created.status, 201, created.text)

    const accepted = new Set<number>()
    const refusals = new Map<string, number>()
    let batch = 0
    const issueOnce = async () => {
      const recipients = Array.from({ length: BATCH }, (_, i) => ({
        externalUserId: `w-${batch}-${i}`,
        name: `Watcher ${i}`,
        email: `w${batch}.${i}@watch.example`,
      }))
      batch++
      const response = await call('POST', '/issuances', { achievementFormId: created.json.data.id, mode: 'none', recipients })
      if (response.status === 200) {
        for (const result of response.json.results) if (result.status === 'issued') accepted.add(Number(result.resourceId))
        return
      }
      const key = `${response.status} ${response.json?.code}`
      refusals.set(key, (refusals.get(key) ?? 0) + 1)
      if (response.status === 503) assert.ok(Number(response.headers['retry-after']) > 0, 'a 503 says when to retry')
    }

    for (let i = 0; i < 5; i++) await issueOnce()
    assert.equal(accepted.size, 5 * BATCH)

    await server.pause()
    const outageEnds = Date.now() + OUTAGE_MS
    while (Date.now() < outageEnds) {
      await issueOnce()
      await sleep(100)
    }
    const during = Object.fromEntries(refusals)
    t.diagnostic(`during the outage: ${JSON.stringify(during)}`)
    assert.ok((refusals.get('503 storage-unavailable') ?? 0) > 0, 'the API said the storage is unavailable')
    assert.deepEqual([...refusals.keys()], ['503 storage-unavailable'], 'nothing but 503 storage-unavailable')
    // The public verdict reads the revocation state live, so it cannot answer from a cache either.
    const verify = await node.http(`/open-badges/v3/achievements/${[...accepted][0]}/verify`)
    assert.equal(verify.status, 503, 'the public surface too')
    assert.equal(verify.json.code, 'storage-unavailable')
    await server.resume()

    // The same process, no restart: issuing works again and every accepted issuance is signed.
    const resumedBy = Date.now() + RECOVERY_MS
    let afterOutage = 0
    while (afterOutage < 3) {
      const before = accepted.size
      await issueOnce()
      if (accepted.size > before) afterOutage++
      else {
        assert.ok(Date.now() < resumedBy, 'the API did not come back')
        await sleep(200)
      }
    }

    const sql = postgres(databaseUrl, { max: 1, onnotice: () => {}, connection: { search_path: 'clubcred' } })
    try {
      const signedBy = Date.now() + RECOVERY_MS
      for (;;) {
        const rows = await sql`SELECT issuance_id FROM credentials`
        const signed = new Set(rows.map((row) => Number(row.issuance_id)))
        const missing = [...accepted].filter((id) => !signed.has(id))
        if (missing.length === 0) break
        assert.ok(Date.now() < signedBy, `${missing.length} accepted issuances have no credential`)
        await sleep(250)
      }
      const [{ issuances, credentials }] =
        (await sql`SELECT (SELECT count(*) FROM issuances) AS issuances, (SELECT count(*) FROM credentials) AS credentials`) as unknown as [
          { issuances: string; credentials: string },
        ]
      // A request cut off by the outage may have committed without its answer reaching us: it is signed too.
      assert.equal(Number(credentials), Number(issuances), 'every stored issuance has exactly one credential')
      t.diagnostic(`${accepted.size} accepted, ${issuances} stored, ${credentials} credentials`)
    } finally {
      await sql.end()
    }

    // The outage as a log collector reads it: JSON lines only, the 503s among them as warnings.
    await node.stop()
    const lines = linesAfterListening(node)
    assert.ok(
      lines.some((line) => line.msg === 'request' && line.level === 'warn' && line.status === 503),
      'a 503 during the outage is a warning line',
    )
    assert.equal(lines.at(-1)!.msg, 'shut down')
  })
})
