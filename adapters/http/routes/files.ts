import { authorizeClubOperation } from '../auth.ts'
import { ifNoneMatch } from '../conditional.ts'
import { numericId, param, type RouteTable } from '../router.ts'
import type { CoreIssuer } from '../../../core/issuer.ts'

/**
 * The certificate file (interface-spec §4.6; DESIGN §5 scope `issuance:read`):
 * `GET .../issuances/{id}/file?format=pdf|png|svg`, an attachment with a strong ETag. A file is a function
 * of the immutable credential and its status, so clients revalidate (`no-cache`) and get a 304 without
 * the file being rendered again; `private`, because it names the recipient.
 */
export function fileRoutes(issuer: CoreIssuer, routes: RouteTable, clubPath: string): void {
  routes.add('GET', `${clubPath}/issuances/:id/file`, async (request) => {
    const club = param(request, 'clubDomain')
    await authorizeClubOperation(issuer, request, club, 'issuance:read')
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
        // A badge SVG opened directly must not run anything, whatever an uploaded design holds.
        ...(file.format === 'svg' ? { 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:" } : {}),
      },
    })
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
