/**
 * The admin CLI's design and bulk-issue commands (docs/decisions/0002-admin-cli.md) on a real data dir:
 * `design create` with an image file, and `issue --csv` in batches that a second run does not issue again.
 */
import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { cli, freshDataDir, openAdmin, removeDataDir, runCli } from '../support/server.ts'

describe('the admin CLI: designs and bulk issue', () => {
  let dataDir: string
  before(async () => {
    dataDir = freshDataDir()
    const admin = openAdmin(dataDir)
    await admin.clubs.create({ domain: 'chess', name: 'Chess Club' })
    await admin.achievements.create('chess', { name: '체스 입문', description: 'Beginners' })
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

  it('issue --csv without a name or email column is a usage error', async () => {
    const file = join(dataDir, 'bad.csv')
    writeFileSync(file, 'id,mail\n1,a@example.com\n')
    const result = await runCli(dataDir, 'issue', '--club', 'chess', '--achievement', '1', '--csv', file)
    assert.equal(result.code, 2)
    assert.equal(result.json.error.code, 'usage')
    assert.match(result.json.error.message, /name/)
  })
})
