/**
 * The staff console's issuing by CSV over `issuer.fetch` on real SQLite
 * (docs/admin-console.md § Issuing by CSV): the upload, a preview that keeps only the file (under its
 * digest, for the confirmation) and shows at most 100 rows of each kind with every row's outcome to
 * download, the confirmation issuing the kept file through the issue operation in chunks and removing
 * it, the progress reaching the end once the worker has signed, the results and their CSV; the session's
 * club only, Origin and CSRF; the bound on previews at once.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { openConsole, type Console } from '../support/admin-console.ts'
import { CSV_WORK_AT_ONCE, MAX_CSV_BYTES } from '../../adapters/admin/issue-csv.ts'

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
  const digestOf = (page: string) => /name="digest" value="([0-9a-f]{64})"/.exec(page)![1]!
  /** A confirmation form as a browser posts it (url-encoded), naming a kept file by `digest`. */
  const confirmWith = ({ nonce, digest }: { nonce: string; digest: string }, session = chess) =>
    app.post('/admin/issue/csv/confirm', { csrf: session.csrf, achievementFormId: String(template), mode: 'none', nonce, digest }, { cookie: session.cookie })
  /** The preview page's confirmation. */
  const confirm = (page: string, session = chess) => confirmWith({ nonce: nonceOf(page), digest: digestOf(page) }, session)
  const keptFile = (page: string, club = 'chess') => app.storage.csvUploads.findFile(club, digestOf(page))
  const downloadPath = (page: string) => /<a class="button" href="([^"]+)" id="csv-outcomes-download" download>/.exec(page)![1]!.replaceAll('&amp;', '&')
  const uploadIdOf = (response: Response) => /^\/admin\/issue\/csv\/(csv_[0-9a-f]{24})$/.exec(response.headers.get('location') ?? '')![1]!
  const progress = async (id: string, session = chess) =>
    (await app.get(`/admin/issue/csv/${id}/progress`, session.cookie)).json() as Promise<Record<string, unknown>>
  const issued = async () => (await app.issuer.issuances.list('chess', { limit: '100' })).data.length
  const events = async () => (await app.issuer.events.list('chess', { limit: '100' })).data.length

  it('10,000 rows: the preview counts every row and shows the first 100, the confirmation issues them all, the progress reaches the end once they are signed', async () => {
    const csv = [HEADER, ...rowsOf(10_000, 'big')].join('\n')
    const { status, page } = await preview(csv)
    assert.equal(status, 200)
    assert.match(page, /<dd id="csv-rows">10000<\/dd>/)
    assert.match(page, /<dd id="csv-will-issue">10000<\/dd>/)
    assert.match(page, /<tr id="row-101">\n<th scope="row">101<\/th><td>big-99<\/td><td>회원 99<\/td>/)
    assert.equal(page.match(/<tr id="row-/g)?.length, 100)
    assert.doesNotMatch(page, /id="row-102"/)
    assert.match(page, /the first 100 to be issued \(the other 9900 are in the outcome CSV\)/)
    // The confirmation names the file kept in storage by its digest; the file itself is not in the page.
    assert.doesNotMatch(page, /name="csv"/)
    assert.ok(page.length < 100_000, `${page.length} characters`)
    // The file as posted: a form's line breaks are sent as CRLF.
    const posted = csv.replaceAll('\n', '\r\n')
    assert.ok((await keptFile(page))?.text === posted, 'the file is kept as posted')
    const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(posted)))
    assert.equal(digestOf(page), Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join(''), 'the SHA-256 of the file')
    const response = await confirm(page)
    assert.equal(response.status, 303)
    assert.equal(await keptFile(page), null, 'the confirmation removes the kept file')
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
    const id = uploadIdOf(await confirm(page))
    const results = await (await app.get(`/admin/issue/csv/${id}/results`, chess.cookie)).text()
    assert.match(results, /<dd id="csv-issued">1000<\/dd>[^]*<dd id="csv-skipped">1<\/dd>/)
    assert.match(results, /<tr id="row-1002">[^]*?이 파일의 4행과 같은 사람입니다./)
  })

  it('the same confirmation posted again while the file is kept finds its upload, and once it is removed is 422; nothing is issued twice', async () => {
    const csv = [HEADER, ...rowsOf(3, 'again')].join('\n')
    const { page } = await preview(csv)
    const kept = (await keptFile(page))!
    const first = uploadIdOf(await confirm(page))
    const count = await issued()
    const again = await confirm(page)
    assert.equal(again.status, 422)
    assert.match(await again.text(), /미리 보기부터 다시 하세요. <span lang="en">Preview the file again.<\/span>/)
    // As if the first confirmation had failed before removing the file: the retry resumes its upload.
    await app.storage.transaction((tx) => tx.csvUploads.putFile(kept))
    assert.equal(uploadIdOf(await confirm(page)), first)
    assert.equal(await issued(), count)
    assert.deepStrictEqual((await progress(first)).issued, 3)
  })

  it('every row’s outcome downloads as CSV from the kept file, formula-safe, with the rows the page does not show', async () => {
    await app.issuer.issuances.issue('chess', {
      achievementFormId: template,
      recipients: [{ externalUserId: 'held-2', name: '먼저', email: 'held2@chess.example' }],
    })
    const rows = Array.from({ length: 150 }, (_, i) => `out-${i},"=cmd|' /C calc'!A0",bad-${i}`)
    rows.push('out-150,좋은 회원,good@chess.example', 'out-150,다시,again@chess.example', 'held-2,먼저,held2@chess.example', 'out-153,@SUM(1),ok@chess.example')
    const csv = [HEADER, ...rows].join('\n')
    const { page } = await preview(csv)
    assert.match(page, /<dd id="csv-errors">152<\/dd>/)
    assert.equal(page.match(/class="row-error"/g)?.length, 100, 'the first 100 rows with errors')
    const response = await app.get(downloadPath(page), chess.cookie)
    assert.equal(response.status, 200)
    assert.equal(response.headers.get('content-type'), 'text/csv; charset=utf-8')
    assert.match(response.headers.get('content-disposition') ?? '', /^attachment; filename="clubcred-preview-[0-9a-f]{16}\.csv"$/)
    assert.match(response.headers.get('content-security-policy') ?? '', /default-src 'none'/)
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await response.arrayBuffer())
    assert.ok(text.startsWith('\uFEFF'), 'a UTF-8 byte order mark')
    const lines = text.slice(1).split('\r\n')
    assert.equal(lines.pop(), '')
    assert.equal(lines[0], 'row,externalUserId,name,email,outcome,issuanceId,code,message')
    assert.equal(lines.length - 1, 154, 'a line for every row')
    assert.equal(lines[1], "2,out-0,'=cmd|' /C calc'!A0,bad-0,failed,,invalid-email,email: The e-mail address is not valid.", 'a formula made inert')
    assert.equal(lines[151], '152,out-150,좋은 회원,good@chess.example,to-issue,,,')
    assert.equal(lines[152], '153,out-150,다시,again@chess.example,skipped,,duplicate-in-request,This recipient appears earlier in the request.')
    assert.match(lines[153]!, /^154,held-2,먼저,held2@chess\.example,skipped,\d+,already-issued,The recipient already holds this achievement\.$/)
    assert.equal(lines[154], "155,out-153,'@SUM(1),ok@chess.example,to-issue,,,")
    // Another club's session, and a digest the club has no file under, find nothing.
    assert.equal((await app.get(downloadPath(page), go.cookie)).status, 404)
    assert.equal((await app.get(downloadPath(page).replace(/files\/[0-9a-f]{64}/, `files/${'0'.repeat(64)}`), chess.cookie)).status, 404)
  })

  it('the kept file of a preview never confirmed is removed by the worker’s housekeeping after a day', async () => {
    const { page } = await preview([HEADER, ...rowsOf(2, 'left')].join('\n'))
    assert.ok(await keptFile(page))
    app.clock.advance(23 * 3600_000)
    await app.issuer.worker.runOnce()
    assert.ok(await keptFile(page), 'kept for a day')
    app.clock.advance(3600_000 + 61_000)
    await app.issuer.worker.runOnce()
    assert.equal(await keptFile(page), null)
    // The day ended the sessions too: sign in again, then the confirmation finds no file.
    chess = await app.login('staff@chess.example')
    go = await app.login('staff@go.example')
    const response = await confirm(page)
    assert.equal(response.status, 422)
  })

  it(`at most ${CSV_WORK_AT_ONCE} previews run at once; the next is 503 with Retry-After and keeps nothing`, async () => {
    const files = [0, 1, 2, 3, 4].map((n) => [HEADER, ...rowsOf(3_000, `busy${n}-`)].join('\n'))
    const answers = await Promise.all(
      files.map(async (csv) => {
        const response = await send('/admin/issue/csv', { csv })
        return { status: response.status, retryAfter: response.headers.get('retry-after'), page: await response.text() }
      }),
    )
    const busy = answers.filter(({ status }) => status === 503)
    assert.ok(answers.filter(({ status }) => status === 200).length >= CSV_WORK_AT_ONCE, answers.map(({ status }) => status).join())
    assert.ok(busy.length >= 1, answers.map(({ status }) => status).join())
    assert.equal(busy[0]!.retryAfter, '5')
    assert.match(busy[0]!.page, /지금 처리 중인 CSV가 너무 많습니다/)
    for (const [i, { status }] of answers.entries()) {
      const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(files[i]!.replaceAll('\n', '\r\n'))))
      const digest = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')
      assert.equal((await app.storage.csvUploads.findFile('chess', digest)) !== null, status === 200)
    }
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
      assert.equal((await confirmWith({ nonce: crypto.randomUUID(), digest: 'f'.repeat(64) })).status, 422)
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
    const { page } = await preview(csv)
    const fields = { csrf: chess.csrf, achievementFormId: String(template), mode: 'none', nonce: nonceOf(page), digest: digestOf(page) }
    const post = (changed: Record<string, string>, options: { cookie?: string; headers?: Record<string, string> } = {}) =>
      app.post('/admin/issue/csv/confirm', { ...fields, ...changed }, { cookie: chess.cookie, ...options })
    assert.equal((await post({}, { headers: { origin: 'https://evil.example' } })).status, 403)
    assert.equal((await post({ csrf: 'wrong' })).status, 403)
    assert.equal((await post({ csrf: go.csrf })).status, 403)
    assert.equal((await post({}, { cookie: '' })).status, 303)
    // Another club's staff cannot confirm this club's kept file by its digest: their club has no such file.
    assert.equal((await confirm(page, go)).status, 422)
    assert.ok(await keptFile(page))
    assert.equal(await issued(), before)
  })

  it('another club’s upload is 404 on every page of it, and its template is not found', async () => {
    const csv = [HEADER, ...rowsOf(1, 'mine')].join('\n')
    const id = uploadIdOf(await confirm((await preview(csv)).page))
    for (const path of ['', '/progress', '/results', '/results.csv']) {
      assert.equal((await app.get(`/admin/issue/csv/${id}${path}`, go.cookie)).status, 404, path)
      assert.equal((await app.get(`/admin/issue/csv/${id}${path}`, chess.cookie)).status, 200, path)
    }
    const theirs = await send('/admin/issue/csv', { csv }, { session: go })
    assert.equal(theirs.status, 404)
  })

  it('the results CSV: a line per row with its status, and formulas made inert', async () => {
    const csv = [HEADER, 'f-1,=HYPERLINK("http://evil.example"),f1@chess.example', 'f-2,"@SUM(1, 2)",bad-address', 'f-3,+plus,f3@chess.example'].join('\n')
    const id = uploadIdOf(await confirm((await preview(csv)).page))
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
