/** A record of a CSV file and the line it starts on (the first line is 1), which a quoted line break makes differ from its index. */
export interface CsvRecord {
  line: number
  cells: string[]
}

/** Why a CSV file cannot be read as recipients at all (rather than one row being wrong). */
export type CsvProblem = 'csv-empty' | 'csv-unclosed-quote' | 'csv-missing-column' | 'csv-too-many-rows'

export class CsvError extends SyntaxError {
  constructor(
    readonly code: CsvProblem,
    message: string,
  ) {
    super(message)
    this.name = 'CsvError'
  }
}

/**
 * RFC 4180 CSV: fields separated by commas, records by CRLF or LF, fields in double quotes may hold
 * commas, line breaks and doubled quotes. A UTF-8 byte order mark is dropped, and so are blank lines.
 * Throws `csv-unclosed-quote` on an unclosed quote.
 */
export function parseCsvRecords(text: string): CsvRecord[] {
  const records: CsvRecord[] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  let line = 1
  let start = 1
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0
  const end = () => {
    row.push(field)
    if (row.length > 1 || row[0] !== '') records.push({ line: start, cells: row })
    row = []
    field = ''
  }
  for (; i < text.length; i++) {
    const char = text[i]!
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"'
        i++
      } else if (char === '"') quoted = false
      else {
        if (char === '\n' || (char === '\r' && text[i + 1] !== '\n')) line++
        field += char
      }
    } else if (char === '"' && field === '') quoted = true
    else if (char === ',') {
      row.push(field)
      field = ''
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i++
      end()
      start = ++line
    } else field += char
  }
  if (quoted) throw new CsvError('csv-unclosed-quote', 'CSV: a quoted field is not closed')
  if (field !== '' || row.length > 0) end()
  return records
}

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
 * recipients (`csv-too-many-rows`); no header is `csv-empty`, no `name` or `email` column
 * `csv-missing-column`. The values are as written: their rules are the issue operation's.
 */
export function csvRecipients(text: string, { maxRows = Infinity }: { maxRows?: number } = {}): CsvRecipient[] {
  const [header, ...records] = parseCsvRecords(text)
  if (!header) throw new CsvError('csv-empty', 'CSV: the file is empty')
  const columns = header.cells.map((name) => name.trim())
  const index = (name: string) => columns.indexOf(name)
  for (const required of ['name', 'email']) {
    if (index(required) < 0) throw new CsvError('csv-missing-column', `CSV: the header has no "${required}" column (expected externalUserId,name,email)`)
  }
  if (records.length > maxRows) throw new CsvError('csv-too-many-rows', `CSV: ${records.length} rows, more than ${maxRows}`)
  return records.map(({ line, cells }) => {
    const externalUserId = index('externalUserId') >= 0 ? cells[index('externalUserId')]?.trim() : undefined
    return {
      line,
      ...(externalUserId ? { externalUserId } : {}),
      name: cells[index('name')] ?? '',
      email: cells[index('email')] ?? '',
    }
  })
}

/** Recipients as the issue operation takes them (the admin CLI's `issue --csv`). */
export const recipientsFromCsv = (text: string): { externalUserId?: string; name: string; email: string }[] =>
  csvRecipients(text).map(({ line: _line, ...recipient }) => recipient)
