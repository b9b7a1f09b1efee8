import { ProblemError } from '../../core/errors.ts'
import { contentDisposition } from '../http/routes/files.ts'
import { fileResponse, htmlResponse } from './responses.ts'
import { messagePage, type Words } from './pages.ts'
import type { ConsoleFrame } from './frame.ts'
import type { ConsoleHandlers } from './route-handlers.ts'
import { numericIdOf } from './request-values.ts'

const PENDING: [Words, Words] = [
  { ko: '아직 서명되지 않았습니다', en: 'Not signed yet' },
  { ko: '서명된 뒤에 파일을 내려받을 수 있습니다.', en: 'The file can be downloaded once the credential is signed.' },
]
const BUSY: [Words, Words] = [
  { ko: '잠시 후 다시 시도하세요', en: 'Try again shortly' },
  { ko: '파일을 만드는 요청이 많습니다.', en: 'Many files are being made.' },
]

/**
 * `GET {base}/issuances/{id}/file?format=pdf|png|svg`: the certificate file of the API's file route
 * (docs/api.md §4.6) through the same operation, `issuer.issuances.file`, for the session's club: the API's
 * route takes an OAuth token, the console a session. An unknown issuance, another club's or a format this
 * server does not make (`pdf` without a renderer) is 404.
 */
export function issuanceFileHandlers({ issuer, base, notFound }: ConsoleFrame) {
  return {
    'GET /issuances/:id/file': async (session, request) => {
      const id = numericIdOf(request, 16)
      if (id === null) return notFound(session)
      try {
        const file = await issuer.issuances.file(session.club, id, new URL(request.url).searchParams.get('format'))
        const bytes = await file.render()
        return fileResponse(bytes, { mediaType: file.mediaType, disposition: contentDisposition(file.filename), svg: file.format === 'svg' })
      } catch (error) {
        if (!(error instanceof ProblemError)) throw error
        if (error.code === 'issuance-not-found' || error.code === 'validation-failed') return notFound(session)
        if (error.code === 'credential-pending') return htmlResponse(messagePage(base, ...PENDING, session), 409)
        if (error.code === 'rate-limited' || error.code === 'server-busy') {
          const retryAfter = String((error.extra?.['retryAfter'] as number | undefined) ?? 5)
          return htmlResponse(messagePage(base, ...BUSY, session), error.code === 'rate-limited' ? 429 : 503, { 'retry-after': retryAfter })
        }
        throw error
      }
    },
  } satisfies Partial<ConsoleHandlers>
}
