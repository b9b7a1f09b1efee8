import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { createSmtpNotifier } from '../../../adapters/smtp/index.ts'
import { assertProblem } from '../../support/achievement-api.ts'
import { openVerificationApi, type RawResponse, type VerificationApi } from '../../support/api-harness.ts'
import { createTestClock, type TestClock } from '../../support/clock.ts'
import { createCoreHarness } from '../../support/core-issuer.ts'
import { startSmtpSink, type SmtpSink } from '../../support/smtp-sink.ts'
import { clubPaths, createTemplate, detailOf, eventsOf, expectStatus, issueTo, members } from '../../support/verification-steps.ts'

/**
 * Resend (docs/api.md §4.7a, docs/decisions/0045-resend-and-bulk-revoke.md): `POST …/issuances/{id}/notify`
 * mails the recipient again through a real SMTP server on loopback, at most 3 times in 24 hours, and
 * every mail the server accepted or refused for good is an event of the feed.
 *
 * @see docs/decisions/0045-resend-and-bulk-revoke.md
 */

const paths = clubPaths()
const HOUR = 3_600_000

let api: VerificationApi
let clock: TestClock
let sink: SmtpSink
let notifier: ReturnType<typeof createSmtpNotifier>
let templateId: number
beforeEach(async () => {
  clock = createTestClock()
  sink = await startSmtpSink()
  notifier = createSmtpNotifier({ url: sink.url, from: 'Chess Club <badges@chess.example>' })
  api = await openVerificationApi({ clock, notifier })
  templateId = await createTemplate(api)
})
afterEach(async () => {
  await api.close()
  notifier.close()
  await sink.close()
})

const notify = (id: number | string, token?: string): Promise<RawResponse> =>
  api.call('POST', `${paths.issuance(id)}/notify`, undefined, {}, token === undefined ? {} : { token })
const eventIds = async (type: string) => (await eventsOf(api, type)).map((event) => Number(event.subject.id))

