import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { CsvError, csvRecipients, csvRecipientsPaced, parseCsv } from '../../core/issuances/recipients-csv.ts'

/** The recipients as the issue operation takes them: without the line each starts on. */
const recipientsFromCsv = (text: string) => csvRecipients(text).map(({ line: _line, ...recipient }) => recipient)

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

  it('numbers each recipient by the line its record starts on: blank lines and quoted line breaks count', () => {
    const text = 'name,email\r\n\r\n"Kim\nMin",a@example.com\nLee,b@example.com\n\n\nPark,c@example.com'
    assert.deepEqual(
      csvRecipients(text).map(({ line, name }) => [line, name]),
      [
        [3, 'Kim\nMin'],
        [5, 'Lee'],
        [8, 'Park'],
      ],
    )
  })

  it('names what makes a file unreadable as a whole, a row limit included', () => {
    const codeOf = (text: string, maxRows?: number) => {
      try {
        csvRecipients(text, { maxRows })
        return null
      } catch (error) {
        return (error as CsvError).code
      }
    }
    assert.equal(codeOf(''), 'csv-empty')
    assert.equal(codeOf('name\nKim'), 'csv-missing-column')
    assert.equal(codeOf('name,email\n"Kim,a@example.com'), 'csv-unclosed-quote')
    assert.equal(codeOf('name,email\nA,a@x.org\nB,b@x.org', 1), 'csv-too-many-rows')
    assert.equal(codeOf('name,email\nA,a@x.org', 1), null)
  })
  it('read with pauses, a file gives the same recipients, pausing after every `every` records; a refusal is the same', async () => {
    const text = ['name,email', ...Array.from({ length: 25 }, (_, i) => `"회원, ${i}",m${i}@example.com`)].join('\r\n')
    let pauses = 0
    const pause = async () => {
      pauses++
    }
    assert.deepEqual(await csvRecipientsPaced(text, { pause, every: 10 }), csvRecipients(text))
    assert.equal(pauses, 2)
    await assert.rejects(csvRecipientsPaced(text, { pause, maxRows: 24 }), (error: CsvError) => error.code === 'csv-too-many-rows')
    await assert.rejects(csvRecipientsPaced('name\nKim', { pause }), (error: CsvError) => error.code === 'csv-missing-column')
  })
})
