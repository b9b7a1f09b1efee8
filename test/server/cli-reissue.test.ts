/**
 * The admin CLI's `reissue` (docs/api.md §4.17, docs/decisions/0046-reissue.md) on a real data dir: one
 * issuance corrected, and a renewal from a CSV with a column `issuanceId` that a rerun does not repeat.
 */
import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { cli, freshDataDir, openAdmin, removeDataDir, runCli } from '../support/server.ts'

describe('the admin CLI: reissue', () => {
  let dataDir: string
  let ids: number[]
  before(async () => {
    dataDir = freshDataDir()
    const admin = openAdmin(dataDir)
    await admin.clubs.create({ domain: 'chess', name: 'Chess Club' })
    const template = await admin.achievements.create('chess', { name: '체스 입문', description: 'Beginners' })
    const { result } = await admin.issuances.issue('chess', {
      achievementFormId: template.id,
      recipients: [1, 2, 3].map((n) => ({ name: `Member ${n}`, email: `m${n}@example.com` })),
    })
    ids = result.results.map((item) => (item as { resourceId: number }).resourceId)
    await admin.issuances.revoke('chess', ids[2]!)
    await admin.close()
  })
  after(() => removeDataDir(dataDir))

  it('reissue --issuance corrects the name and expiry and prints the detail', async () => {
    const detail = await cli(
      dataDir,
      'reissue',
      '--club',
      'chess',
      '--issuance',
      String(ids[0]),
      '--name',
      '김민준',
      '--expires-at',
      '2099-01-01T00:00:00Z',
      '--reason',
      'typo',
    )
    assert.equal(detail.id, ids[0])
    assert.equal(detail.recipient.name, '김민준')
    assert.equal(detail.expiresAt, '2099-01-01T00:00:00.000Z')
    const none = await cli(dataDir, 'reissue', '--club', 'chess', '--issuance', String(ids[0]), '--expires-at', 'none')
    assert.equal(none.expiresAt, null)
  })

  it('reissue --csv renews every listed issuance, reports the others by line, and a rerun reissues nothing twice', async () => {
    const file = join(dataDir, 'renew.csv')
    writeFileSync(file, `name,issuanceId\r\nA,${ids[0]}\r\nB,"${ids[1]}"\r\nC,${ids[2]}\r\nD,424242\r\n`)
    const args = ['reissue', '--club', 'chess', '--csv', file, '--expires-at', '2099-06-01T00:00:00Z']
    const first = await cli(dataDir, ...args)
    assert.deepEqual(first.summary, { total: 4, ok: 2, skipped: 1, failed: 1 })
    assert.deepEqual(
      first.notReissued.map((item: { line: number; status: string; error: { code: string } }) => [item.line, item.status, item.error.code]),
      [
        [4, 'skipped', 'issuance-revoked'],
        [5, 'failed', 'issuance-not-found'],
      ],
    )
    assert.deepEqual((await cli(dataDir, ...args)).summary, first.summary, 'the same file replays its answers')
    const admin = openAdmin(dataDir)
    try {
      const events = await admin.events.list('chess', { limit: '100' })
      // Two from the first test (ids[0] twice), two from this file, none from the rerun.
      assert.equal(events.data.filter((event) => event.type === 'issuance.reissued').length, 4)
      assert.equal((await admin.issuances.read('chess', ids[1]!)).expiresAt, '2099-06-01T00:00:00.000Z')
    } finally {
      await admin.close()
    }
  })

  it('reissue refuses --csv without --expires-at, and a CSV without the column, as usage errors', async () => {
    const file = join(dataDir, 'no-column.csv')
    writeFileSync(file, 'id\r\n1\r\n')
    assert.equal((await runCli(dataDir, 'reissue', '--club', 'chess', '--csv', file, '--expires-at', 'none')).json.error.code, 'usage')
    assert.equal((await runCli(dataDir, 'reissue', '--club', 'chess', '--csv', file)).json.error.code, 'usage')
    assert.equal((await runCli(dataDir, 'reissue', '--club', 'chess', '--issuance', String(ids[2]))).json.error.code, 'issuance-revoked')
  })
})
