import { sign, type KeyObject } from 'node:crypto'

/** `header.payload.signature`, base64url, ES256 with the raw `r || s` signature JWS wants. */
export function compactJws(key: KeyObject, encodedHeader: string, payload: string): string {
  const input = `${encodedHeader}.${Buffer.from(payload).toString('base64url')}`
  return `${input}.${sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`
}
