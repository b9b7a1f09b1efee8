/** The W3C Ed25519Signature2020 context as data (CommonJS, no types of its own). */
declare module 'ed25519-signature-2020-context' {
  const context: { CONTEXT_URL: string; contexts: Map<string, unknown> }
  export default context
}
