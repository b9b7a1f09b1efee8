import { ProblemError } from '../../core/errors.ts'
import { readBody } from '../http/body.ts'

/** A file of a multipart form, read whole (the form's size limit bounds it). */
export interface UploadedFile {
  /** The name the browser sent (for messages only: never a path on this server). */
  filename: string
  /** The part's Content-Type as sent, lower case; `''` when absent. */
  mediaType: string
  bytes: Uint8Array
}

/** A form as posted: its text fields, and a multipart form's files by field name (empty for a url-encoded form). */
export interface PostedForm {
  form: URLSearchParams
  files: Map<string, UploadedFile>
}

/**
 * Reads a `multipart/form-data` body of at most `maxBytes` (counted as it arrives): text fields into
 * `form`, files into `files`. A file input left empty (a part with no file name and no bytes) is no file.
 * `too-large` past the limit, `malformed` when it does not parse as multipart.
 */
export async function readMultipartForm(request: Request, maxBytes: number): Promise<PostedForm | 'too-large' | 'malformed'> {
  let bytes: Uint8Array
  try {
    bytes = await readBody(request, maxBytes)
  } catch (error) {
    if (error instanceof ProblemError && error.code === 'payload-too-large') return 'too-large'
    throw error
  }
  const boundary = boundaryOf(request.headers.get('content-type') ?? '')
  return boundary === null ? 'malformed' : parseMultipart(bytes, boundary)
}

/** The `boundary` parameter of a multipart media type (RFC 2046 §5.1.1: 1 to 70 characters), or `null`. */
function boundaryOf(contentType: string): string | null {
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(contentType)
  return match ? (match[1] ?? match[2]!) : null
}

const ascii = (text: string) => Uint8Array.from(text, (char) => char.charCodeAt(0))
const CRLF = ascii('\r\n')
const HEADERS_END = ascii('\r\n\r\n')

/** Where `needle` first occurs in `bytes` at or after `from`, or -1: the first byte found natively, then the rest compared. */
function indexOfBytes(bytes: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0]!
  for (let at = bytes.indexOf(first, from); at >= 0 && at + needle.length <= bytes.length; at = bytes.indexOf(first, at + 1)) {
    let i = 1
    while (i < needle.length && bytes[at + i] === needle[i]) i++
    if (i === needle.length) return at
  }
  return -1
}

const startsWithAt = (bytes: Uint8Array, needle: Uint8Array, at: number) => needle.every((byte, i) => bytes[at + i] === byte)

/**
 * RFC 7578 over bytes already bounded, in one pass without copying: each part's content is a view of
 * the body, so that a 16 MiB file costs no second 16 MiB (the platform's parser, `Response.formData()`,
 * copied the file twice and held the event loop for a tenth of a second or more on such a body).
 */
function parseMultipart(bytes: Uint8Array, boundary: string): PostedForm | 'malformed' {
  const delimiter = ascii(`--${boundary}`)
  const between = ascii(`\r\n--${boundary}`)
  const posted: PostedForm = { form: new URLSearchParams(), files: new Map() }
  const text = new TextDecoder()
  // The first delimiter opens the body or follows a preamble's line break.
  let at = startsWithAt(bytes, delimiter, 0) ? 0 : indexOfBytes(bytes, between, 0) + 2
  if (at < 2 && at !== 0) return 'malformed'
  for (;;) {
    at += delimiter.length
    if (bytes[at] === 0x2d && bytes[at + 1] === 0x2d) return posted
    if (!startsWithAt(bytes, CRLF, at)) return 'malformed'
    const headersEnd = indexOfBytes(bytes, HEADERS_END, at)
    if (headersEnd < 0) return 'malformed'
    const headers = text.decode(bytes.subarray(at + 2, headersEnd))
    const contentStart = headersEnd + 4
    const contentEnd = indexOfBytes(bytes, between, contentStart)
    if (contentEnd < 0) return 'malformed'
    const part = partOf(headers)
    if (!part) return 'malformed'
    const content = bytes.subarray(contentStart, contentEnd)
    if (part.filename === null) posted.form.append(part.name, text.decode(content))
    else if (part.filename !== '' || content.byteLength > 0) posted.files.set(part.name, { filename: part.filename, mediaType: part.mediaType, bytes: content })
    at = contentEnd + 2
  }
}

/** A part's name, file name (`null` for a text field) and media type, from its headers; `null` without a form-data disposition. */
function partOf(headers: string): { name: string; filename: string | null; mediaType: string } | null {
  const lines = headers.split('\r\n')
  const header = (name: string) =>
    lines
      .find((line) => line.toLowerCase().startsWith(`${name}:`))
      ?.slice(name.length + 1)
      .trim() ?? null
  const disposition = header('content-disposition')
  if (disposition === null || !/^form-data\s*(;|$)/i.test(disposition)) return null
  const parameter = (name: string) => new RegExp(`;\\s*${name}="([^"]*)"`, 'i').exec(disposition)?.[1] ?? null
  const name = parameter('name')
  if (name === null) return null
  // Browsers write `"`, CR and LF in names as %22, %0D and %0A (the HTML standard's multipart encoding).
  const unescape = (value: string) => value.replace(/%22/g, '"').replace(/%0D/gi, '\r').replace(/%0A/gi, '\n')
  const filename = parameter('filename')
  return { name: unescape(name), filename: filename === null ? null : unescape(filename), mediaType: (header('content-type') ?? '').toLowerCase() }
}
