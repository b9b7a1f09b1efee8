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
