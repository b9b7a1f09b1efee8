/**
 * The session cookie (docs/admin-console.md § The cookie). On an https public URL it is
 * `__Host-clubcred-admin`: the prefix makes the browser refuse it unless it is `Secure`, has `Path=/` and
 * no `Domain`, so no subdomain (a club's share host) can set or shadow it. On http (a local server) it
 * cannot be `Secure`, and is kept to the console's path instead. Always `HttpOnly` (no script reads it)
 * and `SameSite=Lax` (not sent on cross-site POSTs). No `Max-Age`: the server ends sessions (30 minutes
 * idle, 12 hours at most) and the browser drops it when it closes.
 */
export interface SessionCookie {
  name: string
  /** The `Set-Cookie` value carrying a session id. */
  set(sessionId: string): string
  /** The `Set-Cookie` value that removes it. */
  clear(): string
  /** The session id a request's `Cookie` header carries, or `null`. */
  read(request: Request): string | null
}

export function createSessionCookie({ secure, consolePath }: { secure: boolean; consolePath: string }): SessionCookie {
  const name = secure ? '__Host-clubcred-admin' : 'clubcred-admin'
  const attributes = secure ? 'Path=/; Secure; HttpOnly; SameSite=Lax' : `Path=${consolePath}; HttpOnly; SameSite=Lax`
  return {
    name,
    set: (sessionId) => `${name}=${sessionId}; ${attributes}`,
    clear: () => `${name}=; ${attributes}; Max-Age=0`,
    read(request) {
      const header = request.headers.get('cookie')
      if (!header) return null
      for (const part of header.split(';')) {
        const at = part.indexOf('=')
        if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim() || null
      }
      return null
    },
  }
}
