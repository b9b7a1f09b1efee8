/**
 * HTTP/1.1 on a raw TCP socket (node:net), for what an HTTP client library would hide or refuse to
 * send: malformed Host headers, bodies that are declared but not sent, pipelined requests.
 */
import { connect, type Socket } from 'node:net'

export interface RawResponse {
  status: number
  headers: Record<string, string>
  body: string
}

export interface RawConnection {
  write(data: string | Uint8Array): Promise<void>
  /** The next complete response on the connection (content-length framed). */
  response(timeoutMs?: number): Promise<RawResponse>
  /** How the connection ended so far: `open`, `end` (a clean FIN) or the socket error code (`ECONNRESET`). */
  readonly ending: 'open' | 'end' | string
  /** Resolves with `ending` once the server ends the connection or `timeoutMs` passes. */
  closed(timeoutMs?: number): Promise<string>
  destroy(): void
}

export async function rawConnection(url: string): Promise<RawConnection> {
  const { hostname, port } = new URL(url)
  const socket: Socket = connect(Number(port), hostname)
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve)
    socket.once('error', reject)
  })
  let buffer = Buffer.alloc(0)
  let ending = 'open'
  const waiters = new Set<() => void>()
  const wake = () => {
    for (const waiter of waiters) waiter()
  }
  socket.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk])
    wake()
  })
  socket.on('end', () => {
    if (ending === 'open') ending = 'end'
    wake()
  })
  socket.on('error', (error: NodeJS.ErrnoException) => {
    ending = error.code ?? error.message
    wake()
  })
  socket.on('close', wake)

  const until = <T>(take: () => T | undefined, timeoutMs: number, what: string): Promise<T> =>
    new Promise((resolve, reject) => {
      const attempt = () => {
        const value = take()
        if (value !== undefined) {
          waiters.delete(attempt)
          clearTimeout(timer)
          resolve(value)
        }
      }
      const timer = setTimeout(() => {
        waiters.delete(attempt)
        reject(new Error(`${what} within ${timeoutMs} ms (connection: ${ending}, buffered: ${JSON.stringify(buffer.toString('latin1').slice(0, 300))})`))
      }, timeoutMs)
      waiters.add(attempt)
      attempt()
    })

  const takeResponse = (): RawResponse | undefined => {
    const headEnd = buffer.indexOf('\r\n\r\n')
    if (headEnd < 0) return undefined
    const [statusLine, ...lines] = buffer.subarray(0, headEnd).toString('latin1').split('\r\n')
    const headers: Record<string, string> = {}
    for (const line of lines) {
      const colon = line.indexOf(':')
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
    }
    const length = Number(headers['content-length'] ?? 0)
    if (buffer.length < headEnd + 4 + length) return undefined
    const body = buffer.subarray(headEnd + 4, headEnd + 4 + length).toString('utf8')
    buffer = buffer.subarray(headEnd + 4 + length)
    return { status: Number(statusLine!.split(' ')[1]), headers, body }
  }

  return {
    write: (data) =>
      new Promise((resolve, reject) => {
        socket.write(data, (error) => (error ? reject(error) : resolve()))
      }),
    response: (timeoutMs = 10_000) => until(takeResponse, timeoutMs, 'no complete response'),
    get ending() {
      return ending
    },
    closed: (timeoutMs = 10_000) => until(() => (ending === 'open' && !socket.destroyed ? undefined : ending), timeoutMs, 'the connection stayed open'),
    destroy: () => socket.destroy(),
  }
}
