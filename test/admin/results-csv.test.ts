/**
 * The results CSV's neutraliser (adapters/admin/results-csv.ts): a cell a spreadsheet may read as a
 * formula gets a leading `'`, judged on the first character after leading whitespace, after NFKC, so
 * that ` =1+1` and the full-width `＝＋－＠` are caught as `=1+1` is (OWASP's CSV injection list: `=`,
 * `+`, `-`, `@`, tab, carriage return). Text that is no formula stays as it is.
 *
 * @see docs/decisions/0042-outside-review-smaller-findings.md
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { csvCell, readsAsFormula } from '../../adapters/admin/results-csv.ts'

describe('results CSV cells', () => {
  const formulas: [what: string, value: string][] = [
    ['=', '=HYPERLINK("http://evil.example")'],
    ['+', '+1+1'],
    ['-', '-2+3'],
    ['@', '@SUM(A1)'],
    ['a tab', '\t=1'],
    ['a carriage return', '\r=1'],
    ['a space then =', ' =1+1'],
    ['spaces and a newline then +', '  \n+1'],
    ['a no-break space then @', '\u00a0@SUM(A1)'],
    ['an ideographic space then =', '\u3000=1+1'],
    ['a full-width =', '＝1+1'],
    ['a full-width +', '＋1'],
    ['a full-width -', '－1'],
    ['a full-width @', '＠SUM(A1)'],
    ['a space then a full-width =', ' ＝HYPERLINK("http://evil.example")'],
    ['a small =', '﹦1+1'],
  ]
  for (const [what, value] of formulas) {
    it(`makes a cell beginning with ${what} inert`, () => {
      assert.equal(readsAsFormula(value), true)
      const cell = csvCell(value)
      const unquoted = cell.startsWith('"') ? cell.slice(1, -1).replaceAll('""', '"') : cell
      assert.equal(unquoted, `'${value}`, 'the value itself is kept, after the quote mark')
    })
  }

  const kept = ['김 체스', 'kim@chess.example', 'a=b', 'x-1', '', '   ', 'issued', '１２３', 'Ｋim']
  for (const value of kept) {
    it(`keeps ${JSON.stringify(value)} as it is`, () => {
      assert.equal(readsAsFormula(value), false)
      assert.equal(csvCell(value), value)
    })
  }

  it('quotes a cell with a comma, a quote or a line break (RFC 4180)', () => {
    assert.equal(csvCell('a,b'), '"a,b"')
    assert.equal(csvCell('say "hi"'), '"say ""hi"""')
    assert.equal(csvCell(' =1,2'), `"' =1,2"`)
  })
})
