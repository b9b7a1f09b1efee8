/**
 * Which addresses a webhook may reach (issue 17): public unicast only, unless the operator allows
 * private ones. Refused: loopback, private (RFC 1918, unique local), link-local (cloud metadata lives
 * at 169.254.169.254 and fd00:ec2::254), shared (CGNAT), unspecified, multicast and reserved ranges.
 */
const V4_REFUSED: [number, number][] = [
  [0x00000000, 8], // "this" network
  [0x0a000000, 8], // private
  [0x64400000, 10], // shared address space
  [0x7f000000, 8], // loopback
  [0xa9fe0000, 16], // link-local, metadata
  [0xac100000, 12], // private
  [0xc0000000, 24], // IETF protocol assignments
  [0xc0000200, 24], // documentation
  [0xc0a80000, 16], // private
  [0xc6120000, 15], // benchmarking
  [0xc6336400, 24], // documentation
  [0xcb007100, 24], // documentation
  [0xe0000000, 4], // multicast
  [0xf0000000, 4], // reserved, broadcast
]

function parseV4(address: string): number | null {
  const parts = address.split('.')
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return null
  return parts.reduce((n, p) => n * 256 + Number(p), 0)
}

function parseV6(address: string): number[] | null {
  let text = address.replace(/^\[|\]$/g, '').toLowerCase()
  if (text.includes('%')) text = text.slice(0, text.indexOf('%'))
  const v4Tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)
  if (v4Tail) {
    const v4 = parseV4(v4Tail[1]!)
    if (v4 === null) return null
    text = text.slice(0, -v4Tail[1]!.length) + `${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`
  }
  const halves = text.split('::')
  if (halves.length > 2) return null
  const head = halves[0] ? halves[0].split(':') : []
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : []
  const missing = 8 - head.length - tail.length
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null
  const groups = [...head, ...Array(halves.length === 2 ? missing : 0).fill('0'), ...tail]
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null
  return groups.map((g) => parseInt(g, 16))
}

/** Whether an IP address (v4 or v6 text) is public unicast; `false` for anything that does not parse. */
export function isPublicAddress(address: string): boolean {
  const v4 = parseV4(address)
  if (v4 !== null) return !V4_REFUSED.some(([net, bits]) => v4 >>> (32 - bits) === net >>> (32 - bits))
  const g = parseV6(address)
  if (!g) return false
  if (g.slice(0, 6).every((x) => x === 0)) return false // unspecified, loopback, IPv4-compatible
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return isPublicAddress(`${g[6]! >> 8}.${g[6]! & 255}.${g[7]! >> 8}.${g[7]! & 255}`)
  if (g[0] === 0x64 && g[1] === 0xff9b) return isPublicAddress(`${g[6]! >> 8}.${g[6]! & 255}.${g[7]! >> 8}.${g[7]! & 255}`) // NAT64
  if ((g[0]! & 0xfe00) === 0xfc00) return false // unique local, AWS metadata fd00:ec2::254
  if ((g[0]! & 0xffc0) === 0xfe80) return false // link-local
  if ((g[0]! & 0xff00) === 0xff00) return false // multicast
  if (g[0] === 0x2001 && g[1] === 0xdb8) return false // documentation
  return true
}

/** Whether the host is an IP literal (v4, or v6 in brackets as URLs write it). */
export const isIpLiteral = (host: string): boolean => parseV4(host) !== null || parseV6(host) !== null

/** Names that always mean this machine or a metadata service, whatever DNS says. */
export const isLocalName = (host: string): boolean => /(^|\.)localhost\.?$/i.test(host) || /^metadata(\.google\.internal)?\.?$/i.test(host)
