/**
 * The admin CLI's design and bulk-issue commands (docs/decisions/0002-admin-cli.md) on a real data dir:
 * `design create` with an image file, and `issue --csv` in batches that a second run does not issue again,
 * from a file in UTF-8 or EUC-KR, each row known by the line it starts on.
 */
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import Database from 'better-sqlite3'
import { cli, freshDataDir, openAdmin, removeDataDir, runCli } from '../support/server.ts'

describe('the admin CLI: designs and bulk issue', () => {
  let dataDir: string
  before(async () => {
    dataDir = freshDataDir()
    const admin = openAdmin(dataDir)
    await admin.clubs.create({ domain: 'chess', name: 'Chess Club' })
    await admin.achievements.create('chess', { name: '체스 입문', description: 'Beginners' })
    await admin.achievements.create('chess', { name: '바둑 입문', description: 'Beginners' })
    await admin.close()
  })
  after(() => removeDataDir(dataDir))

  it('design create stores a badge image from a file and a certificate design without one', async () => {
    const file = join(dataDir, 'badge.svg')
    writeFileSync(file, '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"><rect width="4" height="4"/></svg>')
    const badge = await cli(dataDir, 'design', 'create', '--club', 'chess', '--kind', 'badge', '--name', 'Knight', '--file', file)
    assert.equal(badge.kind, 'badge')
    assert.match(badge.imageUrl, /\/open-badges\/v3\/images\/[0-9a-f]{64}$/)
    const certificate = await cli(dataDir, 'design', 'create', '--club', 'chess', '--kind', 'certificate', '--name', 'Classic')
    assert.equal(certificate.kind, 'certificate')
    assert.equal(certificate.layout.orientation, 'landscape')
  })

  it('design create refuses an SVG with a script, printing the error code', async () => {
    const file = join(dataDir, 'evil.svg')
    writeFileSync(file, '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')
    const result = await runCli(dataDir, 'design', 'create', '--club', 'chess', '--kind', 'badge', '--name', 'Evil', '--file', file)
    assert.notEqual(result.code, 0)
    assert.equal(result.json.error.code, 'validation-failed')
  })

  it('issue --csv issues every valid row in batches of 1,000, reports the others by line, and a rerun issues nothing twice', async () => {
    const rows = Array.from({ length: 1203 }, (_, i) => `m-${i},"Kim, Minjun ${i}",m${i}@example.com`)
    rows.splice(10, 0, 'bad-1,No Mail,not-an-address')
    rows.splice(20, 0, 'm-0,Repeat,repeat@example.com')
    const file = join(dataDir, 'recipients.csv')
    writeFileSync(file, '\uFEFFexternalUserId,name,email\r\n' + rows.join('\r\n') + '\r\n')

    const first = await cli(dataDir, 'issue', '--club', 'chess', '--achievement', '1', '--csv', file)
    assert.deepEqual(first.summary, { total: 1205, ok: 1203, skipped: 1, failed: 1 })
    assert.deepEqual(
      first.notIssued.map((item: { line: number; status: string; error: { code: string } }) => [item.line, item.status, item.error.code]),
      [
        [12, 'failed', 'invalid-email'],
        [22, 'skipped', 'duplicate-in-request'],
      ],
    )

    // The keys an older version gave this file (SHA-256 of its UTF-8, the byte order mark included), so that
    // a file it issued replays after an upgrade.
    const fingerprint = createHash('sha256').update(readFileSync(file)).digest('hex').slice(0, 16)
    const db = new Database(join(dataDir, 'clubcred.db'), { readonly: true })
    const keys = db.prepare("SELECT key FROM idempotency_keys WHERE scope LIKE 'cli %' ORDER BY key").all() as { key: string }[]
    db.close()
    assert.deepEqual(
      keys.map(({ key }) => key),
      [`cli-csv-${fingerprint}-0`, `cli-csv-${fingerprint}-1000`],
    )

    const second = await cli(dataDir, 'issue', '--club', 'chess', '--achievement', '1', '--csv', file)
    assert.deepEqual(second.summary, first.summary, 'the same file replays its batches')
    const admin = openAdmin(dataDir)
    const page = await admin.issuances.list('chess', { limit: '100' })
    assert.equal(page.data[0]!.recipient.name, 'Kim, Minjun 1202', 'quoted commas stay in the name')
    let count = 0
    for (let cursor: string | null = null; ;) {
      const next = await admin.issuances.list('chess', { limit: '100', cursor })
      count += next.data.length
      cursor = next.meta.nextCursor
      if (!cursor) break
    }
    await admin.close()
    assert.equal(count, 1203)
  })

  it('issue --csv reads a file in EUC-KR and reports a row by the line it starts on, a quoted line break counted', async () => {
    // EUC-KR bytes, as `iconv -f UTF-8 -t EUC-KR` gives them (Korean spreadsheets save CSV so): no valid UTF-8.
    const [KIM, LEE, GRADE] = [
      [0xb1, 0xe8, 0xb9, 0xce, 0xc1, 0xd8], // 김민준
      [0xc0, 0xcc, 0xbc, 0xad, 0xbf, 0xac], // 이서연
      [0xc7, 0xd0, 0xb3, 0xe2], // 학년
    ]
    const ascii = (text: string) => [...new TextEncoder().encode(text)]
    const file = join(dataDir, 'euc-kr.csv')
    writeFileSync(
      file,
      Uint8Array.from([
        ...ascii('externalUserId,name,email,note\r\n'),
        // Lines 2 and 3: one record, its note quoted across a line break.
        ...[...ascii('k-1,'), ...KIM, ...ascii(',k1@example.com,"1'), ...GRADE, ...ascii('\r\n2'), ...GRADE, ...ascii('"\r\n')],
        ...[...ascii('k-2,'), ...LEE, ...ascii(',not-an-address,\r\n')], // line 4, the third line by position
        ...[...ascii('k-3,'), ...LEE, ...ascii(',k3@example.com,\r\n')],
      ]),
    )
    const result = await cli(dataDir, 'issue', '--club', 'chess', '--achievement', '2', '--csv', file)
    assert.deepEqual(result.summary, { total: 3, ok: 2, skipped: 0, failed: 1 })
    assert.deepEqual(
      result.notIssued.map((item: { line: number; status: string; error: { code: string } }) => [item.line, item.status, item.error.code]),
      [[4, 'failed', 'invalid-email']],
    )
    const admin = openAdmin(dataDir)
    const { data } = await admin.issuances.list('chess', { achievementId: '2', limit: '10' })
    await admin.close()
    assert.deepEqual(data.map((item) => item.recipient.name).sort(), ['김민준', '이서연'])

    writeFileSync(file, Uint8Array.from([...ascii('name,email\n'), 0xff, 0x80, ...ascii(',a@example.com\n')]))
    const neither = await runCli(dataDir, 'issue', '--club', 'chess', '--achievement', '2', '--csv', file)
    assert.equal(neither.code, 2)
    assert.deepEqual(neither.json.error, { code: 'usage', message: 'CSV: the file is neither UTF-8 nor EUC-KR' })
    const help = await runCli(dataDir, 'issue', '--help')
    assert.equal(help.code, 0)
    assert.match(help.stdout, /UTF-8 or EUC-KR\b.*the line of the file its row starts on/s)
  })

  it('issue --csv without a name or email column is a usage error', async () => {
    const file = join(dataDir, 'bad.csv')
    writeFileSync(file, 'id,mail\n1,a@example.com\n')
    const result = await runCli(dataDir, 'issue', '--club', 'chess', '--achievement', '1', '--csv', file)
    assert.equal(result.code, 2)
    assert.equal(result.json.error.code, 'usage')
    assert.match(result.json.error.message, /name/)
  })
})
