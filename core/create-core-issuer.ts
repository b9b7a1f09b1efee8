import { resolveConfig, type IssuerConfigInput } from './config.ts'
import { createClientAuthLimiter } from './clients/client-auth-limiter.ts'
import { createTemplate } from './achievements/create.ts'
import { patchTemplate } from './achievements/patch.ts'
import { listTemplates, readTemplate } from './achievements/read.ts'
import { addCoIssuer, listCoIssuers, removeCoIssuer } from './achievements/co-issuers.ts'
import { createClient, type CreateClientInput } from './clients/create.ts'
import { deleteClient } from './clients/delete.ts'
import { listClients } from './clients/list.ts'
import { rotateClientSecret } from './clients/rotate.ts'
import { createClub, type CreateClubInput } from './clubs/create.ts'
import { readClubRoot } from './clubs/read-root.ts'
import { updateClubFlags } from './clubs/update.ts'
import { createKeyStore } from './keys/create-key-store.ts'
import { systemClock, type Clock } from './ports/clock.ts'
import { webCryptoRandom, type RandomSource } from './ports/random.ts'
import type { KeyStore } from './ports/key-store.ts'
import type { StoragePort } from './ports/storage.ts'
import { authorize } from './tokens/authorize.ts'
import { issueAccessToken, type TokenRequest } from './tokens/issue.ts'
import { verifyAccessToken } from './tokens/verify.ts'
import type { IssuerContext } from './context.ts'
import type { Principal } from './tokens/principal.ts'
import type { ScopeName } from './scopes.ts'
import type { ListQuery } from './lists/cursor.ts'
import { webCryptoSigner } from './credentials/webcrypto-signer.ts'
import { jsonLdFormOf, type CredentialForms } from './credentials/json-ld-form.ts'
import { listEvents } from './events/list.ts'
import { withIdempotency } from './idempotency/claim.ts'
import { issueKeyed } from './issuances/issue-keyed.ts'
import { listIssuances, readCredential, readIssuance } from './issuances/read.ts'
import { searchIssuances, type IssuanceSearchQuery } from './issuances/search.ts'
import type { IssuanceListFilters } from './issuances/list-filters.ts'
import { revokeIssuance } from './issuances/revoke.ts'
import { reissueIssuance, reissueMany } from './reissues/reissue.ts'
import { revokeManyIssuances } from './issuances/revoke-many.ts'
import { notifyIssuance } from './issuances/notify.ts'
import { readDelivery } from './issuances/delivery.ts'
import { didDocument } from './did-documents/did-document.ts'
import { createStatusListPublisher } from './status-lists/credential.ts'
import { createIssuanceVerifier } from './verification/verify-issuance.ts'
import { shareView } from './verification/share-view.ts'
import { createShareCards } from './share-cards/share-card.ts'
import type { ShareCardRenderer } from './ports/share-card-renderer.ts'
import { createShareViewCounter } from './verification/share-view-counter.ts'
import { createDesign, patchDesign } from './designs/write.ts'
import { createV1Form, patchV1Form, readV1Form } from './achievements/v1-form.ts'
import { listApiKeys } from './api-keys/list.ts'
import { revokeApiKey } from './api-keys/revoke.ts'
import { createLegacyForm } from './achievements/legacy-form.ts'
import { issueV1, readIssuanceV1, v1BatchResultOf } from './issuances/v1.ts'
import { authenticateApiKey, createApiKey } from './api-keys/create.ts'
import { listDesigns, readDesign } from './designs/read.ts'
import { ProblemError } from './errors.ts'
import type { JwtSigner } from './ports/signer.ts'
import type { DataIntegritySigner } from './ports/data-integrity-signer.ts'
import type { PresentationVerifier } from './ports/presentation-verifier.ts'
import type { Notifier } from './ports/notifier.ts'
import { createWorker, type WorkerOptions } from './worker/loop.ts'
import { createSignal } from './util/signal.ts'
import { clubDataIntegrityKeyOwner, clubKeyOwner } from './did-documents/did.ts'
import { createFilesRenderGate, createIssuanceFiles } from './files/issuance-files.ts'
import { createFilePreviews } from './files/preview-file.ts'
import { supportedFormats } from './files/prepare-file.ts'
import type { CertificateRenderer } from './ports/certificate-renderer.ts'
import { createWallets } from './wallets/wallets.ts'
import type { CoreIssuer, IssueOptions } from './core-issuer.ts'
import { createSealer, type Sealer } from './crypto/seal.ts'
import { createWebhooks } from './webhooks/webhooks.ts'
import type { WebhookTransport } from './ports/webhook-transport.ts'
import { noMetrics, type MetricsPort } from './ports/metrics.ts'
import { checkReadiness, signingQueueState, type ReadinessOptions } from './health/readiness.ts'
import { withStorageErrorsObserved } from './health/observed-storage.ts'
import { createAdmins } from './admins/admins.ts'
import { consoleContextOf, consoleOff } from './admins/console-storage.ts'
import { createCsvUploads } from './csv-uploads/csv-uploads.ts'
import { unavailablePasswordHasher, type PasswordHasher } from './ports/password-hasher.ts'
import type { PasskeyVerifier } from './ports/passkey-verifier.ts'

