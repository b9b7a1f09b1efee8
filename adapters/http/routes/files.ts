import { ifNoneMatch } from '../conditional.ts'
import { numericId } from '../router.ts'
import { SVG_CONTENT_SECURITY_POLICY } from '../security-headers.ts'
import type { ScopedCall } from '../operation.ts'

/**
 * The certificate file (docs/api.md §4.6; scope `issuance:read`, docs/decisions/0003-scopes-per-operation.md):
 * `GET .../issuances/{id}/file?format=pdf|png|svg`, an attachment with a strong ETag. A file is a function
 * of the immutable credential and its status, so clients revalidate (`no-cache`) and get a 304 without
 * the file being rendered again; `private`, because it names the recipient.
 */
export async function downloadFile({ issuer, request, club }: ScopedCall): Promise<Response> {
  const file = await issuer.issuances.file(club, numericId(request), new URL(request.url).searchParams.get('format'))
  const headers: Record<string, string> = { etag: file.etag, 'cache-control': 'private, no-cache' }
  if (ifNoneMatch(request, file.etag)) return new Response(null, { status: 304, headers })
  const bytes = await file.render()
  return new Response(bytes as Uint8Array<ArrayBuffer>, {
    status: 200,
    headers: {
      ...headers,
      'content-type': file.format === 'svg' ? `${file.mediaType}; charset=utf-8` : file.mediaType,
      'content-length': String(bytes.length),
      'content-disposition': contentDisposition(file.filename),
      ...(file.format === 'svg' ? { 'content-security-policy': SVG_CONTENT_SECURITY_POLICY } : {}),
    },
  })
}

/**
 * `attachment` with an ASCII `filename` for old clients and the full UTF-8 name as `filename*`
 * (RFC 6266 §4.3, RFC 8187): percent-encoded, including the characters RFC 8187 `attr-char` leaves out.
 */
export function contentDisposition(filename: { ascii: string; utf8: string }): string {
  const ascii = filename.ascii.replace(/[^\x20-\x7e]|["\\]/g, '_')
  const encoded = encodeURIComponent(filename.utf8).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`
}
