import { ProblemError } from '../../core/errors.ts'
import { fileResponse, htmlResponse, seeOther } from './responses.ts'
import { messagePage, type Words } from './pages.ts'
import { pathIdOf } from './designs.ts'
import type { FilePreview } from '../../core/files/preview-file.ts'
import type { ConsoleFrame } from './frame.ts'
import type { ConsoleHandlers, GuardedHandlers } from './route-handlers.ts'

const BUSY: [Words, Words] = [
  { ko: '잠시 후 다시 시도하세요', en: 'Try again shortly' },
  { ko: '파일을 만드는 요청이 많습니다.', en: 'Many files are being made.' },
]

/**
 * `GET {base}/templates/{id}/preview` and `{base}/designs/{id}/preview`, `?format=png|svg|pdf`
 * (docs/admin-console.md § Previews): the badge and the sample certificate of `issuer.achievements.preview`
 * and `issuer.designs.preview`, for the session's club. Nothing is stored. Another club's id, an unknown
 * one, or a format there is nothing of (a PDF without a renderer, a badge of a certificate design) is 404;
 * a PNG of an SVG badge design is its SVG (303), as an `<img>` of the page asks for the PNG.
 */
export function previewHandlers({ issuer, base, notFound }: ConsoleFrame) {
  const route =
    (preview: (club: string, id: number, format: string | null) => Promise<FilePreview>): GuardedHandlers['session'] =>
    async (session, request) => {
      const id = pathIdOf(request)
      if (id === null) return notFound(session)
      const url = new URL(request.url)
      try {
        return previewResponse(await preview(session.club, id, url.searchParams.get('format')))
      } catch (error) {
        if (!(error instanceof ProblemError)) throw error
        if (error.code === 'validation-failed' && error.errors?.some((field) => field.message === 'no-png-badge')) {
          return seeOther(`${url.pathname}?format=svg`)
        }
        if (['achievement-not-found', 'design-not-found', 'validation-failed'].includes(error.code)) return notFound(session)
        if (error.code === 'server-busy') return htmlResponse(messagePage(base, ...BUSY, session), 503, { 'retry-after': '1' })
        throw error
      }
    }
  return {
    'GET /templates/:id/preview': route((club, id, format) => issuer.achievements.preview(club, id, format)),
    'GET /designs/:id/preview': route((club, id, format) => issuer.designs.preview(club, id, format)),
  } satisfies Partial<ConsoleHandlers>
}

/** Shown in the page or opened in the browser (`inline`). */
function previewResponse(preview: FilePreview): Response {
  return fileResponse(preview.bytes, { mediaType: preview.mediaType, disposition: `inline; filename="${preview.filename}"`, svg: preview.format === 'svg' })
}
