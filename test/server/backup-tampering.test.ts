/**
 * A backup changed by anyone without the master key does not restore (docs/backup.md § The seal; docs/backup.md § The schema).
 * The changes an outside review made to a copy with an ordinary SQLite tool (here better-sqlite3
 * on the file itself): an API client added, a revocation cleared, triggers that copy every new recipient
 * into a table of their own. Each is refused by `restore --from` and `verify-backup`, the real CLI as a
 * child process, with its reason, and the data dir stays empty. Each defence is also tested on its own:
 * the seal against a file sealed again with another master key, the schema check against a file sealed
 * with the right one that holds a trigger.
 */
import assert from 'node:assert/strict'
import { appendFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import Database from 'better-sqlite3'
import { FIRST_SEALED_ONLY_SCHEMA, sealFile } from '../../server/backup-seal.ts'
import { chessDatabaseAtVersion } from '../support/sqlite-at-version.ts'
import { readMasterKey } from '../../server/master-key.ts'
import { cliWithEnv } from '../support/process-env.ts'
import { randomKey } from '../support/club-session.ts'
import { cli, freshDataDir, openAdmin, removeDataDir } from '../support/server.ts'

/** The seal line backup appends (server/backup-seal.ts). */
const SEAL_LINE = /\nclubcred backup seal [^\n]*\n$/

describe('a tampered backup does not restore', { timeout: 180_000 }, () => {
  const dirs: string[] = []
  const dir = () => {
    const path = freshDataDir()
    dirs.push(path)
    return path
  }
  let live: string
  let backup: string
  let masterKey: Uint8Array
  /** The master key as the environment gives it: the data dirs restored into hold no file at all. */
  let keyText: string
  let revoked: number

  before(async () => {
    live = dir()
    const admin = openAdmin(live)
    await admin.clubs.create({ domain: 'rowing', name: 'Rowing' })
    await admin.clients.create({ club: 'rowing' })
    const template = await admin.achievements.create('rowing', { name: 'Sculls', description: 'Rowed a single scull.', tag: ['rowing'] })
    const issued = await admin.issuances.issue('rowing', {
      achievementFormId: template.id,
      mode: 'none',
      recipients: [
        { externalUserId: 'a', name: 'Ann Oar', email: 'ann@rowing.example' },
        { externalUserId: 'b', name: 'Bob Cox', email: 'bob@rowing.example' },
      ],
    })
    const first = issued.result.results[0]!
    assert.equal(first.status, 'issued')
    revoked = first.resourceId
    await admin.issuances.revoke('rowing', revoked, { reason: 'left the club' })
    await admin.keys.rotate('rowing')
    await admin.close()
    backup = join(dir(), 'rowing.backup.db')
    await cli(live, 'backup', '--out', backup)
    masterKey = readMasterKey(live, undefined)!
    keyText = readFileSync(join(live, 'master.key'), 'utf8').trim()
  })
  after(() => {
    for (const path of dirs) removeDataDir(path)
  })

  /**
   * A copy of the backup changed with SQLite. `seal`: 'kept' edits the sealed file as it is (what any
   * SQLite tool does: the seal line stays where the database does not grow over it); a master key
   * seals the changed database again with it; 'none' leaves the seal off.
   */
  function changed(name: string, edit: (db: Database.Database) => void, seal: 'kept' | 'none' | Uint8Array = 'kept'): string {
    const file = join(dir(), name)
    const original = readFileSync(backup)
    // The edit is made on the database alone and the seal line put back after it, as someone who edits
    // the file and keeps its seal would: SQLite may grow the file over the line's bytes otherwise.
    writeFileSync(file, withoutSeal(original))
    const db = new Database(file)
    edit(db)
    db.close()
    if (seal === 'kept') appendFileSync(file, original.subarray(withoutSeal(original).length))
    if (seal instanceof Uint8Array) sealFile(file, seal)
    return file
  }

  /**
   * A backup as the clubcred before sealing wrote it: schema 12 (the last without a seal), no seal line,
   * holding the club's keys from the backup (sealed by the same master key), then `edit`.
   */
  function olderBackup(name: string, edit: (db: Database.Database) => void): string {
    const file = join(dir(), name)
    const db = chessDatabaseAtVersion(file, FIRST_SEALED_ONLY_SCHEMA - 1)
    db.exec(`ATTACH DATABASE '${withoutSealCopy()}' AS sealed; INSERT INTO keys SELECT * FROM sealed.keys; DETACH DATABASE sealed;`)
    edit(db)
    db.close()
    return file
  }
  /** The backup's database alone, once, for olderBackup to copy its keys from. */
  let plainCopy: string | undefined
  function withoutSealCopy(): string {
    if (plainCopy) return plainCopy
    plainCopy = join(dir(), 'plain.db')
    writeFileSync(plainCopy, withoutSeal(readFileSync(backup)))
    return plainCopy
  }

  const restore = async (file: string, ...flags: string[]) => {
    const into = dir()
    const result = await cliWithEnv({ CLUBCRED_DATA_DIR: into, CLUBCRED_MASTER_KEY: keyText }, 'restore', '--from', file, ...flags)
    return { ...result, left: readdirSync(into) }
  }
  const verify = (file: string, ...flags: string[]) => cliWithEnv({ CLUBCRED_DATA_DIR: dir(), CLUBCRED_MASTER_KEY: keyText }, 'verify-backup', file, ...flags)

  /** Refused by both commands with `code` and a message matching `message`; the data dir stays empty. */
  async function refused(file: string, code: string, message: RegExp, flags: string[] = []) {
    const [restored, verified] = await Promise.all([restore(file, ...flags), verify(file, ...flags)])
    for (const [command, result] of [
      ['restore', restored],
      ['verify-backup', verified],
    ] as const) {
      assert.equal(result.code, 1, `${command}: ${result.stdout}${result.stderr}`)
      assert.equal(result.json.error.code, code, `${command}: ${result.stdout}`)
      assert.match(result.json.error.message, message, command)
    }
    assert.deepEqual(restored.left, [], 'nothing was written into the data dir')
    return { restored, verified }
  }

  it('an added API client is refused: the file was changed after backup sealed it', async () => {
    const file = changed('client.db', (db) =>
      db.exec(
        "INSERT INTO clients (id, club, secret_hash, scopes, secret_set_at, created_at) SELECT 'cc_review', club, secret_hash, scopes, secret_set_at, created_at FROM clients LIMIT 1",
      ),
    )
    await refused(file, 'backup-tampered', /was changed after backup sealed it: its seal does not match its bytes/)
  })

  it('a cleared revocation is refused', async () => {
    const file = changed('revocation.db', (db) => {
      assert.equal(db.prepare('UPDATE issuances SET revoked_at = NULL, revocation_reason = NULL WHERE id = ?').run(revoked).changes, 1)
    })
    await refused(file, 'backup-tampered', /was changed after backup sealed it/)
  })

  it('a cut seal with an added client and a cleared revocation is refused under --unsealed too, naming the risk', async () => {
    // The review's copy (docs/decisions/0042-outside-review-smaller-findings.md): data-only changes, then the seal line cut off.
    const file = changed(
      'cut.db',
      (db) => {
        db.exec(
          "INSERT INTO clients (id, club, secret_hash, scopes, secret_set_at, created_at) SELECT 'cc_review', club, secret_hash, scopes, secret_set_at, created_at FROM clients LIMIT 1",
        )
        db.prepare('UPDATE issuances SET revoked_at = NULL, revocation_reason = NULL WHERE id = ?').run(revoked)
      },
      'none',
    )
    const { restored } = await refused(file, 'backup-unsealed', /its seal was cut off, and its data may have been changed/, ['--unsealed'])
    assert.ok(restored.json.error.schemaVersion >= FIRST_SEALED_ONLY_SCHEMA, `schema ${restored.json.error.schemaVersion}`)
    assert.doesNotMatch(restored.json.error.message, /--unsealed/)
  })

  it('added triggers and their table are refused, and with the seal line cut off and --unsealed the schema check names each', async () => {
    const file = changed('triggers.db', (db) =>
      db.exec(`
        CREATE TABLE harvest (name TEXT, email TEXT);
        CREATE TRIGGER copy_recipients AFTER INSERT ON issuances BEGIN INSERT INTO harvest VALUES (new.recipient_name, new.recipient_email); END;
        CREATE TRIGGER copy_on_restore AFTER UPDATE ON status_lists BEGIN INSERT INTO harvest SELECT recipient_name, recipient_email FROM issuances; END;
      `),
    )
    await refused(file, 'backup-tampered', /was changed after backup sealed it/)
    // Without its seal line, at a schema made after sealing came in: no backup clubcred wrote looks like
    // that, so it is refused with --unsealed too, naming the risk and suggesting no flag.
    const stripped = join(dir(), 'stripped.db')
    writeFileSync(stripped, withoutSeal(readFileSync(file)))
    for (const flags of [[], ['--unsealed']]) {
      const { restored, verified } = await refused(stripped, 'backup-unsealed', /has no seal, yet its schema \(version \d+\) .*its seal was cut off/, flags)
      for (const result of [restored, verified]) assert.doesNotMatch(result.json.error.message, /--unsealed/, 'no flag is suggested')
    }
    // A backup as old as sealing (schema 12) with the same objects added: --unsealed lets it through the
    // seal, and then the schema check names each object.
    const old = olderBackup('old-triggers.db', (db) =>
      db.exec(`
        CREATE TABLE harvest (name TEXT, email TEXT);
        CREATE TRIGGER copy_recipients AFTER INSERT ON issuances BEGIN INSERT INTO harvest VALUES (new.recipient_name, new.recipient_email); END;
        CREATE TRIGGER copy_on_restore AFTER UPDATE ON status_lists BEGIN INSERT INTO harvest SELECT recipient_name, recipient_email FROM issuances; END;
      `),
    )
    const { restored, verified } = await refused(old, 'backup-foreign-schema', /the backup has a trigger the migrations do not make: copy_recipients/, [
      '--unsealed',
    ])
    for (const result of [restored, verified]) {
      assert.match(result.json.error.message, /the backup has a trigger the migrations do not make: copy_on_restore/)
      assert.match(result.json.error.message, /the backup has a table the migrations do not make: harvest/)
      assert.deepEqual(
        result.json.error.objects.map((object: { name: string }) => object.name),
        ['harvest', 'copy_recipients', 'copy_on_restore'],
      )
    }
  })

  it('a file sealed again with another master key is refused: the seal cannot be made without the right one', async () => {
    const otherKey = Uint8Array.from(Buffer.from(randomKey(), 'hex'))
    const resealed = changed('resealed.db', (db) => db.exec("UPDATE clients SET id = 'cc_review'"), otherKey)
    await refused(resealed, 'master-key-mismatch', /was sealed with another master key/)
    // The seal line names its key; one naming the right key over a MAC made with another is a change.
    const disguised = join(dir(), 'disguised.db')
    const genuineLine = SEAL_LINE.exec(readFileSync(backup, 'latin1'))![0]
    const forgedLine = SEAL_LINE.exec(readFileSync(resealed, 'latin1'))![0]
    const keyId = (line: string) => line.split(' ')[4]
    writeFileSync(
      disguised,
      Buffer.concat([withoutSeal(readFileSync(resealed)), Buffer.from(forgedLine.replace(keyId(forgedLine)!, keyId(genuineLine)!), 'latin1')]),
    )
    await refused(disguised, 'backup-tampered', /was changed after backup sealed it/)
  })

  it('a file sealed with the right master key is still refused for a trigger the migrations do not make', async () => {
    const file = changed(
      'sealed-trigger.db',
      (db) =>
        db.exec("CREATE TRIGGER copy_recipients AFTER INSERT ON issuances BEGIN UPDATE clubs SET name = new.recipient_email WHERE domain = 'rowing'; END"),
      masterKey,
    )
    const { restored } = await refused(file, 'backup-foreign-schema', /^the backup has a trigger the migrations do not make: copy_recipients$/)
    assert.deepEqual(restored.json.error.objects, [{ type: 'trigger', name: 'copy_recipients', difference: 'not made by the migrations' }])
    // A table of the migrations changed, and an index of theirs dropped, are named as well.
    const altered = changed('altered.db', (db) => db.exec('DROP INDEX keys_by_owner; ALTER TABLE clients ADD COLUMN note TEXT'), masterKey)
    await refused(
      altered,
      'backup-foreign-schema',
      /the backup's table clients is not the one the migrations make; the backup lacks the index keys_by_owner that the migrations make/,
    )
  })

  it('a backup without keys is not verified, and one without a seal restores only with --unsealed', async () => {
    const keyless = changed('keyless.db', (db) => db.exec('DELETE FROM keys'), masterKey)
    const noKeys = await verify(keyless)
    assert.equal(noKeys.code, 1, noKeys.stdout)
    assert.equal(noKeys.json.error.code, 'backup-unverified')
    assert.match(noKeys.json.error.message, /^the backup holds no keys/)
    assert.equal(noKeys.json.error.keys.total, 0)

    // As backup wrote it before backups were sealed: schema 12 at most.
    const unsealed = olderBackup('unsealed.db', () => undefined)
    const [refusedPlain, accepted, verifiedPlain] = await Promise.all([restore(unsealed), restore(unsealed, '--unsealed'), verify(unsealed, '--unsealed')])
    assert.equal(refusedPlain.code, 1)
    assert.equal(refusedPlain.json.error.code, 'backup-unsealed')
    assert.deepEqual(refusedPlain.left, [])
    assert.equal(accepted.code, 0, accepted.stdout)
    assert.equal(accepted.json.sealed, false)
    assert.deepEqual(accepted.left, ['clubcred.db'])
    assert.equal(verifiedPlain.code, 0, verifiedPlain.stdout)
    assert.equal(verifiedPlain.json.sealed, false)
  })

  it('the backup as written verifies and restores, sealed', async () => {
    const [restored, verified] = await Promise.all([restore(backup), verify(backup)])
    assert.equal(verified.code, 0, verified.stdout)
    assert.equal(verified.json.sealed, true)
    // The club's keys, made by its rotation: an ES256 key and an Ed25519 key, both opened by the master key.
    assert.deepEqual(verified.json.keys, { total: 2, opened: 2, failed: [] })
    assert.equal(restored.code, 0, restored.stdout)
    assert.equal(restored.json.sealed, true)
    assert.deepEqual(restored.left, ['clubcred.db'])
    // The restored database is the bytes the seal covers, revocation included.
    const db = new Database(restored.json.restored)
    assert.notEqual((db.prepare('SELECT revoked_at FROM issuances WHERE id = ?').get(revoked) as { revoked_at: number | null }).revoked_at, null)

    // A trigger in a live database: backup makes no copy that restore would refuse.
    db.exec('CREATE TRIGGER copy_recipients AFTER INSERT ON issuances BEGIN SELECT 1; END')
    db.close()
    const again = await cliWithEnv(
      { CLUBCRED_DATA_DIR: dirname(restored.json.restored), CLUBCRED_MASTER_KEY: keyText },
      'backup',
      '--out',
      join(dir(), 'again.db'),
    )
    assert.equal(again.code, 1, again.stdout)
    assert.equal(again.json.error.code, 'backup-foreign-schema')
    assert.match(again.json.error.message, /^the backup has a trigger the migrations do not make: copy_recipients$/)
  })
})

/** The database bytes of a sealed file (all of it when it has no seal). */
function withoutSeal(bytes: Buffer): Buffer {
  const line = SEAL_LINE.exec(bytes.subarray(-128).toString('latin1'))
  return line ? bytes.subarray(0, bytes.length - line[0].length) : bytes
}
