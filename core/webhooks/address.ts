import ipaddr from 'ipaddr.js'

/**
 * Which addresses a webhook may reach: public unicast only, unless the operator allows private ones
 * (docs/webhooks.md § Address safety). ipaddr.js keeps the table of special ranges; only its `unicast`
 * is public, for both families. On top of its table:
 *
 * - IPv4-mapped (`::ffff:0:0/96`) and NAT64 (`64:ff9b::/96`, what DNS64 answers for an IPv4-only host)
 *   carry an IPv4 address that is the real destination: they are unwrapped, and that IPv4 must be public.
 * - Every other IPv6 form that reaches an IPv4 host is refused whole: IPv4-compatible (`::/96`),
 *   IPv4-translated (`::ffff:0:0:0/96`), 6to4 (`2002::/16`), Teredo (`2001::/32`), NAT64 local use
 *   (`64:ff9b:1::/48`). They are deprecated or tunnels whose far end this process cannot see.
 * - IPv6 must also lie in `2000::/3`, the only block IANA hands out as global unicast; ipaddr.js calls
 *   `::7f00:1` or `4000::1` unicast because no special range names them.
 */
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3')
const NAT64 = ipaddr.parseCIDR('64:ff9b::/96')

type Address = ipaddr.IPv4 | ipaddr.IPv6

/**
 * The address in `text` (v4 in any form `inet_aton` reads: `2130706433`, `0177.0.0.1`, `0x7f.1`; v6 with
 * or without brackets), or `null` when it is not one (a name). The text goes through the WHATWG URL host
 * parser first, the one a webhook URL went through, so the guard classifies exactly what a connection
 * would use; ipaddr.js alone reads `::8.8.8.8` as IPv4-mapped where the standard reads IPv4-compatible.
 */
function parseAddress(text: string): Address | null {
  // Only what an address is written with: a path, port, user or zone makes it something else.
  if (!/^\[?[0-9a-fx.:]+\]?$/i.test(text)) return null
  const bare = text.replace(/^\[|\]$/g, '')
  const host = bare.includes(':') ? `[${bare}]` : bare
  if (!URL.canParse(`http://${host}/`)) return null
  const hostname = new URL(`http://${host}/`).hostname.replace(/^\[|\]$/g, '')
  return ipaddr.isValid(hostname) ? ipaddr.parse(hostname) : null
}

/** The IPv4 address an IPv6 address stands for, when it is one whose destination is that IPv4 host. */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  if (address.range() === 'ipv4Mapped') return address.toIPv4Address()
  if (address.match(NAT64)) return ipaddr.fromByteArray(address.toByteArray().slice(12)) as ipaddr.IPv4
  return null
}

function isPublic(address: Address): boolean {
  if (address instanceof ipaddr.IPv4) return address.range() === 'unicast'
  const embedded = embeddedIPv4(address)
  if (embedded) return embedded.range() === 'unicast'
  return address.range() === 'unicast' && address.match(GLOBAL_UNICAST)
}

/** Whether an IP address (v4 or v6 text) is public unicast; `false` for anything that is not an address. */
export const isPublicAddress = (text: string): boolean => {
  const address = parseAddress(text)
  return address !== null && isPublic(address)
}

/** Whether the host is an IP literal (v4 in any form, or v6 in brackets as URLs write it). */
export const isIpLiteral = (host: string): boolean => parseAddress(host) !== null

/** Names that always mean this machine or a metadata service, whatever DNS says. */
export const isLocalName = (host: string): boolean => /(^|\.)localhost\.?$/i.test(host) || /^metadata(\.google\.internal)?\.?$/i.test(host)
