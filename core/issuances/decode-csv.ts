/** Bytes decoded between two pauses: 16 MiB at once holds the event loop for a fifth of a second. */
const DECODE_SLICE = 1024 * 1024

/** What a CSV file may be written in: UTF-8, else EUC-KR (Korean spreadsheets save CSV in it). */
export const CSV_ENCODINGS = ['utf-8', 'euc-kr'] as const

/**
 * The text of a CSV file (docs/admin-console.md § Issuing by CSV, docs/decisions/0051-one-csv-path-and-no-null-id.md § One CSV path):
 * UTF-8, with or without a byte order mark (dropped), else EUC-KR; `null` when neither reads it. A slice
 * at a time with `pause` between, the decoder carrying a character split by a slice over. Both the staff
 * console and the admin CLI read their files here.
 */
export async function decodeCsv(bytes: Uint8Array, pause: () => Promise<void> = async () => {}): Promise<string | null> {
  for (const label of CSV_ENCODINGS) {
    const decoder = new TextDecoder(label, { fatal: true })
    const parts: string[] = []
    try {
      for (let start = 0; start < bytes.byteLength; start += DECODE_SLICE) {
        parts.push(decoder.decode(bytes.subarray(start, start + DECODE_SLICE), { stream: true }))
        await pause()
      }
      parts.push(decoder.decode())
      return parts.join('')
    } catch {
      // the next encoding
    }
  }
  return null
}
