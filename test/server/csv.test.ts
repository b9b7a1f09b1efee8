import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { parseCsv, recipientsFromCsv } from '../../core/issuances/recipients-csv.ts'

describe('CSV (RFC 4180)', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks, CRLF or LF, and drops a BOM', () => {
    assert.deepEqual(parseCsv('\uFEFFa,b\r\n"x, y","say ""hi"""\n"two\nlines",z'), [
      ['a', 'b'],
      ['x, y', 'say "hi"'],
      ['two\nlines', 'z'],
    ])
  })

  it('keeps empty fields and skips blank lines', () => {
    assert.deepEqual(parseCsv('a,,c\n\n,b,\n'), [
      ['a', '', 'c'],
      ['', 'b', ''],
    ])
  })

  it('refuses an unclosed quote', () => {
    assert.throws(() => parseCsv('a,"b\n'), /not closed/)
  })

  it('maps the header externalUserId,name,email in any order; externalUserId is optional', () => {
    assert.deepEqual(recipientsFromCsv('email,name\nkim@example.com,김민준\n'), [{ name: '김민준', email: 'kim@example.com' }])
    assert.deepEqual(recipientsFromCsv('name,externalUserId,email\nLee, u-2 ,lee@example.com\n'), [
      { externalUserId: 'u-2', name: 'Lee', email: 'lee@example.com' },
    ])
    assert.throws(() => recipientsFromCsv(''), /empty/)
  })
})
