/**
 * The WebAuthn ceremonies of the staff console's passkeys (docs/admin-console.md § Passkeys): the options
 * the browser's `navigator.credentials.create`/`get` take, and the checks of what they return. Core never
 * sees the protocol's encodings: the server wires `createPasskeyVerifier()` from `clubcred/node`
 * (@simplewebauthn/server, which loads on Deno too). Every check requires user verification.
 */
export interface PasskeyVerifier {
  /** `PublicKeyCredentialCreationOptionsJSON` for a discoverable credential with user verification required. */
  creationOptions(input: {
    relyingParty: PasskeyRelyingParty
    challenge: string
    /** The WebAuthn user handle: the admin's id, never an e-mail. */
    userId: string
    userName: string
    userDisplayName: string
    /** The admin's credentials already registered, which the authenticator must not register again. */
    excludeCredentialIds: string[]
  }): Promise<Record<string, unknown>>
  /** `PublicKeyCredentialRequestOptionsJSON` with user verification required and no allowed list (discoverable credentials). */
  requestOptions(input: { relyingParty: PasskeyRelyingParty; challenge: string }): Promise<Record<string, unknown>>
  /**
   * Checks a `RegistrationResponseJSON` against the challenge, the origin and the RP ID, with user
   * presence and verification. MUST resolve `{ ok: false }`, never reject, on any input it refuses.
   */
  verifyRegistration(input: { relyingParty: PasskeyRelyingParty; challenge: string; response: unknown }): Promise<PasskeyRegistrationCheck>
  /**
   * Checks an `AuthenticationResponseJSON` of `credential` against the challenge, the origin and the RP
   * ID, with user verification, and that the signature counter moved on (when the authenticator keeps
   * one). MUST resolve `{ ok: false }`, never reject, on any input it refuses.
   */
  verifyAuthentication(input: {
    relyingParty: PasskeyRelyingParty
    challenge: string
    response: unknown
    credential: { credentialId: string; publicKey: string; counter: number; transports: string[] }
  }): Promise<PasskeyAuthenticationCheck>
}

/** Who the passkeys are for: the RP ID is the public URL's host name, the origin its origin. */
export interface PasskeyRelyingParty {
  id: string
  name: string
  origin: string
}

export type PasskeyRegistrationCheck =
  { ok: true; credentialId: string; publicKey: string; counter: number; transports: string[] } | { ok: false; reason: string }

export type PasskeyAuthenticationCheck = { ok: true; counter: number } | { ok: false; reason: string }

/** The verifier of an issuer given none: no options, every check refused (the console offers no passkeys). */
export const unavailablePasskeyVerifier: PasskeyVerifier = {
  creationOptions: () => Promise.reject(new TypeError('createIssuer: passkeys need a `passkeyVerifier` (createPasskeyVerifier() from clubcred/node)')),
  requestOptions: () => Promise.reject(new TypeError('createIssuer: passkeys need a `passkeyVerifier` (createPasskeyVerifier() from clubcred/node)')),
  verifyRegistration: () => Promise.resolve({ ok: false, reason: 'no passkey verifier' }),
  verifyAuthentication: () => Promise.resolve({ ok: false, reason: 'no passkey verifier' }),
}