export interface IssuerOptions extends IssuerConfigInput {
  storage: StoragePort
  /** The key store; when absent, the default one is built on `storage` with `masterKey`. */
  keys?: KeyStore
  /** 32 bytes sealing private keys at rest; required when `keys` is absent. */
  masterKey?: Uint8Array
  clock?: Clock
  random?: RandomSource
  /** Signs credentials; default: portable WebCrypto. `createNodeSigner()` from `clubcred/node` is faster. */
  signer?: JwtSigner
  /**
   * Makes the `eddsa-rdfc-2022` proofs of the JSON-LD forms (`createDataIntegritySigner()` from
   * `clubcred/node`). Without one, credentials have their JWT only (their proofs wait, made once an issuer
   * with one runs) and the status list is a VC-JWT to every request (docs/data-integrity.md § Status list).
   */
  dataIntegritySigner?: DataIntegritySigner | null
  /** Sends recipient e-mail; without one, messages wait in the outbox. */
  notifier?: Notifier | null
  /**
   * Checks the Learner Credential Wallet's DID Authentication (`createPresentationVerifier()` from
   * `clubcred/node`); without one, no "Add to Learner Credential Wallet" link is offered.
   */
  presentationVerifier?: PresentationVerifier | null
  /** Options of `issuer.worker`. */
  worker?: WorkerOptions
  /** Renders certificate PDFs (`createPdfRenderer()` from `clubcred/pdf`); without one, files are `png` and `svg` only. */
  certificates?: CertificateRenderer | null
  /**
   * Draws the share pages' cards, the picture a shared link shows (`createShareCardRenderer()` from
   * `clubcred/share-card`; docs/share-card.md). Without one, share pages have no `og:image`.
   */
  shareCards?: ShareCardRenderer | null
  /** Sends webhook deliveries (`createWebhookTransport()` from `clubcred/node`); without one, they wait. */
  webhookTransport?: WebhookTransport | null
  /** Receives observations for monitoring (`createPrometheusMetrics()` from `clubcred/metrics`); default: none. */
  metrics?: MetricsPort
  /**
   * Hashes the staff console's passwords (`createScryptPasswordHasher()` from `clubcred/node`). Without one,
   * admins can be created but no password set nor login made (docs/admin-console.md).
   */
  passwordHasher?: PasswordHasher | null
  /**
   * Checks the staff console's passkeys (`createPasskeyVerifier()` from `clubcred/node`). Without one, the
   * console offers no passkeys and logs in by password only (docs/admin-console.md § Passkeys).
   */
  passkeyVerifier?: PasskeyVerifier | null
  /**
   * The staff console (docs/admin-console.md), which needs the storage's console stores (`ConsoleStores`,
   * which every storage clubcred ships has). Left out: on when the storage has them, off when it has none.
   * `true` asks for it: a storage without them is refused with a TypeError naming the stores it lacks.
   * `false`: off. Off, `issuer.admins` and `issuer.csvUploads` reject every call and `fetch` serves no `/admin/`.
   */
  console?: boolean
}

/**
 * Creates an issuer: the domain operations of clubcred over the given ports, with no HTTP.
 * The package root's `createIssuer` adds `fetch`.
 *
 * @example
 * const issuer = createCoreIssuer({ storage: createMemoryStorage(), masterKey, urls: defaultUrls(8787) })
 * const club = await issuer.clubs.create({ domain: 'chess', name: 'Chess Club' })
 */
export function createCoreIssuer(options: IssuerOptions): CoreIssuer {
  return createCoreIssuerFromContext(createIssuerContext(options), options)
}

/**
 * Validates the options (TypeError on misuse) and wires the ports every operation shares. Not part of
 * the public API (core/index.ts does not export it): the tests of core's internals and the benches build
 * an issuer on a context they hold, instead of reading one back from the issuer.
 */
