/** An e-mail to a recipient. */
export interface Notification {
  to: string
  subject: string
  text: string
  html: string
}

/**
 * Delivers notifications (SMTP in `clubcred/smtp`). `send` MUST reject when the message was not
 * accepted for delivery, so that the outbox retries it.
 */
export interface Notifier {
  send(message: Notification): Promise<void>
}
