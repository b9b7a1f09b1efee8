/**
 * The admin CLI's `revoke` and `notify` (docs/decisions/0045-resend-and-bulk-revoke.md) on a real data dir:
 * revoking by a CSV of issuance ids, every issuance of a template only with --yes, and a resend.
 *
 * @see docs/decisions/0045-resend-and-bulk-revoke.md
 */
import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { cli, freshDataDir, openAdmin, removeDataDir, runCli } from '../support/server.ts'

describe('the admin CLI: revoke and notify', () => {
  let dataDir: string
  let byCsv: number[]
  let ofTemplate: number[]
  let otherTemplate: number
  before(async () => {
    dataDir = freshDataDir()
    const admin = openAdmin(dataDir)
    await admin.clubs.create({ domain: 'chess', name: 'Chess Club' })
    const issue = async (templateId: number, count: number, prefix: string) => {
      const recipients = Array.from({ length: count }, (_, i) => ({ name: `Member ${i}`, email: `${prefix}${i}@example.com` }))
      const { result } = await admin.issuances.issue('chess', { achievementFormId: templateId, recipients })
      return result.results.map((item) => (item as { resourceId: number }).resourceId)
    }
    const first = await admin.achievements.create('chess', { name: '체스 입문', description: 'Beginners' })
    const second = await admin.achievements.create('chess', { name: '엔드게임', description: 'Endgames' })
    otherTemplate = second.id
    byCsv = await issue(first.id, 3, 'csv')
    ofTemplate = await issue(second.id, 4, 'all')
    await admin.close()
  })
  after(() => removeDataDir(dataDir))

  it('revoke --csv revokes the ids of the issuanceId column with the reason, and reports each id', async () => {
    const file = join(dataDir, 'revoke.csv')
    writeFileSync(file, `name,issuanceId\r\nA,${byCsv[0]}\r\nB,${byCsv[1]}\r\nC,777\r\n`)
    const result = await cli(dataDir, 'revoke', '--club', 'chess', '--csv', file, '--reason', 'Wrong class')
    assert.deepStrictEqual(result.summary, { total: 3, ok: 2, skipped: 0, failed: 1 })
    assert.deepStrictEqual(
      result.results.map((item: { ref: string; status: string }) => [item.ref, item.status]),
      [
        [String(byCsv[0]), 'revoked'],
        [String(byCsv[1]), 'revoked'],
        ['777', 'failed'],
      ],
    )
    const again = await cli(dataDir, 'revoke', '--club', 'chess', '--csv', file)
    assert.deepStrictEqual(again.summary, { total: 3, ok: 0, skipped: 2, failed: 1 }, 'a rerun revokes nothing twice')
    const admin = openAdmin(dataDir)
    assert.equal((await admin.issuances.read('chess', byCsv[0]!)).revocationReason, 'Wrong class')
    assert.equal((await admin.issuances.read('chess', byCsv[2]!)).status, 'pending')
    await admin.close()
  })

  it('a CSV without the column, or with a value that is no id, is a usage error naming it, and revokes nothing', async () => {
    const file = join(dataDir, 'bad.csv')
    writeFileSync(file, `id\n${byCsv[2]}\n`)
    const missing = await runCli(dataDir, 'revoke', '--club', 'chess', '--csv', file)
    assert.equal(missing.code, 2)
    assert.match(missing.json.error.message, /issuanceId column/)
    writeFileSync(file, `issuanceId\n${byCsv[2]}\nseven\n`)
    const bad = await runCli(dataDir, 'revoke', '--club', 'chess', '--csv', file)
    assert.equal(bad.code, 2)
    assert.match(bad.json.error.message, /line 3/)
    const admin = openAdmin(dataDir)
    assert.equal((await admin.issuances.read('chess', byCsv[2]!)).status, 'pending')
    await admin.close()
  })

  it('revoke --achievement without --yes refuses and tells how many; with --yes revokes every issuance of the template', async () => {
    const refused = await runCli(dataDir, 'revoke', '--club', 'chess', '--achievement', String(otherTemplate))
    assert.equal(refused.code, 2)
    assert.match(refused.json.error.message, /^4 issuances of template \d+ would be revoked; run again with --yes/)
    const admin = openAdmin(dataDir)
    assert.equal((await admin.issuances.read('chess', ofTemplate[0]!)).status, 'pending', 'nothing revoked without --yes')
    await admin.close()
    const done = await cli(dataDir, 'revoke', '--club', 'chess', '--achievement', String(otherTemplate), '--yes')
    assert.deepStrictEqual(done.summary, { total: 4, ok: 4, skipped: 0, failed: 0 })
    assert.deepStrictEqual(done.results.map((item: { ref: string }) => Number(item.ref)).sort(), [...ofTemplate].sort())
    const unknown = await runCli(dataDir, 'revoke', '--club', 'chess', '--achievement', '999', '--yes')
    assert.equal(unknown.json.error.code, 'achievement-not-found')
    const both = await runCli(dataDir, 'revoke', '--club', 'chess')
    assert.equal(both.code, 2)
  })

  it('notify mails an issuance again: 3 times, then the error rate-limited; a revoked one is issuance-revoked', async () => {
    for (let i = 0; i < 3; i++) {
      const done = await cli(dataDir, 'notify', '--club', 'chess', '--issuance', String(byCsv[2]))
      assert.deepStrictEqual(done, { issuance: byCsv[2], status: 'pending', mail: 'once-signed' })
    }
    const limited = await runCli(dataDir, 'notify', '--club', 'chess', '--issuance', String(byCsv[2]))
    assert.notEqual(limited.code, 0)
    assert.equal(limited.json.error.code, 'rate-limited')
    const revoked = await runCli(dataDir, 'notify', '--club', 'chess', '--issuance', String(byCsv[0]))
    assert.equal(revoked.json.error.code, 'issuance-revoked')
  })
})
