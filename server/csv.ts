/**
 * RFC 4180 CSV: fields separated by commas, records by CRLF or LF, fields in double quotes may hold
 * commas, line breaks and doubled quotes. A UTF-8 byte order mark is dropped. Throws on an unclosed quote.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0
  for (; i < text.length; i++) {
    const char = text[i]!
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"'
        i++
      } else if (char === '"') quoted = false
      else field += char
    } else if (char === '"' && field === '') quoted = true
    else if (char === ',') {
      row.push(field)
      field = ''
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i++
      row.push(field)
      rows.push(row)
      row = []
      field = ''
    } else field += char
  }
  if (quoted) throw new SyntaxError('CSV: a quoted field is not closed')
  if (field !== '' || row.length > 0) {
    row.push(field)
    rows.push(row)
  }
  return rows.filter((cells) => cells.length > 1 || cells[0] !== '')
}

/** Recipients from a CSV with the header `externalUserId,name,email` (docs/decisions/0002-admin-cli.md); columns in any order. */
export function recipientsFromCsv(text: string): { externalUserId?: string; name: string; email: string }[] {
  const [header, ...records] = parseCsv(text)
  if (!header) throw new SyntaxError('CSV: the file is empty')
  const columns = header.map((name) => name.trim())
  const index = (name: string) => columns.indexOf(name)
  for (const required of ['name', 'email']) {
    if (index(required) < 0) throw new SyntaxError(`CSV: the header has no "${required}" column (expected externalUserId,name,email)`)
  }
  return records.map((cells) => {
    const externalUserId = index('externalUserId') >= 0 ? cells[index('externalUserId')]?.trim() : undefined
    return {
      ...(externalUserId ? { externalUserId } : {}),
      name: cells[index('name')] ?? '',
      email: cells[index('email')] ?? '',
    }
  })
}