export function createIssuerContext(options: IssuerOptions): IssuerContext {
  if (!options || typeof options !== 'object') throw new TypeError('createIssuer: options are required')
  const { clock = systemClock, random = webCryptoRandom } = options
  if (!options.storage || typeof options.storage.transaction !== 'function') {
    throw new TypeError('createIssuer: `storage` must be a StoragePort (createMemoryStorage, createSqliteStorage, ...)')
  }
  const metrics = options.metrics ?? noMetrics
  // Wrapped only when someone watches: without metrics, core holds the very storage it was given.
  const storage = options.metrics ? withStorageErrorsObserved(options.storage, metrics) : options.storage
  const certificates = options.certificates ?? null
  if (certificates !== null && typeof certificates.renderPdf !== 'function') {
    throw new TypeError('createIssuer: `certificates` must be a CertificateRenderer (createPdfRenderer() from clubcred/pdf)')
  }
  const shareCardRenderer = options.shareCards ?? null
  if (shareCardRenderer !== null && typeof shareCardRenderer.renderPng !== 'function') {
    throw new TypeError('createIssuer: `shareCards` must be a ShareCardRenderer (createShareCardRenderer() from clubcred/share-card)')
  }
  const config = resolveConfig(options)
  let sealer: Promise<Sealer> | undefined
  const masterKey = options.masterKey instanceof Uint8Array ? options.masterKey : null
  let keys = options.keys
  if (!keys) {
    if (!(options.masterKey instanceof Uint8Array)) {
      throw new TypeError('createIssuer: pass either `keys` (a KeyStore) or `masterKey` (32 bytes)')
    }
    keys = createKeyStore({ storage, masterKey: options.masterKey, clock, random, cacheSize: config.clubCacheSize })
  }
  // The inputs are typed on CoreIssuer; here they stay `unknown`, as each operation validates what it
  // receives at run time (JavaScript callers, request bodies).
  return {
    config,
    storage,
    keys,
    clock,
    random,
    clientAuthFailures: createClientAuthLimiter({ storage, clock, ...config.clientAuthFailures }),
    signer: options.signer ?? webCryptoSigner,
    dataIntegritySigner: options.dataIntegritySigner ?? null,
    notifier: options.notifier ?? null,
    presentationVerifier: options.presentationVerifier ?? null,
    signingQueue: createSignal(),
    sealer: masterKey ? () => (sealer ??= createSealer(masterKey)) : null,
    webhookTransport: options.webhookTransport ?? null,
    metrics,
    shareCardRenderer,
    shareViews: createShareViewCounter({ storage, clock }),
  }
}

/**
 * The operations of `CoreIssuer` over a context already made by `createIssuerContext`: what
 * `createCoreIssuer` does after checking its options, open to the tests and benches that hold the context.
 */
