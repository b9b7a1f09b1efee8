/**
 * Recipient mail (`mode`, docs/decisions/0013-issuing.md): with `mode: "email"` the recipient gets the share
 * link and the wallet link once the credential exists, through SMTP when CLUBCRED_SMTP_URL is
 * set; `mode: "none"` sends nothing; a refused delivery is retried from the outbox after a back-off.
 */
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, afterEach, before, beforeEach, describe, it } from 'node:test'
import Database from 'better-sqlite3'
import { createSmtpNotifier } from '../../adapters/smtp/index.ts'
import { OUTBOX_MAX_ATTEMPTS } from '../../core/notifications/dispatch.ts'
import { createCoreHarness, type CoreHarness } from '../support/core-issuer.ts'
import { sqliteOutboxOf } from '../support/outbox-rows.ts'
import { startSmtpSink, type SmtpSink, type SunkMessage } from '../support/smtp-sink.ts'
import { openSqliteFile, tempDir } from '../support/temp-sqlite.ts'
import { accessToken } from '../support/tokens.ts'
import { clubAndClient, freshDataDir, removeDataDir, startServer, type ServerProcess } from '../support/server.ts'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('mail through the real server with CLUBCRED_SMTP_URL', () => {
  let sink: SmtpSink
  let server: ServerProcess
  let dataDir: string
  let headers: Record<string, string>
  let templateId: number

  before(async () => {
    sink = await startSmtpSink()
    dataDir = freshDataDir()
    const client = await clubAndClient(dataDir, 'chess')
    server = await startServer({ dataDir, env: { CLUBCRED_SMTP_URL: sink.url } })
    headers = { authorization: `Bearer ${await accessToken(server, client)}`, 'content-type': 'application/json' }
    const created = await server.http('/v2/clubs/chess/achievements', {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'Spring tournament', nameEn: 'Spring tournament', description: '봄 대회에 참가했습니다.' }),
    })
    assert.equal(created.status, 201, created.text)
    templateId = created.json.data.id
  })
  after(async () => {
    await server?.stop()
    await sink?.close()
    if (dataDir) removeDataDir(dataDir)
  })

  async function post(mode: string, recipients: { name: string; email: string }[]): Promise<number[]> {
    const response = await server.http('/v2/clubs/chess/issuances', {
      method: 'POST',
      headers,
      body: JSON.stringify({ achievementFormId: templateId, mode, recipients }),
    })
    assert.equal(response.status, 200, response.text)
    assert.equal(response.json.summary.ok, recipients.length)
    return response.json.results.map((item: { resourceId: number }) => item.resourceId)
  }

  /** The credential pointer of an issuance, once the server's worker has signed it. */
  async function pointerOf(id: number): Promise<{ id: string; shareUrl: string }> {
    const end = Date.now() + 15_000
    for (;;) {
      const detail = await server.http(`/v2/clubs/chess/issuances/${id}`, { headers })
      assert.equal(detail.status, 200, detail.text)
      if (detail.json.data.credential) return detail.json.data.credential
      if (Date.now() > end) assert.fail(`issuance ${id} has no credential after 15 s`)
      await sleep(50)
    }
  }

  it('mode "email" mails each recipient the share link and the wallet link; mode "none" mails nobody', async () => {
    const silent = { name: 'Quiet Member', email: 'quiet@chess.example' }
    const mailed = [
      { name: 'Kim Minsu', email: 'minsu@chess.example' },
      { name: 'Lee Jiwoo', email: 'Jiwoo.Lee@chess.example' },
    ]
    const [silentId] = await post('none', [silent])
    const mailedIds = await post('email', mailed)

    const messages = await sink.waitFor(2)
    for (const [i, recipient] of mailed.entries()) {
      const pointer = await pointerOf(mailedIds[i]!)
      assert.equal(pointer.shareUrl, `http://chess.localhost:${new URL(server.url).port}/credentials/${pointer.id}`)
      const message = messages.find((candidate: SunkMessage) => candidate.to.includes(recipient.email))
      assert.ok(message, `a message to ${recipient.email}; got ${messages.map((m) => m.to.join(',')).join(' ')}`)
      assert.deepStrictEqual(message.to, [recipient.email], 'one recipient per message')
      assert.ok(message.headers.to?.includes(recipient.email), `To: ${message.headers.to}`)
      assert.ok(message.text.includes(pointer.shareUrl), `the text has the share link:\n${message.text}`)
      assert.ok(message.text.includes(recipient.name), 'the text greets the recipient')
      assert.ok(message.html.includes(`href="${pointer.shareUrl}"`), 'the html links the share page')
      // The wallet link (OID4VCI credential offer by reference; each use mints a fresh code).
      const offerUri = `http://localhost:${new URL(server.url).port}/open-badges/v3/issuers/chess/credential-offers/${pointer.id}`
      const walletLink = `openid-credential-offer://?credential_offer_uri=${encodeURIComponent(offerUri)}`
      assert.ok(message.text.includes(walletLink), `the text has the wallet link:\n${message.text}`)
      assert.ok(message.html.includes(`href="${walletLink}"`), 'the html links the wallet offer')
      const offer = await server.http(new URL(offerUri).pathname)
      assert.equal(offer.status, 200, offer.text)
      assert.equal(offer.json.credential_configuration_ids[0], 'OpenBadgeCredential_jwt_vc_json', 'the link resolves to an offer')
      assert.ok(message.text.includes('Spring tournament'))
    }

    // mode "none": its credential exists, and a few worker rounds later still no mail for it.
    await pointerOf(silentId!)
    await sleep(1500)
    assert.equal(sink.messages.length, 2, 'nothing else was mailed')
    assert.ok(sink.messages.every((message) => !message.to.includes(silent.email)))

    const db = new Database(join(dataDir, 'clubcred.db'), { readonly: true })
    try {
      const outbox = db.prepare('SELECT issuance_id, recipient, sent_at FROM outbox').all() as {
        issuance_id: number
        recipient: string
        sent_at: number | null
      }[]
      // Issuance ids are random: compare as sets of (issuance, recipient) pairs, in id order on both sides.
      const byIssuance = (a: [number, string], b: [number, string]) => a[0] - b[0]
      assert.deepStrictEqual(
        outbox.map((row): [number, string] => [row.issuance_id, row.recipient]).sort(byIssuance),
        mailedIds.map((id, i): [number, string] => [id!, mailed[i]!.email]).sort(byIssuance),
      )
      assert.ok(
        outbox.every((row) => row.sent_at !== null),
        'marked sent',
      )
    } finally {
      db.close()
    }
  })
})

