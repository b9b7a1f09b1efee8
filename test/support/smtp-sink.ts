/**
 * A real SMTP server on loopback (the smtp-server package) that keeps every message it accepts, so that
 * tests can read what clubcred mailed. No TLS (STARTTLS disabled), AUTH optional.
 */
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

export interface SunkMessage {
  /** Envelope MAIL FROM. */
  from: string
  /** Envelope RCPT TO. */
  to: string[]
  /** The raw message as received. */
  raw: string
  /** Message headers, names lower-cased (first occurrence; folded lines joined). */
  headers: Record<string, string>
  /** The decoded text/plain part (the whole body when the message is not multipart). */
  text: string
  /** The decoded text/html part, or `''`. */
  html: string
}

export interface SmtpSink {
  /** `smtp://127.0.0.1:<port>`. */
  url: string
  port: number
  readonly messages: SunkMessage[]
  /** The next `count` messages are refused with a temporary failure (451). */
  rejectNext(count: number): void
  /** The next `count` messages are refused for good (550). */
  refuseNext(count: number): void
  /** How many deliveries were refused so far. */
  readonly rejected: number
  /** Resolves once `count` messages were accepted in all (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<SunkMessage[]>
  close(): Promise<void>
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const messages: SunkMessage[] = []
  let toReject = 0
  let toRefuse = 0
  let rejected = 0
  const waiters: (() => void)[] = []

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        if (toRefuse > 0) {
          toRefuse--
          rejected++
          return callback(Object.assign(new Error('No such mailbox'), { responseCode: 550 }))
        }
        if (toReject > 0) {
          toReject--
          rejected++
          const error = Object.assign(new Error('Try again later'), { responseCode: 451 })
          return callback(error)
        }
        const raw = Buffer.concat(chunks).toString('utf8')
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw,
          ...parseMessage(raw),
        })
        callback()
        for (const wake of waiters.splice(0)) wake()
      })
    },
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const port = (server.server.address() as AddressInfo).port

  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    rejectNext(count) {
      toReject = count
    },
    refuseNext(count) {
      toRefuse = count
    },
    get rejected() {
      return rejected
    },
    async waitFor(count, timeoutMs = 15_000) {
      const end = Date.now() + timeoutMs
      while (messages.length < count) {
        const left = end - Date.now()
        if (left <= 0) throw new Error(`the SMTP sink got ${messages.length} of ${count} messages within ${timeoutMs} ms`)
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left)
          waiters.push(() => {
            clearTimeout(timer)
            resolve()
          })
        })
      }
      return messages
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** A small MIME reader: headers, and the text and html parts of a (multipart) message, decoded. */
function parseMessage(raw: string): { headers: Record<string, string>; text: string; html: string } {
  const { headers, body } = splitEntity(raw)
  const parts: { type: string; content: string }[] = []
  collectParts(headers, body, parts)
  return {
    headers,
    text: parts.find((part) => part.type === 'text/plain')?.content ?? '',
    html: parts.find((part) => part.type === 'text/html')?.content ?? '',
  }
}

function splitEntity(entity: string): { headers: Record<string, string>; body: string } {
  const end = entity.search(/\r?\n\r?\n/)
  const head = end === -1 ? entity : entity.slice(0, end)
  const body = end === -1 ? '' : entity.slice(end).replace(/^\r?\n\r?\n/, '')
  const headers: Record<string, string> = {}
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':')
    if (colon > 0) {
      const name = line.slice(0, colon).trim().toLowerCase()
      headers[name] ??= line.slice(colon + 1).trim()
    }
  }
  return { headers, body }
}

function collectParts(headers: Record<string, string>, body: string, parts: { type: string; content: string }[]): void {
  const contentType = headers['content-type'] ?? 'text/plain'
  const type = contentType.split(';')[0]!.trim().toLowerCase()
  if (type.startsWith('multipart/')) {
    const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1]
    if (!boundary) return
    const sections = body.split(`--${boundary}`).slice(1)
    for (const section of sections) {
      if (section.startsWith('--')) break
      const part = splitEntity(section.replace(/^\r?\n/, ''))
      collectParts(part.headers, part.body, parts)
    }
    return
  }
  parts.push({ type, content: decodeBody(body, headers['content-transfer-encoding'] ?? '7bit') })
}

function decodeBody(body: string, encoding: string): string {
  switch (encoding.toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8').replace(/\r\n/g, '\n')
    case 'quoted-printable':
      // Escape bare `%` first, so that decodeURIComponent reads only the `=XX` octets turned into `%XX`.
      return decodeURIComponent(
        body
          .replace(/=\r?\n/g, '')
          .replace(/%/g, '%25')
          .replace(/=([0-9A-F]{2})/gi, '%$1'),
      ).replace(/\r\n/g, '\n')
    default:
      return body.replace(/\r\n/g, '\n')
  }
}
