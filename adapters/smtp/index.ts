/**
 * @module clubcred/smtp: the SMTP notifier, on nodemailer (a maintained SMTP client: TLS, AUTH,
 * pooling and RFC-correct encoding of Korean text are not worth writing again).
 */
import nodemailer from 'nodemailer'
import { NotificationRefused, type Notifier } from '../../core/ports/notifier.ts'

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
      let info
      try {
        info = await transport.sendMail({ from: sender, to: message.to, subject: message.subject, text: message.text, html: message.html })
      } catch (error) {
        // A 5xx reply is permanent (RFC 5321 §4.2.1): trying again gets the same answer. 4xx and a
        // connection that failed are worth another try.
        if (isPermanent(error)) throw new NotificationRefused((error as Error).message, { cause: error })
        throw error
      }
      if (info.rejected.length > 0) throw new NotificationRefused(`the SMTP server rejected ${info.rejected.join(', ')}`)
    },
    close: () => transport.close(),
  }
}

const isPermanent = (error: unknown): boolean => {
  const code = (error as { responseCode?: unknown } | null)?.responseCode
  return typeof code === 'number' && code >= 500 && code < 600
}