describe('outbox retry with the SMTP notifier (in-process)', () => {
  let sink: SmtpSink
  let notifier: ReturnType<typeof createSmtpNotifier>
  let h: CoreHarness
  let dir: ReturnType<typeof tempDir>
  let file: string
  let templateId: number

  beforeEach(async () => {
    sink = await startSmtpSink()
    notifier = createSmtpNotifier({ url: sink.url, from: 'Chess Club <badges@chess.example>' })
    // On a SQLite file, so that the outbox rows can be read as an operator reads them.
    dir = tempDir()
    file = join(dir.path, 'clubcred.db')
    h = createCoreHarness({ notifier, worker: { onError: () => {} }, storage: openSqliteFile(file) })
    await h.issuer.clubs.create({ domain: 'chess', name: 'Chess Club' })
    templateId = (await h.issuer.achievements.create('chess', { name: 'Opening theory', description: 'Studied the main openings.' })).id
  })
  afterEach(async () => {
    await h.close()
    notifier.close()
    await sink.close()
    dir.remove()
  })

  async function issueByMail(email: string): Promise<number> {
    const { result } = await h.issuer.issuances.issue('chess', { achievementFormId: templateId, mode: 'email', recipients: [{ name: 'Kim Minsu', email }] })
    assert.equal(result.summary.ok, 1)
    return (result.results[0] as { resourceId: number }).resourceId
  }

  const outboxOf = (issuanceId: number) => sqliteOutboxOf(file, issuanceId)

  it('a refused message is sent again after the back-off, once', async () => {
    sink.rejectNext(1)
    const id = await issueByMail('minsu@chess.example')
    await h.issuer.worker.drain()
    assert.equal(sink.rejected, 1, 'the first delivery was refused')
    assert.equal(sink.messages.length, 0)
    const [failed] = outboxOf(id)
    assert.equal(failed!.sentAt, null)
    assert.equal(failed!.attempts, 1)
    assert.match(failed!.lastError ?? '', /451|Try again later/)

    h.clock.advance(29_999)
    assert.equal(await h.issuer.worker.runOnce(), 0, 'not before the back-off')
    assert.equal(sink.messages.length, 0)

    h.clock.advance(1)
    assert.equal(await h.issuer.worker.runOnce(), 1)
    assert.equal(sink.messages.length, 1)
    const credential = await h.issuer.issuances.read('chess', id)
    assert.ok(sink.messages[0]!.text.includes(credential.credential!.shareUrl))
    assert.deepStrictEqual(sink.messages[0]!.to, ['minsu@chess.example'])
    const [sent] = outboxOf(id)
    assert.equal(sent!.sentAt, h.clock.now())
    assert.equal(sent!.lastError, null)

    h.clock.advance(3_600_000)
    await h.issuer.worker.runOnce()
    assert.equal(sink.messages.length, 1, 'a sent message is not sent again')
  })

  it(`gives up after ${OUTBOX_MAX_ATTEMPTS} refused attempts, with doubling waits`, async () => {
    sink.rejectNext(1000)
    const id = await issueByMail('minsu@chess.example')
    await h.issuer.worker.drain()
    for (let attempt = 1; attempt < OUTBOX_MAX_ATTEMPTS; attempt++) {
      const wait = 30_000 * 2 ** (attempt - 1)
      h.clock.advance(wait - 1)
      await h.issuer.worker.runOnce()
      assert.equal(sink.rejected, attempt, `attempt ${attempt + 1} waits ${wait} ms`)
      h.clock.advance(1)
      await h.issuer.worker.runOnce()
      assert.equal(sink.rejected, attempt + 1)
    }
    h.clock.advance(24 * 3_600_000)
    await h.issuer.worker.runOnce()
    assert.equal(sink.rejected, OUTBOX_MAX_ATTEMPTS, 'no attempt after the last')
    const [message] = outboxOf(id)
    assert.equal(message!.attempts, OUTBOX_MAX_ATTEMPTS)
    assert.equal(message!.sentAt, null)
    // Only the attempt given up is told, once.
    const failed = (await h.issuer.events.list('chess', { limit: '100' })).data.filter((event) => event.type === 'issuance.notification_failed')
    assert.deepStrictEqual(
      failed.map((event) => event.subject.id),
      [String(id)],
    )
  })
})