export function createCoreIssuerFromContext(
  ctx: IssuerContext,
  options: Pick<IssuerOptions, 'worker' | 'certificates' | 'passwordHasher' | 'passkeyVerifier' | 'console'>,
): CoreIssuer {
  const { config, storage, keys } = ctx
  const certificates = options.certificates ?? null
  const worker = createWorker(ctx, options.worker)
  const verifyIssuance = createIssuanceVerifier(ctx)
  const publishStatusList = createStatusListPublisher(ctx, ctx.config.clubCacheSize)
  // Issuance files and previews render PDFs behind one gate: together they never exceed its bounds.
  const renderGate = createFilesRenderGate(ctx)
  const issuanceFile = createIssuanceFiles(ctx, certificates, renderGate)
  const previews = createFilePreviews(ctx, certificates, renderGate)
  const shareCards = createShareCards(ctx, ctx.shareCardRenderer)
  const consoleCtx = consoleContextOf(ctx, options.console)

  const issuer: CoreIssuer = {
    config,
    clubs: {
      create: (input: CreateClubInput) => createClub(ctx, input),
      find: (domain: string) => storage.clubs.findByDomain(domain),
      count: () => storage.clubs.count(),
      setVerified: (domain: string, issuerVerified: boolean) => updateClubFlags(ctx, domain, { issuerVerified }),
      setCanIssue: (domain: string, canIssue: boolean) => updateClubFlags(ctx, domain, { canIssue }),
      root: (principal: Principal) => readClubRoot(ctx, principal),
    },
    clients: {
      create: (input: CreateClientInput) => createClient(ctx, input),
      rotate: (clientId: string) => rotateClientSecret(ctx, clientId),
      delete: (clientId: string) => deleteClient(ctx, clientId),
      list: (club: string) => listClients(ctx, club),
    },
    tokens: {
      issue: (request: TokenRequest) => issueAccessToken(ctx, request),
      verify: (token: string) => verifyAccessToken(ctx, token),
      authorize: (principal: Principal, club: string, scope: ScopeName) => authorize(principal, club, scope),
    },
    achievements: {
      create: (club: string, input: unknown) => createTemplate(ctx, club, input),
      patch: (club: string, id: number, input: unknown) => patchTemplate(ctx, club, id, input),
      read: (club: string, id: number) => readTemplate(ctx, club, id),
      list: (club: string, query: ListQuery = {}) => listTemplates(ctx, club, query),
      coIssuers: {
        list: (club: string, id: number) => listCoIssuers(ctx, club, id),
        add: (club: string, id: number, input: unknown) => addCoIssuer(ctx, club, id, input),
        remove: (club: string, id: number, input: unknown) => removeCoIssuer(ctx, club, id, input),
      },
      preview: (club: string, id: number, format: string | null) => previews.template(club, id, format),
    },
    v1: {
      readForm: (club: string, id: number) => readV1Form(ctx, club, id),
      createForm: (club: string, input: unknown) => createV1Form(ctx, club, input),
      patchForm: (club: string, id: number, input: unknown) => patchV1Form(ctx, club, id, input),
      async issue(club: string, input: unknown, { idempotencyKey = null, idempotencyScope = 'library' }: IssueOptions = {}) {
        // The route's name differs from the one under which an earlier version stored v1's own answer
        // (now the batch result is stored), so that such an answer is never replayed as a batch result.
        const scope = `${idempotencyScope} POST v1/achievements ${club}`
        const { result, replayed } = await withIdempotency(ctx, { club, scope, key: idempotencyKey, body: input }, (claim) => issueV1(ctx, club, input, claim))
        return { result: v1BatchResultOf(result), replayed }
      },
      readIssuance: (club: string, id: number) => readIssuanceV1(ctx, club, id),
    },
    legacy: {
      createForm: (club: string, input: unknown) => createLegacyForm(ctx, club, input),
      authenticate: (apiKey: string) => authenticateApiKey(ctx, apiKey),
      createApiKey: (club: string) => createApiKey(ctx, club),
      listApiKeys: (club: string) => listApiKeys(ctx, club),
      revokeApiKey: (id: string) => revokeApiKey(ctx, id),
    },
    designs: {
      create: (club: string, input: unknown) => createDesign(ctx, club, input),
      patch: (club: string, id: number, input: unknown) => patchDesign(ctx, club, id, input),
      read: (club: string, id: number) => readDesign(ctx, club, id),
      list: (club: string, query: ListQuery = {}) => listDesigns(ctx, club, query),
      preview: (club: string, id: number, format: string | null) => previews.design(club, id, format),
    },
    issuances: issuanceOperations(ctx, certificates, issuanceFile),
    events: {
      list: (club: string, query: ListQuery = {}) => listEvents(ctx, club, query),
    },
    verification: verificationOperations(ctx, verifyIssuance, publishStatusList, shareCards),
    wallets: createWallets(ctx),
    webhooks: createWebhooks(ctx),
    consoleEnabled: consoleCtx !== null,
    admins: consoleCtx ? createAdmins(consoleCtx, options.passwordHasher ?? unavailablePasswordHasher, options.passkeyVerifier ?? null) : consoleOff(),
    csvUploads: consoleCtx ? createCsvUploads(consoleCtx) : consoleOff(),
    worker,
    health: {
      readiness: (readinessOptions: ReadinessOptions) => checkReadiness(ctx, worker, readinessOptions),
      signingQueue: () => signingQueueState(ctx),
    },
    keys: {
      async rotate(club: string) {
        // Two units, one per owner: a crash between them leaves the Data Integrity key unrotated, which
        // a second rotation fixes; both old keys stay valid either way.
        const jwtKey = await keys.rotate(clubKeyOwner(club))
        return { ...jwtKey, dataIntegrity: await keys.rotate(clubDataIntegrityKeyOwner(club)) }
      },
    },
    async close() {
      await worker.stop()
      // The views counted since the last batch, before the storage goes.
      await ctx.shareViews.flush().catch(() => {})
      await ctx.signer.close?.()
      await ctx.dataIntegritySigner?.close?.()
      await ctx.presentationVerifier?.close?.()
      await ctx.webhookTransport?.close?.()
      await ctx.shareCardRenderer?.close?.()
      await storage.close()
    },
  }
  return issuer
}

