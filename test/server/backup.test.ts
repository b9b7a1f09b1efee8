/**
 * Backup and restore (docs/backup.md) with the real server process and the real CLI: a server
 * on a SQLite data dir issues over HTTP while `backup --out` copies its database; `verify-backup` checks
 * the copy; `restore --from` puts it into a fresh data dir with the same master key, and a server there
 * serves every credential of the copy byte for byte, each verifying with jose against the club's DID
 * document (the same document as before), takes the old client's secret and issues on. With a wrong
 * master key (given, or a new key file the server makes itself) it refuses to start, in one line.
 */
import assert from 'node:assert/strict'
import { copyFileSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import Database from 'better-sqlite3'
import { sealFile } from '../../server/backup-seal.ts'
import { readMasterKey } from '../../server/master-key.ts'
import { spawnNode, type NodeProcess } from '../support/node-process.ts'
import { cliWithEnv, startExpectingExit } from '../support/process-env.ts'
import { allSigned, randomKey, session, sleep, verifyWithDidDocument } from '../support/club-session.ts'
import { ADDRESS } from '../support/origin.ts'
import { clubAndClient, freshDataDir, removeDataDir, runCli } from '../support/server.ts'

/** Runs the tasks `size` at a time, answering their results in order. */
async function inBatches<T extends (() => Promise<unknown>)[]>(size: number, tasks: [...T]): Promise<{ [K in keyof T]: Awaited<ReturnType<T[K]>> }> {
  const results: unknown[] = []
  for (let i = 0; i < tasks.length; i += size) results.push(...(await Promise.all(tasks.slice(i, i + size).map((task) => task()))))
  return results as { [K in keyof T]: Awaited<ReturnType<T[K]>> }
}

describe('backup, verify-backup and restore', { timeout: 180_000 }, () => {
  const dirs: string[] = []
  const nodes: NodeProcess[] = []
  const dir = () => {
    const path = freshDataDir()
    dirs.push(path)
    return path
  }
  after(async () => {
    await Promise.all(nodes.map((node) => node.kill()))
    for (const path of dirs) removeDataDir(path)
  })

  it('a copy made while the server issues restores into a server that verifies, signs and issues on; a wrong master key stops it', async () => {
    const live = dir()
    const client = await clubAndClient(live, 'rowing')
    // A job a worker held when the copy was made is restored leased: a short lease lets the restored server sign it soon.
    const first = await spawnNode({ CLUBCRED_DATA_DIR: live, CLUBCRED_SIGNING_LEASE_MS: '2000', ...ADDRESS })
    nodes.push(first)
    const call = await session(first, client)
    const template = await call('POST', '/achievements', { name: 'Sculls', description: 'Rowed a single scull.', tag: ['rowing'] })
    assert.equal(template.status, 201, template.text)

    // Issue batches of 10 until told to stop, each accepted whole.
    let stop = false
    let batches = 0
    const issuing = (async () => {
      while (!stop) {
        const recipients = Array.from({ length: 10 }, (_, i) => ({
          externalUserId: `r${batches}-${i}`,
          name: `Rower ${batches}-${i}`,
          email: `r${batches}-${i}@rowing.example`,
        }))
        const issued = await call('POST', '/issuances', { achievementFormId: template.json.data.id, mode: 'none', recipients })
        assert.equal(issued.status, 200, issued.text)
        assert.equal(issued.json.summary.ok, 10)
        batches += 1
      }
    })()
    // And until the first Data Integrity proofs are stored, which verify-backup checks too.
    const proven = () => {
      const live_ = new Database(join(live, 'clubcred.db'), { readonly: true })
      try {
        return (live_.prepare("SELECT count(*) AS n FROM credentials WHERE proof IS NOT NULL AND proof <> ''").get() as { n: number }).n
      } finally {
        live_.close()
      }
    }
    while (batches < 3 || proven() === 0) await sleep(20)

    const backupFile = join(dir(), 'rowing.backup.db')
    const batchesBefore = batches
    const backup = await runCli(live, 'backup', '--out', backupFile)
    const batchesDuring = batches - batchesBefore
    stop = true
    await issuing
    assert.equal(backup.code, 0, `${backup.stdout}\n${backup.stderr}`)
    assert.ok(batchesDuring > 0, 'the server issued while the backup ran')
    const masterKey = readFileSync(join(live, 'master.key'), 'utf8').trim()
    assert.match(backup.json.masterKey, /^not included: .*master\.key/)
    assert.ok(!backup.stdout.includes(masterKey), 'the key itself is never printed')
    assert.equal(backup.json.out, backupFile)
    assert.equal(backup.json.clubs, 1)
    assert.ok(backup.json.issuances >= 30 && backup.json.issuances % 10 === 0, `whole batches only: ${backup.json.issuances}`)
    assert.equal(backup.json.credentials + backup.json.pendingSigning, backup.json.issuances, 'each issuance has a credential or a signing job')
    assert.ok(backup.json.credentials > 0)
    assert.equal(backup.json.bytes, readFileSync(backupFile).length)
    assert.equal((statSync(backupFile).mode & 0o777).toString(8), '600', 'recipients are in it: owner only')
    assert.ok(!existsSync(`${backupFile}-wal`), 'one self-contained file')

    // What the copy holds, read with better-sqlite3 itself.
    const copy = new Database(backupFile, { readonly: true })
    const copied = copy.prepare('SELECT id, jwt, proof FROM credentials').all() as { id: string; jwt: string; proof: string | null }[]
    const dataIntegrityKid = (copy.prepare("SELECT kid FROM keys WHERE owner = 'club-ed25519:rowing' AND active = 1").get() as { kid: string }).kid
    copy.close()
    const withProof = copied.filter((row) => row.proof !== null && row.proof !== '')
    assert.ok(withProof.length > 0, 'the copy holds Data Integrity proofs')
    assert.equal(copied.length, backup.json.credentials)

    const verified = await runCli(live, 'verify-backup', backupFile)
    assert.equal(verified.code, 0, verified.stdout)
    assert.deepEqual(
      { credentials: verified.json.credentials, verified: verified.json.verified, proofs: verified.json.proofs, failed: verified.json.failed },
      { credentials: copied.length, verified: copied.length, proofs: withProof.length, failed: [] },
    )
    assert.equal(verified.json.keys.failed.length, 0)

    // A credential changed in a copy of the copy, sealed again with the right master key (the seal alone
    // would refuse it, docs/backup.md): its signature no longer verifies, and verify-backup names it.
    const tampered = join(dir(), 'tampered.db')
    const sealed = readFileSync(backupFile)
    const sealLine = /\nclubcred backup seal [^\n]*\n$/.exec(sealed.subarray(-128).toString('latin1'))
    assert.ok(sealLine, 'the copy ends in its seal line')
    writeFileSync(tampered, sealed.subarray(0, sealed.length - sealLine[0].length))
    const victim = copied[0]!
    const [header, payload, signature] = victim.jwt.split('.')
    const changed = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), nbf: 1 })).toString('base64url')
    const db = new Database(tampered)
    db.prepare('UPDATE credentials SET jwt = ? WHERE id = ?').run(`${header}.${changed}.${signature}`, victim.id)
    // And a proof by the club's Ed25519 key whose signature is not the credential's: its JWT verifies, its proof must not.
    const proofVictim = withProof.find((row) => row.id !== victim.id) ?? copied.find((row) => row.id !== victim.id)!
    const forged = { ...JSON.parse(withProof[0]!.proof!), proofValue: `z${'1'.repeat(64)}` }
    assert.match(forged.verificationMethod, new RegExp(`#${dataIntegrityKid}$`))
    db.prepare('UPDATE credentials SET proof = ? WHERE id = ?').run(JSON.stringify(forged), proofVictim.id)
    db.close()
    sealFile(tampered, readMasterKey(live, undefined)!)
    const caught = await runCli(live, 'verify-backup', tampered)
    assert.equal(caught.code, 1, caught.stdout)
    assert.equal(caught.json.error.code, 'backup-unverified')
    assert.deepEqual(
      new Set(caught.json.error.failed),
      new Set([
        { id: victim.id, reason: 'the signature does not verify' },
        { id: proofVictim.id, reason: 'its Data Integrity proof does not verify' },
      ]),
    )
    assert.equal(caught.json.error.verified, copied.length - 2)

    const didBefore = await first.http('/open-badges/v3/issuers/rowing/did.json')
    assert.equal(didBefore.status, 200)
    await first.stop()

    // Restore into a fresh data dir that holds the same master key file.
    const restored = dir()
    copyFileSync(join(live, 'master.key'), join(restored, 'master.key'))
    const restore = await runCli(restored, 'restore', '--from', backupFile)
    assert.equal(restore.code, 0, restore.stdout)
    assert.equal(restore.json.credentials, copied.length)
    assert.equal((statSync(join(restored, 'clubcred.db')).mode & 0o777).toString(8), '600')
    assert.deepEqual(readdirSync(restored).sort(), ['clubcred.db', 'master.key'], 'no temporary file left behind')
    const second = await spawnNode({ CLUBCRED_DATA_DIR: restored, ...ADDRESS })
    nodes.push(second)
    assert.doesNotMatch(second.stderr, /created club "demo"/, 'the restored data dir is not empty')

    const didAfter = await second.http('/open-badges/v3/issuers/rowing/did.json')
    assert.equal(didAfter.text, didBefore.text, 'the same DID document')
    const onRestored = await session(second, client)
    const items = await allSigned(onRestored)
    assert.equal(items.length, backup.json.issuances, 'every issuance of the copy, the pending ones now signed')
    for (const { id, jwt } of copied) {
      const served = await second.http(`/open-badges/v3/credentials/${id}`)
      assert.equal(served.status, 200, served.text)
      assert.equal(served.text, jwt, 'served as stored')
    }
    for (const item of items) {
      const jwt = await second.http(`/open-badges/v3/credentials/${item.credentialId}`)
      await verifyWithDidDocument(jwt.text, didAfter.json)
    }

    // Issuing goes on with the restored keys.
    const more = await onRestored('POST', '/issuances', {
      achievementFormId: template.json.data.id,
      mode: 'none',
      recipients: [{ externalUserId: 'cox', name: 'Cox', email: 'cox@rowing.example' }],
    })
    assert.equal(more.status, 200, more.text)
    const after_ = await allSigned(onRestored)
    const fresh = after_.find((item) => item.id === more.json.results[0].resourceId)
    assert.ok(fresh)
    const freshJwt = (await second.http(`/open-badges/v3/credentials/${fresh.credentialId}`)).text
    await verifyWithDidDocument(freshJwt, didAfter.json)
    // A new revocation list: the slots after the copy's may be held by credentials signed after it.
    assert.ok(restore.json.retiredStatusLists >= 1)
    const statusList = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()).vc.credentialStatus.statusListCredential
    const oldLists = new Set(copied.map(({ jwt }) => statusList(jwt)))
    assert.ok(!oldLists.has(statusList(freshJwt)), `${statusList(freshJwt)} is not one of ${[...oldLists].join(', ')}`)
    await second.stop()

    // The same database with a wrong master key: given as CLUBCRED_MASTER_KEY ...
    const refused = await startExpectingExit({ CLUBCRED_DATA_DIR: restored, CLUBCRED_MASTER_KEY: randomKey(), ...ADDRESS })
    assert.equal(refused.code, 1, refused.stderr)
    assert.match(
      refused.stderr,
      /^clubcred: cannot start: the master key does not open the stored signing keys \(3 of 3: club-ed25519:rowing, club:rowing, platform\).*CLUBCRED_MASTER_KEY/,
    )
    assert.equal(refused.stderr.trim().split('\n').length, 1, `one line: ${refused.stderr}`)
    assert.doesNotMatch(refused.stderr, /listening/)
    // ... or the database copied by hand into a data dir without a key file, where the server makes a new one.
    const byHand = dir()
    copyFileSync(backupFile, join(byHand, 'clubcred.db'))
    const refusedToo = await startExpectingExit({ CLUBCRED_DATA_DIR: byHand, ...ADDRESS })
    assert.equal(refusedToo.code, 1, refusedToo.stderr)
    assert.match(refusedToo.stderr, /^clubcred: cannot start: the master key does not open .*master\.key is not the master key of this data/)
    assert.ok(existsSync(join(byHand, 'master.key')))
  })

  it('refuses what would lose or mix data, and finds a tampered credential or a wrong key', async () => {
    const live = dir()
    await clubAndClient(live, 'rowing')
    for (let i = 0; i < 2; i++) assert.equal((await runCli(live, 'key', 'rotate', '--club', 'rowing')).code, 0)
    const out = join(dir(), 'copy.db')
    assert.equal((await runCli(live, 'backup', '--out', out)).code, 0)

    const notSqlite = join(dir(), 'notes.txt')
    writeFileSync(notSqlite, 'not a database at all, just some words that fill a page or so.'.repeat(100))
    const otherSqlite = join(dir(), 'other.db')
    new Database(otherSqlite).exec('CREATE TABLE t (x)').close()
    // Independent refusals, three at a time (each is one CLI process; the runner's cores are shared).
    const [again, onPostgres, into, noKey, wrongKey, fromText, fromOther, ofLive, withWrongKey] = await inBatches(3, [
      () => runCli(live, 'backup', '--out', out),
      () =>
        cliWithEnv(
          { CLUBCRED_DATA_DIR: live, CLUBCRED_DATABASE_URL: 'postgres://127.0.0.1:1/none', CLUBCRED_MASTER_KEY: randomKey() },
          'backup',
          '--out',
          join(dir(), 'x.db'),
        ),
      () => runCli(live, 'restore', '--from', out),
      () => runCli(dir(), 'restore', '--from', out),
      () => cliWithEnv({ CLUBCRED_DATA_DIR: dir(), CLUBCRED_MASTER_KEY: randomKey() }, 'restore', '--from', out),
      () => cliWithEnv({ CLUBCRED_DATA_DIR: dir(), CLUBCRED_MASTER_KEY: randomKey() }, 'restore', '--from', notSqlite),
      () => cliWithEnv({ CLUBCRED_DATA_DIR: dir(), CLUBCRED_MASTER_KEY: randomKey() }, 'verify-backup', otherSqlite, '--unsealed'),
      () => runCli(live, 'verify-backup', join(live, 'clubcred.db')),
      () => cliWithEnv({ CLUBCRED_DATA_DIR: live, CLUBCRED_MASTER_KEY: randomKey() }, 'verify-backup', out),
    ])
    assert.equal(again.code, 2)
    assert.match(again.json.error.message, /exists: backup never overwrites a file/)
    assert.equal(onPostgres.code, 2)
    assert.match(onPostgres.json.error.message, /use pg_dump/)
    assert.equal(into.code, 2)
    assert.match(into.json.error.message, /already holds a database/)
    assert.equal(noKey.code, 2)
    assert.match(noKey.json.error.message, /no master key/)
    assert.equal(wrongKey.code, 1)
    assert.equal(wrongKey.json.error.code, 'master-key-mismatch')
    assert.equal(fromText.code, 2)
    assert.match(fromText.json.error.message, /is not a clubcred database/)
    assert.equal(fromOther.code, 2)
    assert.match(fromOther.json.error.message, /is not a clubcred database/)
    assert.equal(ofLive.code, 2)
    assert.match(ofLive.json.error.message, /live database/)
    assert.equal(withWrongKey.code, 1)
    assert.equal(withWrongKey.json.error.code, 'master-key-mismatch')
    assert.match(withWrongKey.json.error.message, /was sealed with another master key/)
  })
})
