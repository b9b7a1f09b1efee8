import type { AuthenticationResponseJSON, AuthenticatorTransport, RegistrationResponseJSON } from '@simplewebauthn/server'
import { fromBase64Url, toBase64Url } from '../../core/crypto/base64url.ts'
import type { PasskeyVerifier } from '../../core/ports/passkey-verifier.ts'

/** How long the browser gives the person to answer, as the challenge lives (core/admins/passkey-challenges.ts). */
const TIMEOUT_MS = 300_000

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

/**
 * The passkey ceremonies on @simplewebauthn/server (docs/admin-console.md § Passkeys). No attestation is
 * asked for (a console admin's authenticator model is nobody's business here), the credential must be
 * discoverable (usernameless login), and user verification is required both ways. It uses WebCrypto
 * only, so it loads on Deno as on Node. The library is imported at the first ceremony, not at start:
 * its import takes about 2 s on the project's 2-core machine, and most starts never see a passkey.
 *
 * @example
 * const issuer = createIssuer({ storage, masterKey, urls, passwordHasher: createScryptPasswordHasher(), passkeyVerifier: createPasskeyVerifier() })
 */
export function createPasskeyVerifier(): PasskeyVerifier {
  let loaded: Promise<typeof import('@simplewebauthn/server')> | undefined
  const library = () => (loaded ??= import('@simplewebauthn/server'))
  return {
    async creationOptions({ relyingParty, challenge, userId, userName, userDisplayName, excludeCredentialIds }) {
      const { generateRegistrationOptions } = await library()
      const options = await generateRegistrationOptions({
        rpName: relyingParty.name,
        rpID: relyingParty.id,
        userID: new TextEncoder().encode(userId),
        userName,
        userDisplayName,
        challenge: fromBase64Url(challenge),
        timeout: TIMEOUT_MS,
        attestationType: 'none',
        excludeCredentials: excludeCredentialIds.map((id) => ({ id })),
        authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
      })
      return { ...options }
    },
    async requestOptions({ relyingParty, challenge }) {
      const { generateAuthenticationOptions } = await library()
      const options = await generateAuthenticationOptions({
        rpID: relyingParty.id,
        challenge: fromBase64Url(challenge),
        timeout: TIMEOUT_MS,
        userVerification: 'required',
      })
      return { ...options }
    },
    async verifyRegistration({ relyingParty, challenge, response }) {
      const { verifyRegistrationResponse } = await library()
      try {
        const verified = await verifyRegistrationResponse({
          response: response as RegistrationResponseJSON,
          expectedChallenge: challenge,
          expectedOrigin: relyingParty.origin,
          expectedRPID: relyingParty.id,
          requireUserPresence: true,
          requireUserVerification: true,
        })
        if (!verified.verified) return { ok: false, reason: 'not verified' }
        const { credential } = verified.registrationInfo
        return {
          ok: true,
          credentialId: credential.id,
          publicKey: toBase64Url(credential.publicKey),
          counter: credential.counter,
          transports: (credential.transports ?? []).map(String),
        }
      } catch (error) {
        return { ok: false, reason: reasonOf(error) }
      }
    },
    async verifyAuthentication({ relyingParty, challenge, response, credential }) {
      const { verifyAuthenticationResponse } = await library()
      try {
        const verified = await verifyAuthenticationResponse({
          response: response as AuthenticationResponseJSON,
          expectedChallenge: challenge,
          expectedOrigin: relyingParty.origin,
          expectedRPID: relyingParty.id,
          requireUserVerification: true,
          credential: {
            id: credential.credentialId,
            publicKey: fromBase64Url(credential.publicKey),
            counter: credential.counter,
            transports: credential.transports as AuthenticatorTransport[],
          },
        })
        return verified.verified ? { ok: true, counter: verified.authenticationInfo.newCounter } : { ok: false, reason: 'not verified' }
      } catch (error) {
        return { ok: false, reason: reasonOf(error) }
      }
    },
  }
}