/** The issuance operations of `CoreIssuer`: the keyed ones under their Idempotency-Key scopes. */
function issuanceOperations(
  ctx: IssuerContext,
  certificates: CertificateRenderer | null,
  issuanceFile: ReturnType<typeof createIssuanceFiles>,
): CoreIssuer['issuances'] {
  return {
    issue: (club: string, input: unknown, options: IssueOptions = {}) => issueKeyed(ctx, club, input, options),
    async revoke(club: string, id: number, input?: unknown, { idempotencyKey = null, idempotencyScope = 'library' }: IssueOptions = {}) {
      // Renamed like v1's when the stored answer became the detail itself rather than `{ data }`.
      const scope = `${idempotencyScope} POST issuances/${id}/revoke ${club}`
      const { result, replayed } = await withIdempotency(ctx, { club, scope, key: idempotencyKey, body: input ?? null }, (claim) =>
        revokeIssuance(ctx, club, id, input, claim),
      )
      return { detail: result, replayed }
    },
    async reissue(club: string, id: number, input?: unknown, { idempotencyKey = null, idempotencyScope = 'library' }: IssueOptions = {}) {
      const scope = `${idempotencyScope} POST issuances/${id}/reissue ${club}`
      const { result, replayed } = await withIdempotency(ctx, { club, scope, key: idempotencyKey, body: input ?? null }, (claim) =>
        reissueIssuance(ctx, club, id, input, claim),
      )
      return { detail: result, replayed }
    },
    reissueMany(club: string, input: unknown, { idempotencyKey = null, idempotencyScope = 'library' }: IssueOptions = {}) {
      const scope = `${idempotencyScope} POST issuances/reissue ${club}`
      return withIdempotency(ctx, { club, scope, key: idempotencyKey, body: input }, (claim) => reissueMany(ctx, club, input, claim))
    },
    revokeMany(club: string, input: unknown, { idempotencyKey = null, idempotencyScope = 'library' }: IssueOptions = {}) {
      const scope = `${idempotencyScope} POST issuances/revoke ${club}`
      return withIdempotency(ctx, { club, scope, key: idempotencyKey, body: input }, (claim) => revokeManyIssuances(ctx, club, input, claim))
    },
    notify: (club: string, id: number, input?: unknown) => notifyIssuance(ctx, club, id, input),
    delivery: (club: string, id: number) => readDelivery(ctx, club, id),
    read: (club: string, id: number) => readIssuance(ctx, club, id),
    list: (club: string, query: ListQuery & IssuanceListFilters & { achievementId?: string | null } = {}) => listIssuances(ctx, club, query),
    search: (club: string, query: IssuanceSearchQuery = {}) => searchIssuances(ctx, club, query),
    credential: (club: string, id: number) => readCredential(ctx, club, id),
    file: (club: string, id: number, format: string | null) => issuanceFile(club, id, format),
    fileFormats: supportedFormats(certificates),
  }
}

/** The public operations of `CoreIssuer`: verdicts, the credential's forms, the club's DID and status lists, share pages. */
function verificationOperations(
  ctx: IssuerContext,
  verifyIssuance: ReturnType<typeof createIssuanceVerifier>,
  publishStatusList: ReturnType<typeof createStatusListPublisher>,
  shareCards: ReturnType<typeof createShareCards>,
): CoreIssuer['verification'] {
  const { storage } = ctx
  return {
    verify: (issuanceId: number) => verifyIssuance(issuanceId),
    async credentialJwt(credentialId: string): Promise<string> {
      const credential = await storage.credentials.findById(credentialId)
      if (!credential) throw new ProblemError('credential-not-found', { detail: 'There is no such credential.' })
      return credential.jwt
    },
    async credentialForms(credentialId: string): Promise<CredentialForms> {
      const credential = await storage.credentials.findById(credentialId)
      if (!credential) throw new ProblemError('credential-not-found', { detail: 'There is no such credential.' })
      return { jwt: credential.jwt, jsonLd: jsonLdFormOf(credential) }
    },
    didDocument: (club: string) => didDocument(ctx, club),
    statusList: (club: string, listId: number | null = null) => publishStatusList.jwt(club, listId),
    statusListJsonLd: (club: string, listId: number | null = null) => publishStatusList.jsonLd(club, listId),
    async image(hash: string) {
      const image = /^[0-9a-f]{64}$/.test(hash) ? await storage.images.findByHash(hash) : null
      if (!image) throw new ProblemError('image-not-found', { detail: 'There is no such image.' })
      return image
    },
    shareView: (club: string, credentialId: string) => shareView(ctx, verifyIssuance, club, credentialId),
    shareCard: (club: string, credentialId: string) => shareCards.card(club, credentialId),
    countShareView: (credentialId: string, userAgent: string | null) => ctx.shareViews.count(credentialId, userAgent),
  }
}
