/**
 * The console's multipart reader against bodies serialized by the platform (undici's FormData, which
 * this project did not write) and by hand: fields, files as views of the body, an empty file input,
 * names as browsers escape them, a preamble, and malformed bodies.
 * @see docs/decisions/0041-csv-preview-kept-server-side.md
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { readMultipartForm } from '../../adapters/admin/multipart.ts'

const LIMIT = 32 * 1024 * 1024

describe('multipart/form-data reader', () => {
  it('reads what the platform serializes: text fields, a file with its name and type, and skips an empty file input', async () => {
    const form = new FormData()
    form.set('csrf', 'token-1')
    form.set('csv', 'name,email\r\n김,kim@example.org\r\n')
    form.set('empty', new File([], ''))
    const bytes = new Uint8Array(3 * 1024 * 1024).map((_, i) => (i * 7) % 256)
    form.set('file', new File([bytes], '회원 명단.csv', { type: 'Text/CSV' }))
    form.append('mode', 'none')
    form.append('mode', 'email')
    const posted = await readMultipartForm(new Request('http://x/', { method: 'POST', body: form }), LIMIT)
    assert.ok(typeof posted === 'object')
    assert.equal(posted.form.get('csrf'), 'token-1')
    assert.equal(posted.form.get('csv'), 'name,email\r\n김,kim@example.org\r\n')
    assert.deepEqual(posted.form.getAll('mode'), ['none', 'email'])
    assert.equal(posted.files.has('empty'), false)
    const file = posted.files.get('file')!
    assert.equal(file.filename, '회원 명단.csv')
    assert.equal(file.mediaType, 'text/csv')
    assert.deepEqual(file.bytes, bytes)
  })

  it('reads a body written by hand with a preamble, an epilogue, a quoted boundary and escaped names', async () => {
    const body = [
      'ignored preamble',
      '--b1',
      'Content-Disposition: form-data; name="a%22b"',
      '',
      'one',
      '--b1',
      'content-disposition: form-data; name="up"; filename="x.csv"',
      'Content-Type: text/csv',
      '',
      'a,b\r\n--b0 not the boundary',
      '--b1--',
      'epilogue',
    ].join('\r\n')
    const request = new Request('http://x/', { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary="b1"' }, body })
    const posted = await readMultipartForm(request, LIMIT)
    assert.ok(typeof posted === 'object')
    assert.equal(posted.form.get('a"b'), 'one')
    assert.equal(new TextDecoder().decode(posted.files.get('up')!.bytes), 'a,b\r\n--b0 not the boundary')
  })

  it('refuses a body that is not multipart: no boundary, no closing delimiter, a part without a disposition', async () => {
    const read = (body: string, type = 'multipart/form-data; boundary=b1') =>
      readMultipartForm(new Request('http://x/', { method: 'POST', headers: { 'content-type': type }, body }), LIMIT)
    assert.equal(await read('--b1\r\nContent-Disposition: form-data; name="a"\r\n\r\nx\r\n--b1--', 'multipart/form-data'), 'malformed')
    assert.equal(await read('--b1\r\nContent-Disposition: form-data; name="a"\r\n\r\nx'), 'malformed')
    assert.equal(await read('--b1\r\nContent-Type: text/plain\r\n\r\nx\r\n--b1--'), 'malformed')
    assert.equal(await read('no delimiter at all'), 'malformed')
    assert.equal(await read('x'.repeat(100), 'multipart/form-data; boundary=b1'), 'malformed')
  })

  it('past the limit is too-large', async () => {
    const form = new FormData()
    form.set('file', new File([new Uint8Array(2048)], 'a.csv'))
    assert.equal(await readMultipartForm(new Request('http://x/', { method: 'POST', body: form }), 1024), 'too-large')
  })
})
