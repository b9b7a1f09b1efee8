import { createPrivateKey, sign, type KeyObject } from 'node:crypto'
import type { JwtSigner } from '../../core/ports/signer.ts'

/**
 * The fast ES256 signer for Node: a cached node:crypto KeyObject and the compact JWS built directly,
 * synchronously (jose's SignJWT re-serializes and awaits WebCrypto per token, several times slower).
 *
 * @example
 * createIssuer({ storage, masterKey, urls, signer: createNodeSigner() })
 */
export function createNodeSigner(): JwtSigner {
  const keyObjects = new Map<string, KeyObject>()
  return {
    async signMany(key, header, payloads) {
      let keyObject = keyObjects.get(key.kid)
      if (!keyObject) {
        keyObject = createPrivateKey({ key: key.privateJwk as import('node:crypto').JsonWebKey, format: 'jwk' })
        keyObjects.set(key.kid, keyObject)
      }
      const encodedHeader = Buffer.from(JSON.stringify(header)).toString('base64url')
      return payloads.map((payload) => {
        const input = `${encodedHeader}.${Buffer.from(payload).toString('base64url')}`
        const signature = sign('sha256', Buffer.from(input), { key: keyObject, dsaEncoding: 'ieee-p1363' })
        return `${input}.${signature.toString('base64url')}`
      })
    },
  }
}
