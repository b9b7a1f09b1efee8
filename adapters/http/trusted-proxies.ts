import ipaddr from 'ipaddr.js'

type Address = ipaddr.IPv4 | ipaddr.IPv6

/**
 * Which peers are the operator's reverse proxies, and through them the client's address
 * (docs/admin-console.md § Limits): the `X-Forwarded-For` list read from the right, each hop that is a
 * trusted proxy skipped, the first one that is not taken as the client. Only the operator's proxies
 * append truthfully; anything left of the first untrusted hop was written by the client and is ignored.
 */
export interface TrustedProxies {
  /** The client's address for a request whose TCP peer is `peer` and that carries `forwardedFor`. */
  clientAddress(peer: string | undefined, forwardedFor: string | null): string | undefined
}

/** Reads a proxy list entry: an address (`10.0.0.5`, `::1`) or a CIDR block (`10.0.0.0/8`, `fd00::/8`). */
export function parseProxyEntry(text: string): [Address, number] | null {
  const entry = text.trim()
  try {
    if (entry.includes('/')) return normalised(ipaddr.parseCIDR(entry))
    const address = unmapped(ipaddr.parse(entry))
    return [address, address.kind() === 'ipv4' ? 32 : 128]
  } catch {
    return null
  }
}

/** The proxies of `entries`; throws a TypeError naming the first entry that is no address or block. */
export function createTrustedProxies(entries: readonly string[]): TrustedProxies {
  const blocks = entries.map((entry) => parseProxyEntry(entry) ?? wrong(entry))
  const trusted = (address: Address) => blocks.some(([block, bits]) => block.kind() === address.kind() && address.match(block, bits))
  return {
    clientAddress(peer, forwardedFor) {
      const peerAddress = addressOf(peer)
      if (blocks.length === 0 || !peerAddress || !trusted(peerAddress)) return peer
      let client = peerAddress
      const hops = (forwardedFor ?? '').split(',').map((hop) => hop.trim())
      for (let i = hops.length - 1; i >= 0; i--) {
        const hop = addressOf(hops[i]!)
        // A hop that is no address ends the walk: the nearest trusted proxy is then the best we know.
        if (!hop) break
        client = hop
        if (!trusted(hop)) break
      }
      return client.toString()
    },
  }
}

const wrong = (entry: string): never => {
  throw new TypeError(`${JSON.stringify(entry)} is not an IP address or CIDR block`)
}

/** An address as a hop or a peer writes it: bare, `[v6]`, `[v6]:port` or `v4:port`; IPv4-mapped IPv6 as IPv4. */
function addressOf(text: string | undefined): Address | null {
  if (!text) return null
  const bare = /^\[([^\]]+)\](?::\d+)?$/.exec(text)?.[1] ?? /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(text)?.[1] ?? text
  // Only the strict forms: ipaddr.parse alone also takes `0x7f.1` or `2130706433`, which no proxy writes.
  if (!ipaddr.IPv4.isValidFourPartDecimal(bare) && !(ipaddr.IPv6.isValid(bare) && bare.includes(':'))) return null
  return unmapped(ipaddr.parse(bare))
}

const unmapped = (address: Address): Address =>
  address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() ? (address as ipaddr.IPv6).toIPv4Address() : address

function normalised([address, bits]: [Address, number]): [Address, number] {
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) return [(address as ipaddr.IPv6).toIPv4Address(), bits - 96]
  return [address, bits]
}
