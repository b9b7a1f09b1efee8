/**
 * Backup and restore on PostgreSQL (docs/backup.md): `backup` refuses and names pg_dump; the
 * documented commands, run for real, carry a deployment into a fresh database: `pg_dump --schema=clubcred
 * --format=custom` of a real PostgreSQL while a node issues, `pg_restore` into a new database, and a
 * node there with the same CLUBCRED_MASTER_KEY publishes the same DID document, verifies every credential
 * (jose against that document), takes the old client's secret and issues on. With another master key
 * the node refuses to start, in one line.
 */
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { after, before, describe, it } from 'node:test'
import { findBinDir, startPostgres, type TestPostgres } from '../support/postgres.ts'
import { spawnNode, type NodeProcess } from '../support/node-process.ts'
import { cliWithEnv, startExpectingExit } from '../support/process-env.ts'
import { allSigned, randomKey, session, verifyWithDidDocument } from '../support/club-session.ts'
import { ADDRESS } from '../support/origin.ts'

const run = promisify(execFile)

describe('backup and restore on PostgreSQL: pg_dump and pg_restore', { timeout: 180_000 }, () => {
  let server: TestPostgres
  const nodes: NodeProcess[] = []
  const work = mkdtempSync(join(tmpdir(), 'clubcred-pgdump-'))
  before(async () => {
    server = await startPostgres()
  })
  after(async () => {
    await Promise.all(nodes.map((node) => node.kill()))
    await server?.stop()
    rmSync(work, { recursive: true, force: true })
  })

  it('a dump taken while a node issues restores into a database where a node verifies every credential and issues on', async () => {
    const url = await server.newDatabase()
    const masterKey = randomKey()
    // A job a worker held when the dump was taken is restored leased: a short lease lets the restored node sign it soon.
    const env = { CLUBCRED_DATABASE_URL: url, CLUBCRED_MASTER_KEY: masterKey, CLUBCRED_DATA_DIR: work, CLUBCRED_SIGNING_LEASE_MS: '2000', ...ADDRESS }
    assert.equal((await cliWithEnv(env, 'club', 'create', '--domain', 'rowing', '--name', 'Rowing')).code, 0)
    const client = (await cliWithEnv(env, 'client', 'create', '--club', 'rowing')).json

    const refused = await cliWithEnv(env, 'backup', '--out', join(work, 'x.db'))
    assert.equal(refused.code, 2)
    assert.match(refused.json.error.message, /use pg_dump --schema=clubcred --format=custom/)

    const first = await spawnNode(env)
    nodes.push(first)
    const call = await session(first, client)
    const template = await call('POST', '/achievements', { name: 'Sculls', description: 'Rowed a single scull.', tag: ['rowing'] })
    assert.equal(template.status, 201, template.text)
    const issue = (tag: string) =>
      call('POST', '/issuances', {
        achievementFormId: template.json.data.id,
        mode: 'none',
        recipients: Array.from({ length: 10 }, (_, i) => ({ externalUserId: `${tag}-${i}`, name: `Rower ${tag}-${i}`, email: `${tag}-${i}@rowing.example` })),
      })
    assert.equal((await issue('a')).status, 200)
    assert.equal((await issue('b')).status, 200)
    // Signed before the dump: the club's keys are made by its first signing round, and a dump taken
    // before that holds none (the restored node would make its own, rightly, and the DID documents differ).
    assert.equal((await allSigned(call)).length, 20)

    // The documented dump, taken while a third batch is being issued.
    const bin = findBinDir()
    const dump = join(work, 'clubcred.dump')
    const [dumped, third] = await Promise.all([run(join(bin, 'pg_dump'), ['--schema=clubcred', '--format=custom', `--file=${dump}`, url]), issue('c')])
    assert.equal(third.status, 200, third.text)
    assert.equal(dumped.stderr, '')
    const didBefore = await first.http('/open-badges/v3/issuers/rowing/did.json')
    await first.stop()

    const restoredUrl = await server.newDatabase()
    await run(join(bin, 'pg_restore'), ['--no-owner', '--exit-on-error', `--dbname=${restoredUrl}`, dump])
    // The documented step after a restore: retire the revocation lists (docs/backup.md).
    const retired = await run(join(bin, 'psql'), [restoredUrl, '-c', 'UPDATE clubcred.status_lists SET allocated = size WHERE allocated < size'])
    assert.match(retired.stdout, /^UPDATE [1-9]/)
    const retiredIds = (await run(join(bin, 'psql'), [restoredUrl, '-At', '-c', 'SELECT id FROM clubcred.status_lists'])).stdout.trim().split('\n')
    const restoredEnv = { ...env, CLUBCRED_DATABASE_URL: restoredUrl }

    const wrong = await startExpectingExit({ ...restoredEnv, CLUBCRED_MASTER_KEY: randomKey() })
    assert.equal(wrong.code, 1, wrong.stderr)
    assert.match(
      wrong.stderr,
      /^clubcred: cannot start: the master key does not open the stored signing keys .*CLUBCRED_MASTER_KEY is not the master key of this data/,
    )
    assert.equal(wrong.stderr.trim().split('\n').length, 1, `one line: ${wrong.stderr}`)

    const second = await spawnNode(restoredEnv)
    nodes.push(second)
    const didAfter = await second.http('/open-badges/v3/issuers/rowing/did.json')
    assert.equal(didAfter.text, didBefore.text, 'the same DID document')
    const onRestored = await session(second, client)
    const items = await allSigned(onRestored)
    assert.ok(items.length >= 20 && items.length % 10 === 0, `whole batches only: ${items.length}`)
    for (const item of items) {
      const jwt = await second.http(`/open-badges/v3/credentials/${item.credentialId}`)
      assert.equal(jwt.status, 200, jwt.text)
      await verifyWithDidDocument(jwt.text, didAfter.json)
    }
    const moreOnRestored = await onRestored('POST', '/issuances', {
      achievementFormId: template.json.data.id,
      mode: 'none',
      recipients: [{ externalUserId: 'cox', name: 'Cox', email: 'cox@rowing.example' }],
    })
    assert.equal(moreOnRestored.status, 200, moreOnRestored.text)
    const after_ = await allSigned(onRestored)
    assert.equal(after_.length, items.length + 1)
    assert.equal(after_[0]!.id, moreOnRestored.json.results[0].resourceId, 'the new issuance lists first: its sequence follows the restored ones')
    const freshJwt = (await second.http(`/open-badges/v3/credentials/${after_[0]!.credentialId}`)).text
    await verifyWithDidDocument(freshJwt, didAfter.json)
    const statusList = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()).vc.credentialStatus.statusListCredential
    const freshList = /\/revocation\/(\d+)$/.exec(statusList(freshJwt))
    assert.ok(freshList && !retiredIds.includes(freshList[1]!), `new credentials go to a new revocation list: ${statusList(freshJwt)}, retired ${retiredIds}`)
  })
})
