/**
 * A rolling restart on PostgreSQL (docs/shutdown.md § Rolling restart), with real processes: an `api` node
 * accepts 1,000 recipients, the `worker` is sent SIGTERM while it holds a round, both exit 0, and a new
 * worker signs the rest at once: the old one left no job leased (the lease, 60 s, is longer than the
 * test waits). One credential and one `issuance.credential_issued` event per issuance. Every line each
 * node writes after its listening line is JSON, the shutdown's included.
 */
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import postgres from 'postgres'
import { startPostgres, type TestPostgres } from '../support/postgres.ts'
import { spawnNode, type NodeProcess } from '../support/node-process.ts'
import { demoToken } from '../support/issuing-process.ts'
import { linesAfterListening } from '../support/server.ts'

const RECIPIENTS = 1000
/** Shorter than the signing lease (60 s by default): a job left leased would not be signed in time. */
const SIGNED_WITHIN_MS = 30_000

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The exit, once the process's last lines are read too. */
function exitOf(node: NodeProcess) {
  return node.closed.then(() => ({ code: node.child.exitCode, signal: node.child.signalCode }))
}

/** The last line after checking that every line after the listening line is JSON (docs/logs.md). */
function lastLine(node: NodeProcess) {
  const { level, msg } = linesAfterListening(node).at(-1)!
  return { level, msg }
}

describe('a rolling restart on PostgreSQL (docs/shutdown.md)', { timeout: 120_000 }, () => {
  let server: TestPostgres
  const nodes: NodeProcess[] = []
  before(async () => {
    server = await startPostgres()
  })
  after(async () => {
    await Promise.all(nodes.map((node) => node.kill()))
    await server?.stop()
  })

  it('SIGTERM to a worker holding a round and to an api node: exit 0, nothing left leased, a new worker signs every issuance once', async (t) => {
    const databaseUrl = await server.newDatabase()
    const env = { CLUBCRED_DATABASE_URL: databaseUrl, CLUBCRED_MASTER_KEY: randomBytes(32).toString('hex'), CLUBCRED_DATABASE_POOL_SIZE: '4' }
    const start = async (role: 'api' | 'worker') => {
      const node = await spawnNode({ ...env, CLUBCRED_ROLE: role })
      nodes.push(node)
      return node
    }
    const api = await start('api')
    const headers = { authorization: `Bearer ${await demoToken(api)}`, 'content-type': 'application/json' }
    const template = await api.http('/v2/clubs/demo/achievements', {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'Spring tournament', description: 'Played all seven rounds.' }),
    })
    assert.equal(template.status, 201, template.text)
    const recipients = Array.from({ length: RECIPIENTS }, (_, i) => ({ externalUserId: `p-${i}`, name: `Player ${i}`, email: `p${i}@demo.example` }))
    const issued = await api.http('/v2/clubs/demo/issuances', {
      method: 'POST',
      headers,
      body: JSON.stringify({ achievementFormId: template.json.data.id, mode: 'none', recipients }),
    })
    assert.equal(issued.status, 200, issued.text)
    assert.equal(issued.json.summary.ok, RECIPIENTS)

    const sql = postgres(databaseUrl, { max: 2, onnotice: () => {}, connection: { search_path: 'clubcred' } })
    try {
      const state = async () =>
        (
          await sql`SELECT (SELECT count(*) FROM signing_jobs WHERE lease_until IS NOT NULL)::int AS leased,
                           (SELECT count(*) FROM signing_jobs)::int AS jobs, (SELECT count(*) FROM credentials)::int AS credentials`
        )[0] as { leased: number; jobs: number; credentials: number }

      const worker = await start('worker')
      const started = Date.now()
      for (let now = await state(); now.leased === 0 && now.credentials === 0; now = await state()) {
        if (Date.now() - started > SIGNED_WITHIN_MS) assert.fail('the worker never claimed a round')
      }
      const workerExit = exitOf(worker)
      worker.child.kill('SIGTERM')
      t.diagnostic(`at the worker's SIGTERM: ${JSON.stringify(await state())}`)
      assert.deepEqual(await workerExit, { code: 0, signal: null }, worker.stderr)
      assert.deepEqual(lastLine(worker), { level: 'info', msg: 'shut down' })
      const afterWorker = await state()
      t.diagnostic(`at its exit: ${JSON.stringify(afterWorker)}`)
      assert.equal(afterWorker.leased, 0, 'the worker stored the rounds it held: no job left leased')
      assert.equal(afterWorker.jobs + afterWorker.credentials, RECIPIENTS)

      const apiExit = exitOf(api)
      api.child.kill('SIGTERM')
      assert.deepEqual(await apiExit, { code: 0, signal: null }, api.stderr)
      assert.deepEqual(lastLine(api), { level: 'info', msg: 'shut down' })

      await start('worker')
      const waited = Date.now()
      while ((await state()).credentials < RECIPIENTS) {
        if (Date.now() - waited > SIGNED_WITHIN_MS) assert.fail(`not signed within ${SIGNED_WITHIN_MS} ms: ${JSON.stringify(await state())}`)
        await sleep(200)
      }
      const credentials = (await sql`SELECT issuance_id FROM credentials`) as unknown as { issuance_id: string }[]
      assert.equal(new Set(credentials.map((row) => String(row.issuance_id))).size, RECIPIENTS, 'one credential per issuance')
      const events = (await sql`SELECT subject_id FROM events WHERE type = 'issuance.credential_issued'`) as unknown as { subject_id: string }[]
      assert.equal(events.length, RECIPIENTS, 'one issuance.credential_issued event per issuance')
      assert.deepEqual(new Set(events.map((row) => String(row.subject_id))), new Set(credentials.map((row) => String(row.issuance_id))))
      assert.equal((await state()).jobs, 0)
    } finally {
      await sql.end()
    }
  })
})
