import ipaddr from 'ipaddr.js'

/**
 * The address of the peer a request came from, noted on the Request by the listener that accepted it
 * (the node listener; the Deno entry), as the request id is noted (request-id.ts). A fetch Request has no
 * such member; a request handed to `issuer.fetch` without one counts as from `unknown`. Behind a reverse
 * proxy this is the proxy's address (docs/admin-console.md § Limits).
 */
const CLIENT_ADDRESS = Symbol.for('clubcred.clientAddress')

type Addressed = Request & { [CLIENT_ADDRESS]?: string }

/** Notes the peer's address on `request`. */
export function noteClientAddress(request: Request, address: string | undefined): void {
  if (address) (request as Addressed)[CLIENT_ADDRESS] = address
}

/** The peer's address noted on `request`, or `unknown`. */
export function clientAddressOf(request: Request): string {
  return (request as Addressed)[CLIENT_ADDRESS] ?? 'unknown'
}

/**
 * The client as the login limits count it (docs/admin-console.md § Limits): an IPv4 address as it is, an
 * IPv6 address by its /64, written `2001:db8:1:2::/64`. One subscriber, one host even, holds a whole /64
 * and may use any of its 2^64 addresses, so counting them apart counts nothing. An IPv4-mapped IPv6
 * address (`::ffff:192.0.2.7`, a dual-stack listener's form) is its IPv4 address; anything else (`unknown`)
 * stays as it is.
 */
export function addressBlockOf(address: string): string {
  // A zone (`fe80::1%eth0`) names the listener's interface, not the client: the block is the address's.
  const bare = (/^\[([^\]]+)\]$/.exec(address)?.[1] ?? address).replace(/%.*$/, '')
  if (!bare.includes(':') || !ipaddr.IPv6.isValid(bare)) return address
  const parsed = ipaddr.IPv6.parse(bare)
  if (parsed.isIPv4MappedAddress()) return parsed.toIPv4Address().toString()
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toString()}/64`).toString()}/64`
}

/** The client of `request` as the login limits count it: `addressBlockOf` its noted address. */
export function clientBlockOf(request: Request): string {
  return addressBlockOf(clientAddressOf(request))
}
