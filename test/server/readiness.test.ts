/**
 * `/readyz` of real server processes: 503 `storage-unavailable` while PostgreSQL is down and
 * 200 again once it is back, with no restart; 503 `signing-stuck` on a process that signs while the
 * oldest pending job waits past `CLUBCRED_READY_MAX_SIGNING_AGE_MS`, 200 again once it is signed; an
 * `api` process answers for its storage only.
 */
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import Database from 'better-sqlite3'
import { startPostgres, type TestPostgres } from '../support/postgres.ts'
import { spawnNode, type NodeProcess } from '../support/node-process.ts'
import { tempDir } from '../support/temp-sqlite.ts'
import { demoToken, eventually, issueToDemo } from '../support/issuing-process.ts'

const readiness = async (node: NodeProcess) => {
  const response = await node.http('/readyz')
  assert.equal(response.headers['cache-control'], 'no-store')
  return { status: response.status, body: response.json }
}

describe('readiness while PostgreSQL goes down and comes back', { timeout: 120_000 }, () => {
  let server: TestPostgres
  let node: NodeProcess | undefined
  before(async () => {
    server = await startPostgres()
  })
  after(async () => {
    await node?.kill()
    await server?.stop()
  })

  it('answers 503 storage-unavailable meanwhile and 200 again after, while /healthz stays 200', async () => {
    node = await spawnNode({
      CLUBCRED_DATABASE_URL: await server.newDatabase(),
      CLUBCRED_MASTER_KEY: randomBytes(32).toString('hex'),
      CLUBCRED_DATABASE_STATEMENT_TIMEOUT_MS: '2000',
    })
    assert.deepEqual(await readiness(node), { status: 200, body: { status: 'ready' } })

    await server.pause()
    try {
      let seen: unknown
      await eventually('503 while the database is down', async () => {
        seen = await readiness(node!)
        return (seen as { status: number }).status === 503
      })
      assert.deepEqual(seen, { status: 503, body: { status: 'unavailable', reason: 'storage-unavailable' } })
      const health = await node.http('/healthz')
      assert.equal(health.status, 200, 'the process itself lives: no restart wanted')
    } finally {
      await server.resume()
    }
    await eventually('200 once the database is back', async () => (await readiness(node!)).status === 200, 60_000)
  })
})

describe('readiness of a signing queue that does not move', { timeout: 120_000 }, () => {
  const dir = tempDir()
  const nodes: NodeProcess[] = []
  after(async () => {
    for (const node of nodes) await node.kill()
    dir.remove()
  })

  it('a worker answers 503 signing-stuck past the bound and 200 once the job is signed; an api node stays 200', async () => {
    const env = { CLUBCRED_DATA_DIR: dir.path, CLUBCRED_READY_MAX_SIGNING_AGE_MS: '300' }
    // An api node accepts issuances and never signs them.
    const api = await spawnNode({ ...env, CLUBCRED_ROLE: 'api' })
    nodes.push(api)
    const ids = await issueToDemo(api, await demoToken(api), 2)
    assert.equal(ids.length, 2)

    // A worker that froze after claiming them: their lease runs for an hour, so no live worker may take them.
    const db = new Database(join(dir.path, 'clubcred.db'))
    try {
      db.pragma('busy_timeout = 10000')
      assert.equal(db.prepare('UPDATE signing_jobs SET lease_until = ?, attempts = 1').run(Date.now() + 3_600_000).changes, 2)

      const worker = await spawnNode({ ...env, CLUBCRED_ROLE: 'worker' })
      nodes.push(worker)
      await eventually('the worker reports the stuck queue', async () => (await readiness(worker)).status === 503)
      assert.deepEqual(await readiness(worker), { status: 503, body: { status: 'unavailable', reason: 'signing-stuck' } })
      assert.deepEqual(await readiness(api), { status: 200, body: { status: 'ready' } }, 'an api node answers for its storage only')
      assert.deepEqual((await worker.http('/healthz')).json, { status: 'ok', role: 'worker' })

      // The frozen worker's lease ends: the live one signs both, and the queue is healthy again.
      db.prepare('UPDATE signing_jobs SET lease_until = ?').run(Date.now() - 1)
      await eventually('200 once the jobs are signed', async () => (await readiness(worker)).status === 200)
      assert.equal((db.prepare('SELECT count(*) AS n FROM credentials').get() as { n: number }).n, 2)
      assert.equal((db.prepare('SELECT count(*) AS n FROM signing_jobs').get() as { n: number }).n, 0)
    } finally {
      db.close()
    }
  })
})
