/** A record of a CSV file and the line it starts on (the first line is 1), which a quoted line break makes differ from its index. */
export interface CsvRecord {
  line: number
  cells: string[]
}

/** Why a CSV file cannot be read as recipients at all (rather than one row being wrong). */
export type CsvProblem = 'csv-empty' | 'csv-no-rows' | 'csv-unclosed-quote' | 'csv-missing-column' | 'csv-too-many-rows'

export class CsvError extends SyntaxError {
  constructor(
    readonly code: CsvProblem,
    message: string,
  ) {
    super(message)
    this.name = 'CsvError'
  }
}

const QUOTE = 0x22
const COMMA = 0x2c
const LF = 0x0a
const CR = 0x0d

/**
 * RFC 4180 CSV: fields separated by commas, records by CRLF or LF, fields in double quotes may hold
 * commas, line breaks and doubled quotes. A UTF-8 byte order mark is dropped, and so are blank lines.
 * Throws `csv-unclosed-quote` on an unclosed quote. One record at a time, so that a caller reading a
 * large file can let other work run between records; unquoted text is sliced, not built a character
 * at a time (16 MiB is read in tens of milliseconds).
 */
export function* csvRecords(text: string): Generator<CsvRecord> {
  let row: string[] = []
  let field = ''
  /** Where the text not yet added to `field` starts. */
  let from = text.charCodeAt(0) === 0xfeff ? 1 : 0
  let quoted = false
  let line = 1
  let start = 1
  for (let i = from; i < text.length; i++) {
    const char = text.charCodeAt(i)
    if (quoted) {
      if (char === QUOTE) {
        field += text.slice(from, i)
        if (text.charCodeAt(i + 1) === QUOTE) {
          field += '"'
          i++
        } else quoted = false
        from = i + 1
      } else if (char === LF || (char === CR && text.charCodeAt(i + 1) !== LF)) line++
    } else if (char === QUOTE && field === '' && from === i) {
      quoted = true
      from = i + 1
    } else if (char === COMMA) {
      row.push(field + text.slice(from, i))
      field = ''
      from = i + 1
    } else if (char === LF || char === CR) {
      row.push(field + text.slice(from, i))
      if (char === CR && text.charCodeAt(i + 1) === LF) i++
      if (row.length > 1 || row[0] !== '') yield { line: start, cells: row }
      row = []
      field = ''
      from = i + 1
      start = ++line
    }
  }
  if (quoted) throw new CsvError('csv-unclosed-quote', 'CSV: a quoted field is not closed')
  field += text.slice(from)
  if (field !== '' || row.length > 0) {
    row.push(field)
    if (row.length > 1 || row[0] !== '') yield { line: start, cells: row }
  }
}

/** Every record of the text: `csvRecords` at once. */
export const parseCsvRecords = (text: string): CsvRecord[] => [...csvRecords(text)]

/** The records' cells only. */
export const parseCsv = (text: string): string[][] => parseCsvRecords(text).map((record) => record.cells)

/** One recipient of a CSV file and the line its record starts on. */
export interface CsvRecipient {
  line: number
  externalUserId?: string
  name: string
  email: string
}

/**
 * Recipients from a CSV with the header `externalUserId,name,email` (docs/decisions/0002-admin-cli.md);
 * columns in any order, `externalUserId` optional (trimmed, and left out when empty). At most `maxRows`
 * recipients (`csv-too-many-rows`, thrown on the record after them); no header is `csv-empty`, no `name`
 * or `email` column `csv-missing-column`. The values are as written: their rules are the issue operation's.
 */
function* recipientsOf(text: string, maxRows: number): Generator<CsvRecipient> {
  const records = csvRecords(text)
  const header = records.next()
  if (header.done) throw new CsvError('csv-empty', 'CSV: the file is empty')
  const columns = header.value.cells.map((name) => name.trim())
  const index = (name: string) => columns.indexOf(name)
  for (const required of ['name', 'email']) {
    if (index(required) < 0) throw new CsvError('csv-missing-column', `CSV: the header has no "${required}" column (expected externalUserId,name,email)`)
  }
  const [idAt, nameAt, emailAt] = [index('externalUserId'), index('name'), index('email')]
  let count = 0
  for (const { line, cells } of records) {
    if (++count > maxRows) throw new CsvError('csv-too-many-rows', `CSV: more than ${maxRows} rows`)
    const externalUserId = idAt >= 0 ? cells[idAt]?.trim() : undefined
    yield { line, ...(externalUserId ? { externalUserId } : {}), name: cells[nameAt] ?? '', email: cells[emailAt] ?? '' }
  }
}

/** The recipients of a CSV (`recipientsOf` above), at once. */
export function csvRecipients(text: string, { maxRows = Infinity }: { maxRows?: number } = {}): CsvRecipient[] {
  return [...recipientsOf(text, maxRows)]
}

/**
 * The recipients of a CSV as `csvRecipients` reads them, awaiting `pause` after every `every` records:
 * a server reading a file of megabytes lets its other requests run in between (docs/admin-console.md
 * § Issuing by CSV).
 */
export async function csvRecipientsPaced(
  text: string,
  { maxRows = Infinity, pause, every = 500 }: { maxRows?: number; pause: () => Promise<void>; every?: number },
): Promise<CsvRecipient[]> {
  const recipients: CsvRecipient[] = []
  for (const recipient of recipientsOf(text, maxRows)) {
    if (recipients.push(recipient) % every === 0) await pause()
  }
  return recipients
}
