/**
 * The staff console's issuing by CSV over `issuer.fetch` on real SQLite
 * (docs/admin-console.md § Issuing by CSV): the upload, a preview of every row that stores nothing, the confirmation issuing through the
 * issue operation in chunks, the progress reaching the end once the worker has signed, the results and
 * their CSV; the session's club only, Origin and CSRF.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { openConsole, type Console } from '../support/admin-console.ts'
import { MAX_CSV_BYTES } from '../../adapters/http/admin/issue-csv.ts'

const HEADER = 'externalUserId,name,email'
const rowsOf = (count: number, prefix: string) => Array.from({ length: count }, (_, i) => `${prefix}-${i},회원 ${i},${prefix}${i}@chess.example`)

describe('staff console: issue by CSV', () => {
  let app: Console
  let chess: { cookie: string; csrf: string }
  let go: { cookie: string; csrf: string }
  let template: number

  before(async () => {
    app = await openConsole()
    await app.adminWithPassword('chess', 'staff@chess.example')
    await app.adminWithPassword('go', 'staff@go.example')
    chess = await app.login('staff@chess.example')
    go = await app.login('staff@go.example')
    template = (await app.issuer.achievements.create('chess', { name: '오프닝 과정', description: 'Openings' })).id
  })
  after(() => app.close())

  /** A multipart POST as a browser sends the form; `file` is the chosen file, else the CSV is pasted. */
  const send = (
    path: string,
    fields: Record<string, string>,
    { session = chess, file, origin = app.origin }: { session?: typeof chess; file?: Uint8Array<ArrayBuffer> | string; origin?: string } = {},
  ) => {
    const form = new FormData()
    for (const [name, value] of Object.entries({ csrf: session.csrf, achievementFormId: String(template), mode: 'none', ...fields })) form.set(name, value)
    if (file !== undefined) form.set('file', new File([file], 'members.csv', { type: 'text/csv' }))
    return app.issuer.fetch(new Request(`${app.origin}${path}`, { method: 'POST', headers: { origin, cookie: session.cookie }, body: form }))
  }
  const preview = async (csv: string, fields: Record<string, string> = {}) => {
    const response = await send('/admin/issue/csv', { csv, ...fields })
    return { status: response.status, page: await response.text() }
  }
  const nonceOf = (page: string) => /name="nonce" value="([^"]+)"/.exec(page)![1]!
  const confirm = (csv: string, nonce: string) => send('/admin/issue/csv/confirm', { csv, nonce })
  const uploadIdOf = (response: Response) => /^\/admin\/issue\/csv\/(csv_[0-9a-f]{24})$/.exec(response.headers.get('location') ?? '')![1]!
  const progress = async (id: string, session = chess) =>
    (await app.get(`/admin/issue/csv/${id}/progress`, session.cookie)).json() as Promise<Record<string, unknown>>
  const issued = async () => (await app.issuer.issuances.list('chess', { limit: '100' })).data.length
  const events = async () => (await app.issuer.events.list('chess', { limit: '100' })).data.length

  it('10,000 rows: the preview names every row, the confirmation issues them all, the progress reaches the end once they are signed', async () => {
    const csv = [HEADER, ...rowsOf(10_000, 'big')].join('\n')
    const { status, page } = await preview(csv)
    assert.equal(status, 200)
    assert.match(page, /<dd id="csv-rows">10000<\/dd>/)
    assert.match(page, /<dd id="csv-will-issue">10000<\/dd>/)
    assert.match(page, /<tr id="row-10001">\n<th scope="row">10001<\/th><td>big-9999<\/td><td>회원 9999<\/td>/)
    // The confirmation carries the file itself to any node (the form's line breaks sent as CRLF).
    assert.ok(page.includes(`<input type="hidden" name="csv" value="${csv.replaceAll('\n', '\r\n')}">`))
    const response = await confirm(csv, nonceOf(page))
    assert.equal(response.status, 303)
    const id = uploadIdOf(response)
    assert.deepStrictEqual(await progress(id), { rowCount: 10_000, recorded: 10_000, issued: 10_000, signed: 0, done: false })
    const waiting = await (await app.get(`/admin/issue/csv/${id}`, chess.cookie)).text()
    assert.match(waiting, /<noscript><meta http-equiv="refresh" content="2"><\/noscript>\n<script src="\/admin\/issue-csv.js" defer><\/script>/)
    assert.match(waiting, /<progress id="csv-progress" max="10000" value="0" data-progress-url="\/admin\/issue\/csv\/csv_[0-9a-f]{24}\/progress">/)
    await app.issuer.worker.drain()
    assert.deepStrictEqual(await progress(id), { rowCount: 10_000, recorded: 10_000, issued: 10_000, signed: 10_000, done: true })
    const finished = await (await app.get(`/admin/issue/csv/${id}`, chess.cookie)).text()
    assert.match(finished, /<progress id="csv-progress" max="10000" value="10000" [^>]*data-done="true">/)
    assert.doesNotMatch(finished, /http-equiv="refresh"/)
    assert.match(finished, new RegExp(`<a href="/admin/issue/csv/${id}/results" id="csv-results-link">`))
  })

  it('three bad rows among many are named in the preview with their codes, and a preview stores nothing', async () => {
    await app.issuer.issuances.issue('chess', {
      achievementFormId: template,
      recipients: [{ externalUserId: 'held-1', name: '먼저', email: 'held@chess.example' }],
    })
    const [issuedBefore, eventsBefore] = [await issued(), await events()]
    const rows = rowsOf(40, 'mix')
    rows[9] = 'mix-9,박서준,not-an-address' // line 11
    rows[19] = 'mix-19,,mix19@chess.example' // line 21
    rows[29] = 'mix-4,다시,again@chess.example' // line 31: the same recipient as line 6
    rows[34] = 'held-1,먼저,held@chess.example' // line 36: already holds it
    const { status, page } = await preview([HEADER, ...rows].join('\r\n'))
    assert.equal(status, 200)
    assert.match(page, /<dd id="csv-rows">40<\/dd>/)
    assert.match(page, /<dd id="csv-will-issue">36<\/dd>/)
    assert.match(page, /<dd id="csv-errors">4<\/dd>/)
    const row = (line: number) => new RegExp(`<tr id="row-${line}"[^]*?</tr>`).exec(page)?.[0] ?? ''
    assert.match(
      row(11),
      /class="row-error"[^]*이메일: 이메일 주소가 올바르지 않습니다. <span lang="en">email: The e-mail address is not valid.<\/span> <code>invalid-email<\/code>/,
    )
    assert.match(row(21), /이름: 필수 항목입니다.[^]*<code>required<\/code>/)
    assert.match(row(31), /<code>duplicate-in-request<\/code>/)
    assert.match(row(36), /<code>already-issued<\/code><\/span> <a href="\/admin\/issuances\/\d+">/)
    assert.doesNotMatch(row(12), /row-error/)
    assert.match(
      page,
      /<p id="csv-error-rows">[^]*<a href="#row-11">11<\/a>, <a href="#row-21">21<\/a>, <a href="#row-31">31<\/a>, <a href="#row-36">36<\/a><\/p>/,
    )
    assert.match(page, /<button type="submit" id="csv-confirm">36건 발급 <span lang="en">Issue[ ]36<\/span><\/button>/)
    assert.deepStrictEqual([await issued(), await events()], [issuedBefore, eventsBefore])
  })

  it('a duplicate across chunks (the API’s largest batch) is named as the earlier row, in the preview and the results', async () => {
    const rows = rowsOf(1_001, 'span')
    rows[1_000] = 'span-2,또,span2again@chess.example' // line 1002, the same recipient as line 4
    const csv = [HEADER, ...rows].join('\n')
    const { page } = await preview(csv)
    assert.match(page, /<tr id="row-1002" class="row-error">[^]*?이 파일의 4행과 같은 사람입니다.[^]*?<code>already-issued<\/code><\/span><\/td><\/tr>/)
    const id = uploadIdOf(await confirm(csv, nonceOf(page)))
    const results = await (await app.get(`/admin/issue/csv/${id}/results`, chess.cookie)).text()
    assert.match(results, /<dd id="csv-issued">1000<\/dd>[^]*<dd id="csv-skipped">1<\/dd>/)
    assert.match(results, /<tr id="row-1002">[^]*?이 파일의 4행과 같은 사람입니다./)
  })

  it('the same confirmation posted again finds its upload and issues nothing twice', async () => {
    const csv = [HEADER, ...rowsOf(3, 'again')].join('\n')
    const nonce = nonceOf((await preview(csv)).page)
    const first = uploadIdOf(await confirm(csv, nonce))
    const count = await issued()
    assert.equal(uploadIdOf(await confirm(csv, nonce)), first)
    assert.equal(await issued(), count)
    assert.deepStrictEqual((await progress(first)).issued, 3)
  })

  it('a file refused as a whole is 422 beside the upload field, and nothing is stored', async () => {
    const cases: [string, string][] = [
      ['externalUserId,name\nu-1,김', 'csv-missing-column'],
      [`${HEADER}\nu-1,"김,kim@chess.example`, 'csv-unclosed-quote'],
      [[HEADER, ...rowsOf(10_001, 'over')].join('\n'), 'csv-too-many-rows'],
      [HEADER, 'csv-no-rows'],
      ['', 'csv-empty'],
    ]
    const before = await issued()
    for (const [csv, code] of cases) {
      const { status, page } = await preview(csv)
      assert.equal(status, 422, code)
      assert.match(page, new RegExp(`<p class="error" id="csv-error" role="alert">[^<]*<span lang="en">[^<]*</span> <code>${code}</code></p>`), code)
      assert.match(page, /<input id="csv-file" name="file" type="file" accept=".csv,text\/csv" aria-invalid="true" aria-describedby="csv-error csv-hint">/)
      await confirm(csv, crypto.randomUUID())
    }
    assert.equal(await issued(), before)
  })

  it('10,000 rows of the longest names (200 Korean characters) with UUIDs and common e-mails fit the byte limit', () => {
    const row = (i: number) => `${crypto.randomUUID()},${'가'.repeat(200)},member.${String(i).padStart(5, '0')}@chess-club.example`
    const bytes = new TextEncoder().encode([HEADER, ...Array.from({ length: 10_000 }, (_, i) => row(i))].join('\r\n')).byteLength
    assert.ok(bytes < MAX_CSV_BYTES, `${bytes} bytes`)
  })

  it('a body larger than the limit is 413 with the limit said, before it is read to the end', async () => {
    const response = await send('/admin/issue/csv', { csv: 'x'.repeat(16 * 1024 * 1024 + 64 * 1024) })
    assert.equal(response.status, 413)
    assert.match(await response.text(), /CSV는 16 MiB까지 올릴 수 있습니다. <span lang="en">A CSV may have at most 16 MiB.<\/span>/)
  })

  it('reads a chosen file, in UTF-8 or in EUC-KR as Korean spreadsheets save it', async () => {
    // "김민" in EUC-KR: B1E8 B9CE.
    const euckr = new Uint8Array([...new TextEncoder().encode(`${HEADER}\nk-1,`), 0xb1, 0xe8, 0xb9, 0xce, ...new TextEncoder().encode(',k1@chess.example\n')])
    const page = await (await send('/admin/issue/csv', {}, { file: euckr })).text()
    assert.match(page, /<td>k-1<\/td><td>김민<\/td>/)
  })

  it('refuses a foreign Origin and a missing CSRF token (403) and a signed-out upload (303), storing nothing', async () => {
    const csv = [HEADER, ...rowsOf(2, 'guard')].join('\n')
    const before = await issued()
    const nonce = nonceOf((await preview(csv)).page)
    assert.equal((await send('/admin/issue/csv/confirm', { csv, nonce }, { origin: 'https://evil.example' })).status, 403)
    assert.equal((await send('/admin/issue/csv/confirm', { csv, nonce, csrf: 'wrong' })).status, 403)
    assert.equal((await send('/admin/issue/csv/confirm', { csv, nonce, csrf: go.csrf })).status, 403)
    assert.equal((await send('/admin/issue/csv/confirm', { csv, nonce }, { session: { cookie: '', csrf: chess.csrf } })).status, 303)
    assert.equal(await issued(), before)
  })

  it('another club’s upload is 404 on every page of it, and its template is not found', async () => {
    const csv = [HEADER, ...rowsOf(1, 'mine')].join('\n')
    const id = uploadIdOf(await confirm(csv, nonceOf((await preview(csv)).page)))
    for (const path of ['', '/progress', '/results', '/results.csv']) {
      assert.equal((await app.get(`/admin/issue/csv/${id}${path}`, go.cookie)).status, 404, path)
      assert.equal((await app.get(`/admin/issue/csv/${id}${path}`, chess.cookie)).status, 200, path)
    }
    const theirs = await send('/admin/issue/csv', { csv }, { session: go })
    assert.equal(theirs.status, 404)
  })

  it('the results CSV: a line per row with its status, and formulas made inert', async () => {
    const csv = [HEADER, 'f-1,=HYPERLINK("http://evil.example"),f1@chess.example', 'f-2,"@SUM(1, 2)",bad-address', 'f-3,+plus,f3@chess.example'].join('\n')
    const id = uploadIdOf(await confirm(csv, nonceOf((await preview(csv)).page)))
    const response = await app.get(`/admin/issue/csv/${id}/results.csv`, chess.cookie)
    assert.equal(response.headers.get('content-type'), 'text/csv; charset=utf-8')
    assert.match(response.headers.get('content-disposition') ?? '', /^attachment; filename="clubcred-upload-csv_[0-9a-f]{24}\.csv"$/)
    const bytes = new Uint8Array(await response.arrayBuffer())
    assert.deepStrictEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'a UTF-8 byte order mark')
    const lines = new TextDecoder().decode(bytes).split('\r\n')
    assert.equal(lines[0], 'row,externalUserId,name,email,status,issuanceId,code,message')
    assert.match(lines[1]!, /^2,f-1,"'=HYPERLINK\(""http:\/\/evil.example""\)",f1@chess.example,issued,\d+,,$/)
    assert.equal(lines[2], '3,f-2,"\'@SUM(1, 2)",bad-address,failed,,invalid-email,The e-mail address is not valid.')
    assert.match(lines[3]!, /^4,f-3,'\+plus,f3@chess.example,issued,\d+,,$/)
    const results = await (await app.get(`/admin/issue/csv/${id}/results`, chess.cookie)).text()
    assert.match(
      results,
      /<tr id="row-3">[^]*?실패 <span lang="en">Failed<\/span>: 이메일: 이메일 주소가 올바르지 않습니다. <span lang="en">email: The e-mail address is not valid.<\/span> <code>invalid-email<\/code>/,
    )
  })

  it('the progress script is a file the CSP lets fetch the console’s JSON, and the referrer policy lets browsers send Origin on POSTs', async () => {
    const script = await app.get('/admin/issue-csv.js')
    assert.equal(script.status, 200)
    assert.equal(script.headers.get('content-type'), 'text/javascript; charset=utf-8')
    assert.match(await script.text(), /getElementById\('csv-progress'\)/)
    const page = await app.get('/admin/issue/csv', chess.cookie)
    assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self';.*connect-src 'self';/)
    // With `no-referrer`, browsers send `Origin: null` on a form POST, which the Origin check refuses.
    assert.equal(page.headers.get('referrer-policy'), 'same-origin')
    assert.doesNotMatch(await page.text(), /<script>|style=/)
  })
})
