/**
 * Before and at expiry (docs/decisions/0047-claims-and-expiry.md): a template's `expiryReminders` mail the recipient at `validUntil` minus
 * each duration, once, with the expiry date, the share link and the club's name, through a real SMTP
 * server on loopback; each is an `issuance.expiring` event, and the expiry itself `issuance.expired`,
 * once. An issuance made inside a window gets that reminder at once, none of the wider ones. On memory
 * and SQLite (PostgreSQL and several nodes: the two-nodes expiry suite).
 *
 * @see docs/decisions/0047-claims-and-expiry.md
 */
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { createSmtpNotifier } from '../../../adapters/smtp/index.ts'
import { createMemoryStorage } from '../../../adapters/memory/index.ts'
import { createCoreHarness, type CoreHarness } from '../../support/core-issuer.ts'
import { startSmtpSink, type SmtpSink } from '../../support/smtp-sink.ts'
import { openSqliteFile, tempDir } from '../../support/temp-sqlite.ts'
import type { StoragePort } from '../../../core/ports/storage.ts'

const DAY = 86_400_000

for (const [name, open] of [
  ['memory', () => ({ storage: createMemoryStorage(), remove: () => {} })],
  [
    'sqlite',
    () => {
      const dir = tempDir()
      return { storage: openSqliteFile(join(dir.path, 'clubcred.db')), remove: dir.remove }
    },
  ],
] as [string, () => { storage: StoragePort; remove(): void }][]) {
  describe(`expiry reminders and expired events › ${name}`, () => {
    let sink: SmtpSink
    let notifier: ReturnType<typeof createSmtpNotifier>
    let h: CoreHarness
    let remove: () => void
    let templateId: number

    beforeEach(async () => {
      sink = await startSmtpSink()
      notifier = createSmtpNotifier({ url: sink.url, from: 'Chess Club <badges@chess.example>' })
      const opened = open()
      remove = opened.remove
      h = createCoreHarness({ notifier, storage: opened.storage })
      await h.issuer.clubs.create({ domain: 'chess', name: '체스 클럽' })
      templateId = (await h.issuer.achievements.create('chess', { name: '연간 회원', description: '한 해 회원입니다.', expiryReminders: ['P7D', 'P30D'] })).id
    })
    afterEach(async () => {
      await h.close()
      notifier.close()
      await sink.close()
      remove()
    })

    async function issue(email: string, expiresAt: number, mode: 'email' | 'none' = 'email'): Promise<number> {
      const { result } = await h.issuer.issuances.issue('chess', {
        achievementFormId: templateId,
        mode,
        expiresAt: new Date(expiresAt).toISOString(),
        recipients: [{ name: '김민준', email }],
      })
      return (result.results[0] as { resourceId: number }).resourceId
    }
    /** The worker's rounds until nothing is left, then the mails and the feed's expiry events so far. */
    async function settle() {
      await h.issuer.worker.drain()
      const events = (await h.issuer.events.list('chess', { limit: '100' })).data.filter((event) => event.type.startsWith('issuance.expir'))
      return {
        mails: sink.messages.filter((message) => message.text.includes('만료됩니다')).map((message) => message.to[0]),
        events: events.map((event) => `${event.type} ${event.subject.id}`).sort(),
      }
    }

    it('mails each reminder at its time, once, and records issuance.expiring; then issuance.expired once', async () => {
      const start = h.clock.now()
      const expiresAt = start + 60 * DAY
      const mailed = await issue('minjun@chess.example', expiresAt)
      const silent = await issue('quiet@chess.example', expiresAt, 'none')
      assert.deepEqual(await settle(), { mails: [], events: [] })

      h.clock.set(expiresAt - 30 * DAY)
      const thirty = await settle()
      assert.deepEqual(thirty, { mails: ['minjun@chess.example'], events: [`issuance.expiring ${mailed}`, `issuance.expiring ${silent}`].sort() })
      const mail = [...sink.messages].reverse().find((message) => message.text.includes('만료됩니다'))!
      const { credential } = await h.issuer.issuances.read('chess', mailed)
      const date = new Date(Math.ceil(expiresAt / 1000) * 1000).toISOString().slice(0, 10)
      assert.ok(mail.text.includes(credential!.shareUrl), 'the share link')
      assert.ok(mail.text.includes(date) && mail.html.includes(`<time datetime="${date}">`), 'the expiry date')
      assert.ok(mail.text.includes('체스 클럽'), "the club's name")
      h.clock.advance(DAY)
      assert.deepEqual(await settle(), thirty, 'nothing twice')

      h.clock.set(expiresAt - 7 * DAY)
      assert.deepEqual((await settle()).mails, ['minjun@chess.example', 'minjun@chess.example'])
      h.clock.set(expiresAt + 1000)
      const expired = await settle()
      assert.deepEqual(
        expired.events.filter((event) => event.startsWith('issuance.expired')),
        [`issuance.expired ${mailed}`, `issuance.expired ${silent}`].sort(),
      )
      h.clock.advance(DAY)
      assert.deepEqual(await settle(), expired, 'expired once')
      assert.equal(expired.mails.length, 2, 'no reminder after the expiry')
    })

    it('an issuance made inside a window gets that reminder at once and none of the wider ones; a revoked one gets nothing', async () => {
      const start = h.clock.now()
      const tenDays = await issue('ten@chess.example', start + 10 * DAY)
      const threeDays = await issue('three@chess.example', start + 3 * DAY)
      const revoked = await issue('gone@chess.example', start + 3 * DAY)
      await h.issuer.issuances.revoke('chess', revoked)
      const atOnce = await settle()
      assert.deepEqual(atOnce.mails.sort(), ['ten@chess.example', 'three@chess.example'])
      assert.deepEqual(atOnce.events, [`issuance.expiring ${tenDays}`, `issuance.expiring ${threeDays}`].sort())

      h.clock.set(start + 3 * DAY + 1000)
      const later = await settle()
      assert.deepEqual(later.mails.sort(), ['ten@chess.example', 'ten@chess.example', 'three@chess.example'], 'ten days: its 7-day reminder came in time')
      assert.deepEqual(
        later.events.filter((event) => event.startsWith('issuance.expired')),
        [`issuance.expired ${threeDays}`],
        'the revoked one does not expire into the feed',
      )
    })
  })
}
