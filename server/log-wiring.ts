/**
 * Where the issuer meets the log (docs/logs.md): one line per answered request, and every failure that
 * used to go to stderr (a 500's cause, a worker round, a mail the SMTP server refused, a webhook attempt
 * without an answer) as a JSON line at its level.
 */
import { maskedExcerpt, type Logger } from './log.ts'
import { requestIdOf } from '../adapters/http/request-id.ts'
import type { AnsweredRequest, FetchHandlerOptions } from '../adapters/http/index.ts'
import type { WorkerOptions } from '../core/worker/loop.ts'
import type { Notifier } from '../core/ports/notifier.ts'
import type { WebhookTransport } from '../core/ports/webhook-transport.ts'

/** How much of a header a request line shows, after masking: a log line is not the place for a novel. */
const HEADER_EXCERPT = 200

/** The request line: info, or warn for a 5xx; the safe headers only at debug, masked and then cut. */
export function logAnswered(logger: Logger): (answered: AnsweredRequest) => void {
  return ({ headers, ...line }) => {
    const level = line.status >= 500 ? 'warn' : 'info'
    if (logger.isLevelEnabled('debug')) {
      const masked = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, maskedExcerpt(value, HEADER_EXCERPT)]))
      logger[level]({ ...line, headers: masked }, 'request')
    } else {
      logger[level](line, 'request')
    }
  }
}

/** The issuer's HTTP and worker hooks, logging to `logger`. */
export function issuerLogging(logger: Logger): { http: FetchHandlerOptions; worker: WorkerOptions } {
  return {
    http: {
      onError: (error, request) => logger.error({ err: error, requestId: requestIdOf(request), method: request.method }, 'request failed'),
      onResponse: logAnswered(logger),
    },
    worker: { onError: (error) => logger.error({ err: error }, 'worker round failed') },
  }
}

/** `notifier`, logging each message the mail server did not accept (the outbox retries it). */
export function loggedNotifier(notifier: Notifier, logger: Logger): Notifier {
  return {
    async send(message) {
      try {
        await notifier.send(message)
      } catch (error) {
        logger.warn({ err: error }, 'mail not accepted; the outbox retries it')
        throw error
      }
    },
  }
}

/**
 * `transport`, logging each attempt that got no answer (refused address, DNS, connection, timeout) with
 * the receiver's host only: a webhook URL's path or query may be its secret.
 */
export function loggedWebhookTransport(transport: WebhookTransport, logger: Logger): WebhookTransport {
  return {
    async send(request) {
      try {
        const answer = await transport.send(request)
        logger.debug({ host: new URL(request.url).host, status: answer.status }, 'webhook attempt answered')
        return answer
      } catch (error) {
        logger.warn({ err: error, host: new URL(request.url).host }, 'webhook attempt failed; it is retried')
        throw error
      }
    },
    ...(transport.close ? { close: () => transport.close!() } : {}),
  }
}
