import * as v from 'valibot'
import { ProblemError } from '../../core/errors.ts'

/** NestJS's error shape (docs/api.md §7.5): `error` the status's reason phrase, `message` Korean text. */
export const legacyErrorSchema = v.object({ statusCode: v.pipe(v.number(), v.integer()), message: v.string(), error: v.string() })

/** The legacy creation answer (docs/api.md §4.13): HTTP 201, `message` Korean text. */
export const legacyFormCreatedSchema = v.object({ statusCode: v.literal(201), message: v.string(), achievementFormId: v.number() })

/**
 * The legacy operation answers in NestJS's shape, `{ statusCode, message, error }` (docs/api.md
 * §7.5), with Korean messages like its success answer. The one serializer of that shape.
 */
export function legacyErrorResponse(error: unknown, onError: (error: unknown) => void): Response {
  const [status, message] = legacyError(error)
  if (status === 500) onError(error)
  const body: v.InferOutput<typeof legacyErrorSchema> = { statusCode: status, message, error: REASONS[status]! }
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  })
}

const REASONS: Record<number, string> = { 400: 'Bad Request', 401: 'Unauthorized', 404: 'Not Found', 500: 'Internal Server Error' }

export const LEGACY_MESSAGES = {
  invalid: '잘못된 요청입니다. 필수 항목이 빠졌거나 값이 올바르지 않습니다.',
  prefixLetters: 'prefix는 영문자만 사용할 수 있습니다.',
  prefixLength: 'prefix는 최대 5자까지 입력할 수 있습니다.',
  invalidToken: 'Invalid token',
  invalidForm: '유효하지 않은 폼 ID입니다. 도메인 정보를 확인해 주세요.',
  certificateDesign: '인증서 디자인을 찾을 수 없습니다.',
  badgeDesign: '배지 디자인을 찾을 수 없습니다.',
  unexpected: '예상치 못한 오류가 발생했습니다.',
  created: '업적 양식이 생성되었습니다.',
} as const

/** A failed legacy API-key check. */
export class LegacyUnauthorized extends Error {
  constructor() {
    super('Invalid token')
    this.name = this.constructor.name
  }
}

function legacyError(error: unknown): [number, string] {
  if (error instanceof LegacyUnauthorized) return [401, LEGACY_MESSAGES.invalidToken]
  if (!(error instanceof ProblemError)) return [500, LEGACY_MESSAGES.unexpected]
  const codes = (error.errors ?? []).map((item) => ({ code: item.message, path: item.path }))
  const design = codes.find((item) => item.code === 'design-not-found' || item.code === 'design-kind-mismatch')
  if (design) return [404, design.path === 'achievementBadgeDesignId' ? LEGACY_MESSAGES.badgeDesign : LEGACY_MESSAGES.certificateDesign]
  if (codes.some((item) => item.code === 'prefix-letters-only')) return [400, LEGACY_MESSAGES.prefixLetters]
  if (codes.some((item) => item.code === 'prefix-too-long')) return [400, LEGACY_MESSAGES.prefixLength]
  switch (error.code) {
    case 'validation-failed':
      return [400, `${LEGACY_MESSAGES.invalid} (${codes.map((item) => `${item.path || 'body'}: ${item.code}`).join(', ')})`]
    case 'invalid-json':
    case 'unsupported-media-type':
    case 'payload-too-large':
      return [400, LEGACY_MESSAGES.invalid]
    case 'club-not-found':
      return [404, LEGACY_MESSAGES.invalidForm]
    default:
      return [500, LEGACY_MESSAGES.unexpected]
  }
}
