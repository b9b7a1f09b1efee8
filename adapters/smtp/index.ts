/**
 * @module clubcred/smtp: the SMTP notifier, on nodemailer (a maintained SMTP client: TLS, AUTH,
 * pooling and RFC-correct encoding of Korean text are not worth writing again).
 */
import nodemailer from 'nodemailer'
import type { Notifier } from '../../core/ports/notifier.ts'

export interface SmtpNotifierOptions {
  /** `smtp://user:pass@host:port` or `smtps://...` (`CLUBCRED_SMTP_URL`). */
  url: string
  /** The From address; default `clubcred <no-reply@{smtp host}>`. */
  from?: string
}

/**
 * A notifier that sends through an SMTP server. `send` rejects unless the server accepted the message,
 * so the outbox retries it.
 *
 * @example
 * createIssuer({ ..., notifier: createSmtpNotifier({ url: process.env.CLUBCRED_SMTP_URL! }) })
 */
export function createSmtpNotifier({ url, from }: SmtpNotifierOptions): Notifier & { close(): void } {
  const transport = nodemailer.createTransport(url)
  const sender = from ?? `clubcred <no-reply@${new URL(url).hostname}>`
  return {
    async send(message) {
      const info = await transport.sendMail({ from: sender, to: message.to, subject: message.subject, text: message.text, html: message.html })
      if (info.rejected.length > 0) throw new Error(`the SMTP server rejected ${info.rejected.join(', ')}`)
    },
    close: () => transport.close(),
  }
}