describe('notify mails the recipient again', () => {
  it('a signed issuance of mode "none": 202 with the detail, one mail with the share link to the address on the issuance, and issuance.notified', async () => {
    const [id] = await issueTo(api, templateId, members(1))
    await api.issuer.worker.drain()
    assert.equal(sink.messages.length, 0, 'mode "none" mailed nothing at issue')
    const response = await notify(id!)
    const detail = expectStatus(response, 202, 'notify').data
    assert.deepStrictEqual(detail, await detailOf(api, id!), 'the detail the read answers')
    await api.issuer.worker.drain()
    assert.equal(sink.messages.length, 1)
    const [message] = sink.messages
    assert.deepStrictEqual(message!.to, ['member.0@members.chess.example'])
    assert.ok(message!.text.includes(detail.credential.shareUrl), message!.text)
    assert.match(message!.text, /openid-credential-offer:\/\//, 'the wallet link')
    assert.deepStrictEqual(await eventIds('issuance.notified'), [id])
  })

  it('the first mail of mode "email" is an issuance.notified event too', async () => {
    const [id] = await issueTo(api, templateId, members(1), { mode: 'email' })
    await api.issuer.worker.drain()
    assert.equal(sink.messages.length, 1)
    assert.deepStrictEqual(await eventIds('issuance.notified'), [id])
  })

  it('a pending issuance is mailed once its credential exists; of mode "email", its first mail answers the request', async () => {
    const [quiet] = await issueTo(api, templateId, members(1, 'quiet'))
    const [mailed] = await issueTo(api, templateId, members(1, 'mailed'), { mode: 'email' })
    expectStatus(await notify(quiet!), 202)
    expectStatus(await notify(mailed!), 202)
    assert.equal((await detailOf(api, quiet!)).status, 'pending')
    await api.issuer.worker.drain()
    await api.issuer.worker.drain()
    assert.deepStrictEqual(sink.messages.map((message) => message.to[0]).sort(), ['mailed.0@members.chess.example', 'quiet.0@members.chess.example'])
    const credential = (await detailOf(api, quiet!)).credential
    assert.ok(sink.messages.find((message) => message.to[0] === 'quiet.0@members.chess.example')!.text.includes(credential.shareUrl))
  })

  it("a revoked issuance: 409 issuance-revoked, nothing mailed; an unknown id or another club's: 404", async () => {
    const [id] = await issueTo(api, templateId, members(1))
    await api.issuer.worker.drain()
    expectStatus(await api.call('POST', paths.revoke(id!), {}), 200)
    assertProblem(await notify(id!), 409, 'issuance-revoked')
    assertProblem(await notify(4_242_424_242), 404, 'issuance-not-found')
    await api.issuer.clubs.create({ domain: 'go', name: 'Go Club' })
    const goTemplate = await api.issuer.achievements.create('go', { name: 'Go basics', description: 'Played a first game.' })
    const { result } = await api.issuer.issuances.issue('go', { achievementFormId: goTemplate.id, recipients: [{ name: 'Park', email: 'park@go.example' }] })
    assertProblem(await notify((result.results[0] as { resourceId: number }).resourceId), 404, 'issuance-not-found')
    await api.issuer.worker.drain()
    assert.equal(sink.messages.length, 0)
  })

  it('needs the scope issuance:write', async () => {
    const [id] = await issueTo(api, templateId, members(1))
    assertProblem(await notify(id!, await api.tokenWith(['issuance:read'])), 403, 'insufficient-scope')
  })
})

describe('at most 3 resends of an issuance in 24 hours', () => {
  it('the fourth is 429 rate-limited with Retry-After until the oldest leaves the window; then one more is accepted', async () => {
    const [id, other] = await issueTo(api, templateId, members(2))
    await api.issuer.worker.drain()
    for (let i = 0; i < 3; i++) {
      expectStatus(await notify(id!), 202, `resend ${i + 1}`)
      clock.advance(HOUR)
    }
    const refused = await notify(id!)
    assertProblem(refused, 429, 'rate-limited')
    assert.equal(refused.headers.get('retry-after'), String(21 * 3600), 'the first resend leaves the window in 21 hours')
    expectStatus(await notify(other!), 202, 'another issuance has its own limit')
    clock.advance(21 * HOUR - 1000)
    assert.equal((await notify(id!)).headers.get('retry-after'), '1')
    clock.advance(1000)
    expectStatus(await notify(id!), 202, 'the oldest left the window')
    assertProblem(await notify(id!), 429, 'rate-limited')
    await api.issuer.worker.drain()
    assert.equal(sink.messages.filter((message) => message.to[0] === 'member.0@members.chess.example').length, 4, 'one mail per accepted resend')
  })
})

describe('mail outcomes in the feed', () => {
  it('a mail refused for good (550) is issuance.notification_failed at once and never tried again', async () => {
    const [id] = await issueTo(api, templateId, members(1))
    await api.issuer.worker.drain()
    sink.refuseNext(1)
    expectStatus(await notify(id!), 202)
    await api.issuer.worker.drain()
    assert.equal(sink.rejected, 1)
    assert.deepStrictEqual(await eventIds('issuance.notification_failed'), [id])
    assert.deepStrictEqual(await eventIds('issuance.notified'), [])
    clock.advance(48 * HOUR)
    await api.issuer.worker.drain()
    assert.equal(sink.rejected, 1, 'not tried again')
    assert.equal(sink.messages.length, 0)
  })

  it('a temporary refusal (451) is no event; the retry that succeeds is issuance.notified', async () => {
    const [id] = await issueTo(api, templateId, members(1), { mode: 'email' })
    sink.rejectNext(1)
    await api.issuer.worker.drain()
    assert.deepStrictEqual(await eventIds('issuance.notification_failed'), [])
    clock.advance(30_000)
    await api.issuer.worker.drain()
    assert.deepStrictEqual(await eventIds('issuance.notified'), [id])
  })
})

describe('the body', () => {
  it('none or {} is accepted; a member is 422 unknown-field and nothing is mailed', async () => {
    const [id] = await issueTo(api, templateId, members(1))
    await api.issuer.worker.drain()
    expectStatus(await api.call('POST', `${paths.issuance(id!)}/notify`, {}), 202)
    const refused = await api.call('POST', `${paths.issuance(id!)}/notify`, { email: 'someone.else@example.org' })
    assertProblem(refused, 422, 'validation-failed')
    assert.deepStrictEqual(refused.body.errors, [{ message: 'unknown-field', path: 'email' }])
    await api.issuer.worker.drain()
    assert.deepStrictEqual(
      sink.messages.map((message) => message.to[0]),
      ['member.0@members.chess.example'],
    )
  })
})

describe('mail events to webhooks', () => {
  it('an endpoint subscribed to the mail events gets a delivery of each, carrying the feed event', async () => {
    // Webhook secrets are sealed with the master key: the core harness has one.
    const h = createCoreHarness({ notifier, worker: { onError: () => {} } })
    try {
      await h.issuer.clubs.create({ domain: 'chess', name: 'Chess Club' })
      const endpoint = await h.issuer.webhooks.create({
        club: 'chess',
        url: 'https://hooks.example.org/clubcred',
        events: ['issuance.notified', 'issuance.notification_failed'],
      })
      const template = await h.issuer.achievements.create('chess', { name: 'Opening theory', description: 'Studied the main openings.' })
      const { result } = await h.issuer.issuances.issue('chess', { achievementFormId: template.id, recipients: members(2) })
      const [sent, refused] = result.results.map((item) => (item as { resourceId: number }).resourceId)
      await h.issuer.worker.drain()
      await h.issuer.issuances.notify('chess', sent!)
      await h.issuer.worker.drain()
      sink.refuseNext(1)
      await h.issuer.issuances.notify('chess', refused!)
      await h.issuer.worker.drain()
      const feed = (await h.issuer.events.list('chess', { limit: '100' })).data
      const mailEvents = feed.filter((event) => event.type === 'issuance.notified' || event.type === 'issuance.notification_failed')
      assert.deepStrictEqual(
        mailEvents.map((event) => [event.type, Number(event.subject.id)]),
        [
          ['issuance.notification_failed', refused],
          ['issuance.notified', sent],
        ],
      )
      const delivered = (await h.issuer.webhooks.deliveries(endpoint.id)).map((delivery) => delivery.eventId).sort()
      assert.deepStrictEqual(delivered, mailEvents.map((event) => event.id).sort())
    } finally {
      await h.close()
    }
  })
})
