/**
 * A software WebAuthn authenticator for in-process tests (the browser tests use Chromium's virtual one):
 * ES256 keys of node:crypto, attestation `none`, user presence and verification always set. It answers
 * the console's JSON options with the JSON the console's script would post, and can be told to sign for
 * another origin, so that a test can show the server refusing it.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto'

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url')
const sha256 = (data: Uint8Array | string) => new Uint8Array(createHash('sha256').update(data).digest())

/** The CBOR the attestation needs: unsigned and negative integers, byte and text strings, maps. */
function cbor(value: unknown): Uint8Array {
  const head = (major: number, n: number) => {
    if (n < 24) return [(major << 5) | n]
    if (n < 256) return [(major << 5) | 24, n]
    return [(major << 5) | 25, n >> 8, n & 255]
  }
  if (typeof value === 'number') return new Uint8Array(value >= 0 ? head(0, value) : head(1, -1 - value))
  if (value instanceof Uint8Array) return new Uint8Array([...head(2, value.length), ...value])
  if (typeof value === 'string') {
    const bytes = new TextEncoder().encode(value)
    return new Uint8Array([...head(3, bytes.length), ...bytes])
  }
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value as object)
  return new Uint8Array([...head(5, entries.length), ...entries.flatMap(([key, item]) => [...cbor(key), ...cbor(item)])])
}

interface SoftCredential {
  id: Uint8Array
  privateKey: KeyObject
  userHandle: string
  counter: number
}

export interface SoftAuthenticator {
  /** A `RegistrationResponseJSON` for creation options (as the console's options endpoint answers). */
  register(options: Record<string, unknown>, overrides?: { origin?: string }): Record<string, unknown>
  /** An `AuthenticationResponseJSON` for request options, with the credential registered `index`-th (the last by default). */
  login(options: Record<string, unknown>, overrides?: { origin?: string; index?: number }): Record<string, unknown>
}

export function createSoftAuthenticator({ rpId, origin }: { rpId: string; origin: string }): SoftAuthenticator {
  const credentials: SoftCredential[] = []
  const clientData = (type: string, challenge: unknown, at: string) =>
    new TextEncoder().encode(JSON.stringify({ type, challenge, origin: at, crossOrigin: false }))
  return {
    register(options, overrides = {}) {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
      const jwk = publicKey.export({ format: 'jwk' })
      const id = new Uint8Array(randomBytes(16))
      const user = options['user'] as { id: string }
      credentials.push({ id, privateKey, userHandle: user.id, counter: 0 })
      const coseKey = cbor(
        new Map<number, unknown>([
          [1, 2],
          [3, -7],
          [-1, 1],
          [-2, new Uint8Array(Buffer.from(jwk.x!, 'base64url'))],
          [-3, new Uint8Array(Buffer.from(jwk.y!, 'base64url'))],
        ]),
      )
      // Flags: user present, user verified, attested credential data; the counter starts at 0.
      const authData = new Uint8Array([...sha256(rpId), 0x45, 0, 0, 0, 0, ...new Uint8Array(16), 0, id.length, ...id, ...coseKey])
      const attestationObject = cbor({ fmt: 'none', attStmt: {}, authData })
      return {
        id: b64url(id),
        rawId: b64url(id),
        type: 'public-key',
        clientExtensionResults: {},
        response: {
          clientDataJSON: b64url(clientData('webauthn.create', options['challenge'], overrides.origin ?? origin)),
          attestationObject: b64url(attestationObject),
          transports: ['internal'],
        },
      }
    },
    login(options, overrides = {}) {
      const credential = credentials.at(overrides.index ?? -1)
      if (!credential) throw new Error('no credential registered')
      credential.counter++
      const counter = credential.counter
      const authData = new Uint8Array([...sha256(rpId), 0x05, counter >>> 24, (counter >>> 16) & 255, (counter >>> 8) & 255, counter & 255])
      const clientDataJSON = clientData('webauthn.get', options['challenge'], overrides.origin ?? origin)
      const signature = sign('sha256', new Uint8Array([...authData, ...sha256(clientDataJSON)]), credential.privateKey)
      return {
        id: b64url(credential.id),
        rawId: b64url(credential.id),
        type: 'public-key',
        clientExtensionResults: {},
        response: {
          clientDataJSON: b64url(clientDataJSON),
          authenticatorData: b64url(authData),
          signature: b64url(signature),
          userHandle: credential.userHandle,
        },
      }
    },
  }
}
