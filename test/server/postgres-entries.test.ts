/**
 * `CLUBCRED_DATABASE_URL` makes every entry use PostgreSQL: the admin CLI creates a club in the
 * database, and the Deno server (run without FFI, so no native module can load) serves that club, issues,
 * signs and verifies from the same database.
 */
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { startPostgres, type TestPostgres } from '../support/postgres.ts'
import { spawnNode, type NodeProcess } from '../support/node-process.ts'
import { cliWithEnv } from '../support/process-env.ts'
import { accessToken } from '../support/tokens.ts'
import type { Json } from '../support/json.ts'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The admin command's printed object, asserting it succeeded. */
async function cli(env: Record<string, string>, ...args: string[]): Promise<Json> {
  const result = await cliWithEnv(env, ...args)
  assert.equal(result.code, 0, result.stdout + result.stderr)
  return result.json
}

describe('the entries on PostgreSQL', { timeout: 180_000 }, () => {
  let server: TestPostgres
  let deno: NodeProcess | undefined
  before(async () => {
    server = await startPostgres()
  })
  after(async () => {
    await deno?.kill()
    await server?.stop()
  })

  it('the CLI writes to the database that the Deno server then issues, signs and verifies from', async () => {
    const env = { CLUBCRED_DATABASE_URL: await server.newDatabase(), CLUBCRED_MASTER_KEY: randomBytes(32).toString('hex') }
    const club = await cli(env, 'club', 'create', '--domain', 'rowing', '--name', 'Rowing Club')
    assert.equal(club.domain, 'rowing')
    const client = await cli(env, 'client', 'create', '--club', 'rowing')
    assert.ok(client.client_secret)

    deno = await spawnNode(env, { runtime: 'deno' })
    assert.doesNotMatch(deno.stderr, /created club "demo"/, 'the database had a club already: no demo bootstrap')
    const headers = { authorization: `Bearer ${await accessToken(deno, client)}`, 'content-type': 'application/json' }
    const template = await deno.http('/v2/clubs/rowing/achievements', {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'Eights', description: 'Rowed in the eight.', tag: ['rowing'] }),
    })
    assert.equal(template.status, 201, template.text)
    const issued = await deno.http('/v2/clubs/rowing/issuances', {
      method: 'POST',
      headers,
      body: JSON.stringify({
        achievementFormId: template.json.data.id,
        mode: 'none',
        recipients: [{ externalUserId: 'stroke', name: 'Stroke Seat', email: 'stroke@rowing.example' }],
      }),
    })
    assert.equal(issued.status, 200, issued.text)
    const id = issued.json.results[0].resourceId

    const by = Date.now() + 60_000
    for (;;) {
      const verdict = await deno.http(`/open-badges/v3/achievements/${id}/verify`)
      if (verdict.status === 200 && verdict.json.isValid === true) break
      assert.ok(Date.now() < by, `no valid verdict: ${verdict.status} ${verdict.text}`)
      await sleep(250)
    }
    // The CLI sees what the Deno server stored.
    const rotated = await cli(env, 'key', 'rotate', '--club', 'rowing')
    assert.equal(rotated.club, 'rowing')
  })
})
