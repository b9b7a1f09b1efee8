/** An e-mail to a recipient. */
export interface Notification {
  to: string
  subject: string
  text: string
  html: string
}

/**
 * Delivers notifications (SMTP in `clubcred/smtp`). `send` MUST reject when the message was not
 * accepted for delivery, so that the outbox retries it; with `NotificationRefused` when trying again
 * cannot help (SMTP 5xx), so that the outbox gives it up at once.
 */
export interface Notifier {
  send(message: Notification): Promise<void>
}

/**
 * The message was refused for good (an SMTP 5xx reply: no such mailbox, policy): the outbox records
 * `issuance.notification_failed` and never tries it again.
 */
export class NotificationRefused extends Error {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options)
    this.name = this.constructor.name
  }
}
