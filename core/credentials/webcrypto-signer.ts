import { toBase64Url } from '../crypto/base64url.ts'
import type { JwtSigner } from '../ports/signer.ts'

const encoder = new TextEncoder()

/** The portable signer: WebCrypto ECDSA P-256, whose signatures are already JWS's raw `r || s`. */
export const webCryptoSigner: JwtSigner = {
  async signMany(key, header, payloads) {
    const encodedHeader = toBase64Url(encoder.encode(JSON.stringify(header)))
    return Promise.all(
      payloads.map(async (payload) => {
        const input = `${encodedHeader}.${toBase64Url(encoder.encode(payload))}`
        const signature = await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, key.privateKey, encoder.encode(input))
        return `${input}.${toBase64Url(new Uint8Array(signature))}`
      }),
    )
  },
}
