/**
 * The staff console's resend and bulk revoke over real HTTP (`issuer.fetch`) on real SQLite
 * (docs/admin-console.md § Issuances): the delivery of an issuance from its mail events, the resend form
 * and its limit, and revoking chosen rows or a whole filter with one confirmation.
 *
 * @see docs/decisions/0045-resend-and-bulk-revoke.md
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createSmtpNotifier } from '../../adapters/smtp/index.ts'
import { openConsole, type Console } from '../support/admin-console.ts'
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts'

const recipients = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => ({ externalUserId: `${prefix}-${i}`, name: `${prefix} 회원 ${i}`, email: `${prefix}.${i}@chess.example` }))

describe('staff console: resend and bulk revoke', () => {
  let app: Console
  let sink: SmtpSink
  let notifier: ReturnType<typeof createSmtpNotifier>
  let chess: { cookie: string; csrf: string }
  let lesson: number
  let other: number
  const ids: number[] = []
  const otherIds: number[] = []
  let foreign: number

  const issue = async (club: string, achievementFormId: number, prefix: string, count: number) => {
    const { result } = await app.issuer.issuances.issue(club, { achievementFormId, recipients: recipients(prefix, count) })
    return result.results.map((item) => (item.status === 'issued' ? item.resourceId : NaN))
  }
  /** A form POST with repeated fields (the ticked rows), as a browser sends it. */
  const postForm = (path: string, fields: [string, string][], cookie = chess.cookie) =>
    app.issuer.fetch(
      new Request(`${app.origin}${path}`, {
        method: 'POST',
        headers: { origin: app.origin, 'content-type': 'application/x-www-form-urlencoded', cookie },
        body: new URLSearchParams(fields).toString(),
      }),
    )

  before(async () => {
    sink = await startSmtpSink()
    notifier = createSmtpNotifier({ url: sink.url })
    app = await openConsole({ notifier })
    await app.adminWithPassword('chess', 'staff@chess.example')
    await app.adminWithPassword('go', 'staff@go.example')
    chess = await app.login('staff@chess.example')
    lesson = (await app.issuer.achievements.create('chess', { name: '체스 입문 과정', description: 'Beginners' })).id
    other = (await app.issuer.achievements.create('chess', { name: '엔드게임 과정', description: 'Endgames' })).id
    const go = (await app.issuer.achievements.create('go', { name: '바둑 입문', description: 'Go' })).id
    ids.push(...(await issue('chess', lesson, 'lesson', 4)))
    otherIds.push(...(await issue('chess', other, 'other', 3)))
    foreign = (await issue('go', go, 'go', 1))[0]!
    await app.issuer.worker.drain()
  })
  after(async () => {
    await app.close()
    notifier.close()
    await sink.close()
  })

  it('the issuance page shows no mail yet and a resend form; resending mails the recipient, and the page then shows the mail accepted', async () => {
    const id = ids[0]!
    const before = await (await app.get(`/admin/issuances/${id}`, chess.cookie)).text()
    assert.match(before, /<h2 id="delivery-title">메일 발송 <span lang="en">Delivery<\/span><\/h2>/)
    assert.match(before, /보낸 메일이 없습니다/)
    assert.match(before, new RegExp(`<form method="post" action="/admin/issuances/${id}/notify">`))
    const sent = await postForm(`/admin/issuances/${id}/notify`, [['csrf', chess.csrf]])
    assert.equal(sent.status, 303)
    assert.equal(sent.headers.get('location'), `/admin/issuances/${id}?done=notified`)
    await app.issuer.worker.drain()
    assert.deepStrictEqual(sink.messages.at(-1)!.to, ['lesson.0@chess.example'])
    const after = await (await app.get(`/admin/issuances/${id}?done=notified`, chess.cookie)).text()
    assert.match(after, /role="status">메일을 다시 보내도록 넣었습니다/)
    assert.match(after, /<td class="status-valid">메일 서버가 받음 <span lang="en">Accepted by the mail server<\/span><\/td>/)
  })

  it('a fourth resend within 24 hours is refused on the page (429) with when to try again; without the CSRF token 403; another club 404', async () => {
    const id = ids[1]!
    for (let i = 0; i < 3; i++) assert.equal((await postForm(`/admin/issuances/${id}/notify`, [['csrf', chess.csrf]])).status, 303)
    const refused = await postForm(`/admin/issuances/${id}/notify`, [['csrf', chess.csrf]])
    assert.equal(refused.status, 429)
    assert.match(await refused.text(), /role="alert">24시간에 3번까지 보낼 수 있습니다. 약 24시간 뒤에 다시 보내세요./)
    assert.equal((await postForm(`/admin/issuances/${ids[2]}/notify`, [])).status, 403)
    assert.equal((await postForm(`/admin/issuances/${foreign}/notify`, [['csrf', chess.csrf]])).status, 404)
  })

  it('the list has a labelled box per row and the bulk form; ticked rows go to one confirmation, then are revoked', async () => {
    const list = await (await app.get('/admin/issuances', chess.cookie)).text()
    assert.match(
      list,
      new RegExp(
        `<input type="checkbox" class="pick" id="pick-${ids[3]}" name="id" value="${ids[3]}" form="bulk"><label for="pick-${ids[3]}" class="visually-hidden">lesson 회원 3 선택`,
      ),
    )
    assert.match(list, /<form id="bulk" method="post" action="\/admin\/issuances\/revoke">/)
    const chosen: [string, string][] = [
      ['csrf', chess.csrf],
      ['scope', 'chosen'],
      ['id', String(ids[2])],
      ['id', String(ids[3])],
    ]
    const confirm = await postForm('/admin/issuances/revoke', chosen)
    assert.equal(confirm.status, 200)
    const confirmPage = await confirm.text()
    assert.match(confirmPage, /<h1>발급 2개 취소 <span lang="en">Revoke 2 issuances<\/span><\/h1>/)
    assert.match(confirmPage, /lesson 회원 2/)
    assert.equal((await app.issuer.issuances.read('chess', ids[2]!)).status, 'valid', 'the first step revokes nothing')

    const step: [string, string][] = [
      ['csrf', chess.csrf],
      ['step', 'revoke'],
      ['id', String(ids[2])],
      ['id', String(ids[3])],
      ['reason', '잘못 발급'],
    ]
    const unconfirmed = await postForm('/admin/issuances/revoke', step)
    assert.equal(unconfirmed.status, 422)
    assert.match(await unconfirmed.text(), /id="confirm-error"/)
    assert.equal((await app.issuer.issuances.read('chess', ids[2]!)).status, 'valid')
    const done = await postForm('/admin/issuances/revoke', [...step, ['confirm', 'yes']])
    assert.equal(done.status, 200)
    assert.match(await done.text(), /role="status">2개를 취소했습니다. 건너뜀 0개, 실패 0개./)
    for (const id of [ids[2]!, ids[3]!]) {
      const detail = await app.issuer.issuances.read('chess', id)
      assert.equal(detail.status, 'revoked')
      assert.equal(detail.revocationReason, '잘못 발급')
    }
    const foreignStep = await postForm('/admin/issuances/revoke', [
      ['csrf', chess.csrf],
      ['step', 'revoke'],
      ['id', String(foreign)],
      ['confirm', 'yes'],
    ])
    assert.match(await foreignStep.text(), /실패 1개/)
    assert.equal((await app.issuer.issuances.read('go', foreign)).status, 'valid', "another club's issuance untouched")
  })

  it('every row of the filter: the confirmation counts the unrevoked issuances the filter finds; none chosen is refused', async () => {
    const confirm = await postForm('/admin/issuances/revoke', [
      ['csrf', chess.csrf],
      ['scope', 'filter'],
      ['achievementId', String(other)],
    ])
    const page = await confirm.text()
    assert.match(page, /발급 3개 취소/)
    const hidden = [...page.matchAll(/<input type="hidden" name="id" value="(\d+)">/g)].map((match) => Number(match[1])).sort()
    assert.deepStrictEqual(hidden, [...otherIds].sort())
    // The list's boxes are part of the filter: none of these expires, so "expiring within 30 days" finds none.
    const expiring = await postForm('/admin/issuances/revoke', [
      ['csrf', chess.csrf],
      ['scope', 'filter'],
      ['achievementId', String(other)],
      ['expiring', 'true'],
    ])
    assert.equal(expiring.status, 422)
    assert.match(await expiring.text(), /취소할 발급을 고르세요/)
    const none = await postForm('/admin/issuances/revoke', [
      ['csrf', chess.csrf],
      ['scope', 'chosen'],
    ])
    assert.equal(none.status, 422)
    assert.match(await none.text(), /취소할 발급을 고르세요/)
  })
  it('renews every row of the filter with one new expiry, and none past 1,000 or without the ticked box', async () => {
    const fields: [string, string][] = [
      ['csrf', chess.csrf],
      ['scope', 'filter'],
      ['achievementId', String(other)],
      ['expiresOn', '2100-06-30'],
    ]
    const unticked = await postForm('/admin/issuances/renew', fields)
    assert.equal(unticked.headers.get('location'), '/admin/issuances?done=not-renewed')
    const renewed = await postForm('/admin/issuances/renew', [...fields, ['renewConfirm', 'yes']])
    assert.equal(renewed.status, 303)
    const unrevoked = []
    for (const id of otherIds) {
      const detail = await app.issuer.issuances.read('chess', id)
      if (detail.status !== 'revoked') unrevoked.push(detail)
    }
    assert.ok(unrevoked.length > 0, 'the filter has unrevoked rows')
    assert.equal(renewed.headers.get('location'), `/admin/issuances?done=renewed&count=${unrevoked.length}`)
    for (const detail of unrevoked) assert.equal(detail.expiresAt, '2100-06-30T23:59:59.000Z', `issuance ${detail.id} renewed`)
  })
})
