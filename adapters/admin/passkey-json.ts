import { jsonResponse } from './responses.ts'
import type { Words } from './pages.ts'

/** A passkey endpoint's body is a credential of a few kilobytes and a name: far below this. */
const MAX_JSON_BYTES = 64 * 1024

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  410: 'Gone',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
}

/**
 * An RFC 9457 problem of the console's JSON endpoints: `code` names the case, `messages` says it in
 * Korean and English for the script to show beside the button.
 */
export function passkeyProblem(status: number, code: string, messages: Words, headers: Record<string, string> = {}): Response {
  const body = { type: 'about:blank', title: TITLES[status] ?? 'Error', status, code, detail: messages.en, messages }
  return jsonResponse(body, status, { 'content-type': 'application/problem+json', ...headers })
}

export const FORBIDDEN_JSON = () =>
  passkeyProblem(403, 'forbidden', {
    ko: '요청을 처리할 수 없습니다. 페이지를 새로 고친 뒤 다시 시도하세요.',
    en: 'Request refused. Reload the page and try again.',
  })

const INVALID_REQUEST = (detail: string) => passkeyProblem(400, 'invalid-request', { ko: '요청 형식이 올바르지 않습니다.', en: detail })

/** The fields of a passkey endpoint's body. */
export interface PasskeyBody {
  text(name: string): string
  credential(): unknown
}

/**
 * The JSON object a POST from the public origin carries, or the refusal to send instead: 403 for another
 * origin (before anything is read), 415 unless `application/json`, 413 over 64 KiB, 400 when it is not a
 * JSON object. A cross-site page cannot send such a body without the browser asking first (CORS), which
 * the console never allows.
 */
export async function passkeyBodyOf(request: Request, origin: string): Promise<PasskeyBody | Response> {
  if (request.headers.get('origin') !== origin) return FORBIDDEN_JSON()
  const type = (request.headers.get('content-type') ?? '').toLowerCase()
  if (!type.startsWith('application/json')) return passkeyProblem(415, 'unsupported-media-type', { ko: 'JSON으로 보내야 합니다.', en: 'Send JSON.' })
  if (Number(request.headers.get('content-length') ?? 0) > MAX_JSON_BYTES) return tooLarge()
  const text = await request.text()
  if (text.length > MAX_JSON_BYTES) return tooLarge()
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return INVALID_REQUEST('The body is not JSON.')
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return INVALID_REQUEST('The body is not a JSON object.')
  const fields = body as Record<string, unknown>
  for (const name of ['name', 'email', 'token']) {
    if (fields[name] !== undefined && typeof fields[name] !== 'string') return INVALID_REQUEST(`"${name}" must be a string.`)
  }
  return {
    text: (name) => (fields[name] as string | undefined) ?? '',
    credential: () => fields['credential'],
  }
}

const tooLarge = () => passkeyProblem(413, 'payload-too-large', { ko: '요청이 너무 큽니다.', en: 'The request is too large.' })

/** A credential as the endpoints accept it: an object with a string id and a response object; else a 400. */
export function credentialProblem(credential: unknown): Response | null {
  const candidate = credential as { id?: unknown; response?: unknown } | null
  if (
    typeof candidate !== 'object' ||
    candidate === null ||
    typeof candidate.id !== 'string' ||
    typeof candidate.response !== 'object' ||
    candidate.response === null
  ) {
    return INVALID_REQUEST('"credential" must be a WebAuthn credential as JSON.')
  }
  return null
}
