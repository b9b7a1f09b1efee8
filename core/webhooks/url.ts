import { ProblemError } from '../errors.ts'
import { isIpLiteral, isLocalName, isPublicAddress } from './address.ts'

/**
 * Checks an endpoint URL at create and update time: `https://` (or `http://` with `allowPrivate`), no
 * credentials, and no host that is a non-public address or a local name. Names are resolved only at
 * send time, where the transport checks every address again (core/ports/webhook-transport.ts).
 */
export function checkWebhookUrl(value: unknown, allowPrivate: boolean): string {
  const refuse = (detail: string) => new ProblemError('validation-failed', { detail, errors: [{ path: 'url', message: detail }] })
  if (typeof value !== 'string' || !URL.canParse(value)) throw refuse('The webhook URL must be an absolute URL.')
  const url = new URL(value)
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    throw refuse('The webhook URL must use https:// (http:// only with CLUBCRED_WEBHOOKS_ALLOW_PRIVATE=1).')
  }
  if (url.username || url.password) throw refuse('The webhook URL must not carry credentials.')
  const host = url.hostname.replace(/^\[|\]$/g, '')
  if (!allowPrivate && (isLocalName(host) || (isIpLiteral(host) && !isPublicAddress(host)))) {
    throw refuse('The webhook URL must not point to a loopback, private, link-local or metadata address.')
  }
  return url.href
}

const acceptAnyAddress = (_address: string) => true
const acceptPublicAddress = (address: string) => isPublicAddress(address)

/** The rule the transport applies to each resolved address: one function per setting, so a transport can key its pooled connections on it. */
export const addressRule = (allowPrivate: boolean) => (allowPrivate ? acceptAnyAddress : acceptPublicAddress)
