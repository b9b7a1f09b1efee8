/**
 * The one CSV path of the staff console and the admin CLI (docs/decisions/0051-one-csv-path-and-no-null-id.md
 * § One CSV path): the file decoded from UTF-8 (a byte order mark or not) or EUC-KR, each recipient
 * known by the line its record starts on, judged and issued in chunks of the issue operation's largest
 * batch, each under its own key, a chunk issued again replaying rather than issuing twice.
 */
import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { decodeCsv } from '../../../core/issuances/decode-csv.ts'
import { csvRecipients } from '../../../core/issuances/recipients-csv.ts'
import { issueCsv, judgeCsv, type CsvChunkIssued, type CsvIssueInput, type IssueOperation } from '../../../core/issuances/issue-csv.ts'
import { issueKeyed } from '../../../core/issuances/issue-keyed.ts'
import { MAX_RECIPIENTS } from '../../../core/issuances/schema.ts'
import { createCoreHarness, type CoreHarness } from '../../support/core-issuer.ts'

const utf8 = (text: string) => new TextEncoder().encode(text)

describe('decodeCsv', () => {
  it('reads UTF-8 with or without a byte order mark, else EUC-KR, else nothing', async () => {
    assert.equal(await decodeCsv(utf8('name,email\n김민준,k@example.com\n')), 'name,email\n김민준,k@example.com\n')
    assert.equal(await decodeCsv(Uint8Array.from([0xef, 0xbb, 0xbf, ...utf8('name\n김')])), 'name\n김', 'the mark dropped')
    // 김민준 in EUC-KR, as `iconv -f UTF-8 -t EUC-KR` gives it: not UTF-8.
    assert.equal(await decodeCsv(Uint8Array.from([...utf8('name\n'), 0xb1, 0xe8, 0xb9, 0xce, 0xc1, 0xd8])), 'name\n김민준')
    assert.equal(await decodeCsv(Uint8Array.from([...utf8('name\n'), 0xff, 0x80])), null)
  })

  it('carries a character split by a slice over, and pauses between slices', async () => {
    // 김 is three bytes in UTF-8; placed across the first slice's end (1 MiB).
    const text = 'a'.repeat(1024 * 1024 - 1) + '김' + 'b'.repeat(10)
    let pauses = 0
    assert.equal(await decodeCsv(utf8(text), async () => void pauses++), text)
    assert.equal(pauses, 2)
  })
})

describe('judging and issuing a CSV in chunks', () => {
  let h: CoreHarness
  let templateId: number
  beforeEach(async () => {
    h = createCoreHarness()
    await h.issuer.clubs.create({ domain: 'chess', name: 'Chess' })
    templateId = (await h.issuer.achievements.create('chess', { name: 'Opening', description: 'Studied the main openings.' })).id
  })
  afterEach(() => h.close())

  /** A header, a row whose quoted note spans two lines, MAX_RECIPIENTS rows, and one bad e-mail last: two chunks. */
  function input(): CsvIssueInput {
    const rows = Array.from({ length: MAX_RECIPIENTS }, (_, i) => `m-${i},Member ${i},m${i}@example.com`)
    const text = ['externalUserId,name,email,note', 'q-1,Kim Minjun,q1@example.com,"two', 'lines"', ...rows, 'bad,Bad,not-an-address'].join('\n')
    return { achievementFormId: templateId, mode: 'none', recipients: csvRecipients(text) }
  }
  const issue: IssueOperation = (club, body, key) => issueKeyed(h.context, club, body, key)

  it('issues each chunk under its own key, its outcomes beside the lines their rows start on; judging first foretells them and stores nothing', async () => {
    const file = input()
    const judged = await judgeCsv(h.context, 'chess', file, async () => {})
    assert.equal((await h.issuer.issuances.list('chess')).data.length, 0, 'judging stores nothing')

    const chunks: CsvChunkIssued[] = []
    const keys: number[] = []
    await issueCsv(issue, 'chess', file, {
      idempotencyScope: 'test',
      keyOf: (index) => {
        keys.push(index)
        return `file-1 ${index}`
      },
      issued: (chunk) => void chunks.push(chunk),
    })
    assert.deepEqual(keys, [0, 1])
    assert.deepEqual(
      chunks.map(({ index, outcomes }) => [index, outcomes.length]),
      [
        [0, MAX_RECIPIENTS],
        [1, 2],
      ],
    )
    const outcomes = chunks.flatMap((chunk) => chunk.outcomes)
    assert.deepEqual(outcomes[0]!.recipient, { line: 2, externalUserId: 'q-1', name: 'Kim Minjun', email: 'q1@example.com' })
    assert.equal(outcomes[1]!.recipient.line, 4, 'the row after the quoted line break starts on line 4')
    const last = outcomes.at(-1)!
    assert.deepEqual([last.recipient.line, last.item.status, last.item.error?.code], [MAX_RECIPIENTS + 4, 'failed', 'invalid-email'])
    assert.deepEqual(chunks[1]!.result.summary, { total: 2, ok: 1, skipped: 0, failed: 1 })
    assert.deepEqual(
      judged.map(({ recipient, item }) => [recipient.line, item.status]),
      outcomes.map(({ recipient, item }) => [recipient.line, item.status]),
    )

    // The same file again under the same keys replays: the same outcomes, nothing issued twice.
    const again: CsvChunkIssued[] = []
    await issueCsv(issue, 'chess', file, { idempotencyScope: 'test', keyOf: (index) => `file-1 ${index}`, issued: (chunk) => void again.push(chunk) })
    assert.deepStrictEqual(
      again.map((chunk) => chunk.outcomes),
      chunks.map((chunk) => chunk.outcomes),
    )
    assert.equal(await countIssued(), MAX_RECIPIENTS + 1)
  })

  it('passes over the chunks `skip` names, asked just before each', async () => {
    const seen: number[] = []
    await issueCsv(issue, 'chess', input(), {
      idempotencyScope: 'test',
      keyOf: (index) => `file-2 ${index}`,
      skip: (chunk) => chunk[0]!.line === 2,
      issued: ({ index }) => void seen.push(index),
    })
    assert.deepEqual(seen, [1])
    assert.equal(await countIssued(), 1)
  })

  /** Every issuance of the club, counted page by page. */
  async function countIssued(): Promise<number> {
    let count = 0
    for (let cursor: string | null = null; ;) {
      const page = await h.issuer.issuances.list('chess', { limit: '100', cursor })
      count += page.data.length
      cursor = page.meta.nextCursor
      if (!cursor) return count
    }
  }
})
