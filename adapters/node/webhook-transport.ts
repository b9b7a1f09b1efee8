import { request as httpRequest, type RequestOptions } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns'
import { isIP, type LookupFunction } from 'node:net'
import type { WebhookTransport } from '../../core/ports/webhook-transport.ts'

/** Bytes of a response body read at most; the rest is discarded with the connection. */
const BODY_LIMIT = 4096

export interface WebhookTransportOptions {
  /** Resolves host names (`dns.lookup` by default); tests pass one that maps a name to loopback. */
  lookup?: (host: string, options: LookupAllOptions, callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void
}

/**
 * Webhook attempts over node:http(s), not undici: these do what the port asks with no runtime
 * dependency: no redirect is ever followed, and the socket's `lookup` resolves once, checks every
 * address with core's rule and connects to the checked one (so DNS rebinding between check and
 * connection cannot happen). A fresh connection per attempt (`agent: false`), so no pooled socket to
 * an address checked earlier is reused.
 */
export function createWebhookTransport({ lookup = dnsLookup }: WebhookTransportOptions = {}): WebhookTransport {
  return {
    send({ url, headers, body, connectTimeoutMs, timeoutMs, acceptAddress }) {
      return new Promise((resolve, reject) => {
        const target = new URL(url)
        const host = target.hostname.replace(/^\[|\]$/g, '')
        if (isIP(host) && !acceptAddress(host)) return reject(new Error(`address refused: ${host}`))
        const checkedLookup: LookupFunction = (hostname, options, callback) => {
          lookup(hostname, { ...options, all: true }, (error, addresses) => {
            if (error) return callback(error, '', 0)
            const refused = addresses.find((a) => !acceptAddress(a.address))
            if (refused || addresses.length === 0) {
              return callback(
                Object.assign(new Error(`address refused: ${hostname} resolves to ${refused?.address ?? 'nothing'}`), { code: 'EREFUSED' }),
                '',
                0,
              )
            }
            const chosen = addresses[0]!
            if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, [chosen])
            else callback(null, chosen.address, chosen.family)
          })
        }
        const options: RequestOptions = {
          method: 'POST',
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          agent: false,
          lookup: checkedLookup,
        }
        const send = target.protocol === 'https:' ? httpsRequest : httpRequest
        const req = send(target, options)
        const total = setTimeout(() => req.destroy(new Error(`timeout: no answer within ${timeoutMs} ms`)), timeoutMs)
        req.on('socket', (socket) => {
          const connect = setTimeout(() => req.destroy(new Error(`timeout: no connection within ${connectTimeoutMs} ms`)), connectTimeoutMs)
          socket.once(target.protocol === 'https:' ? 'secureConnect' : 'connect', () => clearTimeout(connect))
          socket.once('close', () => clearTimeout(connect))
        })
        req.on('error', (error) => {
          clearTimeout(total)
          reject(new Error(error.message))
        })
        req.on('response', (res) => {
          clearTimeout(total)
          resolve({ status: res.statusCode ?? 0 })
          // The answer is its status; a little of the body is read so the socket closes cleanly, no more.
          let read = 0
          const cut = setTimeout(() => res.destroy(), 1000)
          res.on('data', (chunk: Buffer) => {
            read += chunk.length
            if (read > BODY_LIMIT) res.destroy()
          })
          res.on('error', () => {})
          res.on('close', () => clearTimeout(cut))
        })
        req.end(body)
      })
    },
  }
}
