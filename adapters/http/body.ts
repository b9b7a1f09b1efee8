import { ProblemError } from '../../core/errors.ts'
import { MAX_JSON_DEPTH } from '../../core/json-depth.ts'

/**
 * Reads a request body of at most `maxBytes`, counting bytes as they arrive (a missing or lying
 * Content-Length cannot get more through). Throws 413 `payload-too-large`.
 */
export async function readBody(request: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get('content-length') ?? 0)
  if (declared > maxBytes) throw tooLarge(maxBytes)
  if (!request.body) return new Uint8Array(0)
  const chunks: Uint8Array[] = []
  let size = 0
  const reader = request.body.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > maxBytes) {
      await reader.cancel()
      throw tooLarge(maxBytes)
    }
    chunks.push(value)
  }
  const body = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    body.set(chunk, offset)
    offset += chunk.byteLength
  }
  return body
}

function tooLarge(maxBytes: number): ProblemError {
  return new ProblemError('payload-too-large', { detail: `The request body exceeds ${maxBytes} bytes.` })
}

/** The media type of the request without parameters, lower case; `''` when absent. */
export function mediaType(request: Request): string {
  return (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
}

const isJsonType = (type: string) => type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'))

/**
 * Parses a JSON body: 415 `unsupported-media-type` unless the content type is JSON, 413 when too large,
 * 400 `invalid-json` when it does not parse or nests deeper than `MAX_JSON_DEPTH`. With `optional`, an
 * empty body (any content type) is `undefined`.
 */
export async function readJson(request: Request, maxBytes: number, { optional = false } = {}): Promise<unknown> {
  const type = mediaType(request)
  if (optional && type === '') {
    const bytes = await readBody(request, maxBytes)
    if (bytes.length === 0) return undefined
  }
  if (!isJsonType(type)) {
    throw new ProblemError('unsupported-media-type', { detail: 'Send the body as application/json.' })
  }
  const bytes = await readBody(request, maxBytes)
  if (optional && bytes.length === 0) return undefined
  let text: string
  let value: unknown
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    value = JSON.parse(text)
  } catch (error) {
    throw new ProblemError('invalid-json', { detail: 'The request body is not valid UTF-8 JSON.', cause: error })
  }
  // Checked on the text, before anything walks the value: every later walk may then recurse safely.
  if (nestingDepth(text) > MAX_JSON_DEPTH) {
    throw new ProblemError('invalid-json', { detail: `The request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.` })
  }
  return value
}

/**
 * A JSON body (as `readJson` reads it) handed to a library operation as the operation's input type,
 * unchecked: the types are for in-process callers, a request body is whatever the client sent, and the
 * operation validates what it receives at run time (422 `validation-failed`) as it does for JavaScript
 * callers (docs/decisions/0028-public-api-and-runtime-boundary.md).
 */
export async function readInput<Input>(request: Request, maxBytes: number, options: { optional?: boolean } = {}): Promise<Input> {
  return (await readJson(request, maxBytes, options)) as Input
}

/** The deepest nesting of arrays and objects in well-formed JSON text; brackets inside strings do not count. */
function nestingDepth(text: string): number {
  let depth = 0
  let deepest = 0
  let inString = false
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index)
    if (inString) {
      if (char === 0x5c)
        index++ // a backslash escapes the next character
      else if (char === 0x22) inString = false
    } else if (char === 0x22) {
      inString = true
    } else if (char === 0x5b || char === 0x7b) {
      depth++
      if (depth > deepest) deepest = depth
    } else if (char === 0x5d || char === 0x7d) {
      depth--
    }
  }
  return deepest
}
