import { createPrivateKey, type JsonWebKey, type KeyObject } from 'node:crypto'
import { compactJws } from '../compact-jws.ts'
import { serveTasks } from './serve.ts'

/** A slice of a JWT round (adapters/node/signer.ts): payloads joined by line feeds, or an array when one holds a line feed. */
export interface JwtTask {
  kid: string
  jwk: JsonWebKey
  header: string
  payloads: string | string[]
}

const keys = new Map<string, KeyObject>()

/** The whole JWS (encoding too), leaving the calling thread only the hand-over; the signatures joined by line feeds. */
serveTasks(async ({ kid, jwk, header, payloads }: JwtTask): Promise<string> => {
  let key = keys.get(kid)
  if (!key) keys.set(kid, (key = createPrivateKey({ key: jwk, format: 'jwk' })))
  const signing = key
  return (typeof payloads === 'string' ? payloads.split('\n') : payloads).map((payload) => compactJws(signing, header, payload)).join('\n')
})
