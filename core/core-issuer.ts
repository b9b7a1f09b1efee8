import type { RevokeManyResult } from './issuances/revoke-many.ts'
import type { IssuerConfig } from './config.ts'
import type { Club } from './clubs/club.ts'
import type { CreateClubInput } from './clubs/create.ts'
import type { ClubRoot } from './clubs/read-root.ts'
import type { ClientCredentials, CreateClientInput } from './clients/create.ts'
import type { ClientView } from './clients/list.ts'
import type { TokenRequest, TokenResponse } from './tokens/issue.ts'
import type { Principal } from './tokens/principal.ts'
import type { ScopeName } from './scopes.ts'
import type { ListQuery, Page } from './lists/cursor.ts'
import type { CoIssuerView, TemplateView } from './achievements/present.ts'
import type { V1Form } from './achievements/v1-form.ts'
import type { ApiKeyView } from './api-keys/list.ts'
import type { CredentialForms } from './credentials/json-ld-form.ts'
import type { DesignView } from './designs/present.ts'
import type { StoredImage } from './designs/design.ts'
import type { FilePreview } from './files/preview-file.ts'
import type { BatchResult } from './issuances/issue.ts'
import type { BulkReissueResult } from './reissues/reissue.ts'
import type { IssuanceDetail, IssuanceItem } from './issuances/present.ts'
import type { CredentialView } from './issuances/read.ts'
import type { IssuanceSearchQuery } from './issuances/search.ts'
import type { IssuanceListFilters } from './issuances/list-filters.ts'
import type { V1BatchResult, V1IssuanceView } from './issuances/v1.ts'
import type { FileFormat, IssuanceFile } from './files/prepare-file.ts'
import type { EventView } from './events/list.ts'
import type { Verdict } from './verification/verify-issuance.ts'
import type { ShareView } from './verification/share-view.ts'
import type { ShareCardFile } from './share-cards/share-card.ts'
import type { DidDocument } from './did-documents/did-document.ts'
import type { SecuredStatusList, SignedStatusList } from './status-lists/credential.ts'
import type { IssuerWorker } from './worker/loop.ts'
import type { Readiness, ReadinessOptions, SigningQueueState } from './health/readiness.ts'
import type { SigningKey } from './ports/key-store.ts'
import type { Wallets } from './wallets/wallets.ts'
import type { Webhooks } from './webhooks/webhooks.ts'
import type { Admins } from './admins/admins.ts'
import type { CsvUploads } from './csv-uploads/csv-uploads.ts'
import type {
  CoIssuerAddBody,
  CoIssuerRemoveBody,
  DesignCreateBody,
  DesignPatchBody,
  IssueBody,
  LegacyFormBody,
  RevokeBody,
  ReissueBody,
  BulkReissueBody,
  RevokeManyBody,
  NotifyBody,
  TemplateCreateBody,
  TemplatePatchBody,
  V1FormCreateBody,
  V1FormPatchBody,
  V1IssueBody,
} from './inputs.ts'

/** Options of an idempotent write (issue, revoke). */
export interface IssueOptions {
  /** `Idempotency-Key`: a repeat with the same key and body replays the first result. */
  idempotencyKey?: string | null
  /** Whose keys these are (the API client); keys are scoped to it and the route. */
  idempotencyScope?: string
}

/**
 * What an idempotent write answers besides its result: whether the result is the first answer to this
 * `Idempotency-Key`, replayed. A replayed result equals the first one, and as JSON it is the same text.
 */
export interface IdempotentOutcome {
  replayed: boolean
}

/**
 * The domain operations of an issuer, with no HTTP: what `createCoreIssuer` returns, and what the package
 * root's `Issuer` extends with `fetch`. Operations throw `ProblemError` (core/errors.ts) for what a caller
 * got wrong or asked for in vain; each line names the codes particular to it. Every operation on a club
 * throws `club-not-found` when the club does not exist, and every write validates its input at run time
 * (`validation-failed` with field errors), also when the compiler has checked it: JavaScript callers and
 * the HTTP face pass bodies the types have not seen.
 */
export interface CoreIssuer {
  /** The resolved configuration (core/config.ts), defaults filled in. */
  readonly config: IssuerConfig
  clubs: {
    /** Creates a club (the admin CLI's `club create`); `validation-failed` for a bad domain, `conflict` when it exists. */
    create(input: CreateClubInput): Promise<Club>
    /** The club of a domain, or `null`. */
    find(domain: string): Promise<Club | null>
    /** How many clubs exist; the server's first start creates the demo club only when there are none. */
    count(): Promise<number>
    /** Sets whether the club's issuer is verified (shown on the share page). */
    setVerified(domain: string, issuerVerified: boolean): Promise<Club>
    /** Sets whether the club may issue; issuing in a club that may not is `issuing-disabled`. */
    setCanIssue(domain: string, canIssue: boolean): Promise<Club>
    /** The club API root (docs/api.md §4.2) for the token's club. */
    root(principal: Principal): Promise<ClubRoot>
  }
  clients: {
    /** Creates an API client of a club with its scopes; the secret is returned once, never stored in clear. */
    create(input: CreateClientInput): Promise<ClientCredentials>
    /** Replaces a client's secret; the old one stops working. `client-not-found`. */
    rotate(clientId: string): Promise<{ client_id: string; client_secret: string }>
    /** Deletes a client; its tokens stop working. `client-not-found`. */
    delete(clientId: string): Promise<{ deleted: true }>
    /** The club's clients (ids, scopes, times, lockout; never a secret), oldest first. */
    list(club: string): Promise<ClientView[]>
  }
  tokens: {
    /** The client-credentials grant (docs/api.md §4.1); throws `OAuthError` (RFC 6749 codes), not `ProblemError`. */
    issue(request: TokenRequest): Promise<TokenResponse>
    /** The principal of an access token; `invalid-token` when it is not one of ours or has expired. */
    verify(token: string): Promise<Principal>
    /** Checks a principal may act on a club with a scope: `club-forbidden`, or `insufficient-scope`. */
    authorize(principal: Principal, club: string, scope: ScopeName): void
  }
  /** Achievement templates (docs/api.md §2.3 to §2.5, §4.10); `achievement-not-found` for an unknown id. */
  achievements: {
    /** Creates a template; a design it names that the club does not have is `validation-failed` (`design-not-found`). */
    create(club: string, input: TemplateCreateBody): Promise<TemplateView>
    /** Changes the members given; fields engraved into issued credentials stay in their snapshot. */
    patch(club: string, id: number, input: TemplatePatchBody): Promise<TemplateView>
    /** A template. */
    read(club: string, id: number): Promise<TemplateView>
    /** The club's templates, one keyset page at a time. */
    list(club: string, query?: ListQuery): Promise<Page<TemplateView>>
    /**
     * A template's co-issuers (docs/api.md §2.3; the admin CLI and the staff console add them, v2 reads them only). Each returns the
     * list as the template read shows it, the club first as `representative`.
     * @example
     * await issuer.achievements.coIssuers.add('chess', 1, { name: 'Seoul Chess Federation', url: 'https://chess.or.kr', isVerified: true })
     */
    coIssuers: {
      /** The co-issuers of a template. */
      list(club: string, id: number): Promise<CoIssuerView[]>
      /** Adds a co-issuer; the same url again updates that co-issuer in place. */
      add(club: string, id: number, input: CoIssuerAddBody): Promise<CoIssuerView[]>
      /** Removes a co-issuer by url; a url the template does not list is `validation-failed` (`co-issuer-not-found`). */
      remove(club: string, id: number, input: CoIssuerRemoveBody): Promise<CoIssuerView[]>
    }
    /**
     * What the template's files would look like (the staff console's preview): its badge unbaked (`png`,
     * `svg`) or its certificate for a sample recipient (`pdf`, with a certificate renderer). Stores nothing.
     */
    preview(club: string, id: number, format: string | null): Promise<FilePreview>
  }
  /** The v1 surface (docs/api.md §4.12): the same templates and issuances in the older shapes. */
  v1: {
    /** A template as a v1 form; `achievement-not-found`. */
    readForm(club: string, id: number): Promise<V1Form>
    /** Creates a template from a v1 form. */
    createForm(club: string, input: V1FormCreateBody): Promise<V1Form>
    /** Changes a template through its v1 form; `achievement-not-found`. */
    patchForm(club: string, id: number, input: V1FormPatchBody): Promise<V1Form>
    /** Issues a form to recipients, as `issuances.issue` does; the result is the v1 batch answer `{ issued[], failed[] }`. */
    issue(club: string, input: V1IssueBody, options?: IssueOptions): Promise<IdempotentOutcome & { result: V1BatchResult }>
    /** An issuance in the v1 shape; `issuance-not-found`. */
    readIssuance(club: string, id: number): Promise<V1IssuanceView>
  }
  /** Legacy form creation (docs/api.md §4.13) and its API keys. */
  legacy: {
    /** Creates a template from a legacy form. */
    createForm(club: string, input: LegacyFormBody): Promise<{ achievementFormId: number }>
    /** The club of a legacy API key, or `null` when it is not a valid key. */
    authenticate(apiKey: string): Promise<string | null>
    /** Creates a legacy API key for a club; the key is returned once. */
    createApiKey(club: string): Promise<{ api_key: string; club: string }>
    /** The club's API keys (ids and times, never a secret), oldest first. */
    listApiKeys(club: string): Promise<{ club: string; api_keys: ApiKeyView[] }>
    /** Revokes an API key by id: it gets 401 `Invalid token` from then on. `api-key-not-found`. */
    revokeApiKey(id: string): Promise<ApiKeyView & { club: string }>
  }
  /** Badge and certificate designs; `design-not-found` for an unknown id. */
  designs: {
    /** Creates a design; its image is checked (PNG, or SVG without script) and stored by content hash. */
    create(club: string, input: DesignCreateBody): Promise<DesignView>
    /** Changes the members given. */
    patch(club: string, id: number, input: DesignPatchBody): Promise<DesignView>
    /** A design. */
    read(club: string, id: number): Promise<DesignView>
    /** The club's designs, one keyset page at a time. */
    list(club: string, query?: ListQuery): Promise<Page<DesignView>>
    /** A badge design's badge (`png`, `svg`) or a certificate design's certificate (`pdf`) for a sample template; stores nothing. */
    preview(club: string, id: number, format: string | null): Promise<FilePreview>
  }
  issuances: {
    /**
     * Issues a template to recipients (docs/api.md §4.3): `issuing-disabled`, `too-many-recipients`,
     * `idempotency-key-reused`, `idempotency-in-flight`; a recipient that fails validation is an item of
     * the batch result, not a throw. Returns the batch result with the idempotent outcome.
     */
    issue(club: string, input: IssueBody, options?: IssueOptions): Promise<IdempotentOutcome & { result: BatchResult }>
    /** Revokes an issuance (docs/api.md §4.7); idempotent, and an `Idempotency-Key` replays the first answer byte for byte. */
    revoke(club: string, id: number, input?: RevokeBody, options?: IssueOptions): Promise<IdempotentOutcome & { detail: IssuanceDetail }>
    /**
     * Reissues an issuance (docs/api.md §4.17, docs/decisions/0046-reissue.md): a new version of its
     * credential for the same recipient, or a new issuance for another; `issuance-revoked`. Answers the
     * detail of the issuance that holds the credential now.
     */
    reissue(club: string, id: number, input?: ReissueBody, options?: IssueOptions): Promise<IdempotentOutcome & { detail: IssuanceDetail }>
    /** Reissues many issuances with one expiry (docs/api.md §4.17): a result per id and a summary. */
    reissueMany(club: string, input: BulkReissueBody, options?: IssueOptions): Promise<IdempotentOutcome & { result: BulkReissueResult }>
    /**
     * Revokes up to 1,000 issuances in one unit (docs/api.md §4.7b): `too-many-issuances`, `validation-failed`,
     * `idempotency-key-reused`, `idempotency-in-flight`; an id not found or already revoked is an item of the result.
     */
    revokeMany(club: string, input: RevokeManyBody, options?: IssueOptions): Promise<IdempotentOutcome & { result: RevokeManyResult }>
    /** Mails the recipient again (docs/api.md §4.7a): `issuance-not-found`, `issuance-revoked`, `rate-limited` (3 in 24 hours). */
    notify(club: string, id: number, input?: NotifyBody): Promise<IssuanceDetail>
    /** An issuance's mails as its events tell them, newest first (the staff console's delivery); `issuance-not-found`. */
    delivery(club: string, id: number): Promise<EventView[]>
    /** An issuance (docs/api.md §4.4); `issuance-not-found`. */
    read(club: string, id: number): Promise<IssuanceDetail>
    /** The club's issuances, newest first, optionally of one template. */
    list(club: string, query?: ListQuery & IssuanceListFilters & { achievementId?: string | null }): Promise<Page<IssuanceItem>>
    /**
     * The staff console's list (docs/admin-console.md § Issuances): `list` with a status filter and a
     * search by name (prefix), e-mail or external user id; `validation-failed` for a filter that is not one.
     */
    search(club: string, query?: IssuanceSearchQuery): Promise<Page<IssuanceItem>>
    /** The signed credential of an issuance (docs/api.md §2.8); `credential-pending` before it is signed. */
    credential(club: string, id: number): Promise<CredentialView>
    /**
     * The certificate file (docs/api.md §4.6): `pdf`, or the badge baked with the credential (`png`, `svg`),
     * within `config.files` (per-club rate `rate-limited`, rendering queue `server-busy`).
     */
    file(club: string, id: number, format: string | null): Promise<IssuanceFile>
    /** The formats `file` (and the previews) serve on this issuer: `pdf` only with a certificate renderer. */
    readonly fileFormats: readonly FileFormat[]
  }
  events: {
    /** The club's events (issued, revoked, ...), one keyset page at a time. */
    list(club: string, query?: ListQuery): Promise<Page<EventView>>
  }
  /** The public, unauthenticated surface (docs/api.md §4.11). */
  verification: {
    /** The verdict of docs/api.md §2.11 for an issuance id; `statusCode` 404 when there is no credential. */
    verify(issuanceId: number): Promise<Verdict>
    /** The signed JWT of a credential, or `credential-not-found`. */
    credentialJwt(credentialId: string): Promise<string>
    /**
     * A credential's two forms (docs/data-integrity.md § Storage): its signed JWT and its JSON-LD form
     * (`ready`, `pending` or `none`), or `credential-not-found`.
     */
    credentialForms(credentialId: string): Promise<CredentialForms>
    /** The club's did:web DID document, every key current and rotated. */
    didDocument(club: string): Promise<DidDocument>
    /** The club's revocation list credential; `listId` `null` is its first list. `status-list-not-found`. */
    statusList(club: string, listId?: number | null): Promise<SignedStatusList>
    /**
     * The same list as JSON-LD with an `eddsa-rdfc-2022` proof of the club's Ed25519 key, or `null` when
     * the issuer has no Data Integrity signer. `status-list-not-found`.
     */
    statusListJsonLd(club: string, listId?: number | null): Promise<SecuredStatusList | null>
    /** A stored image by its content hash (badge images, logos), or `image-not-found`. */
    image(hash: string): Promise<StoredImage>
    /** What the share page of a credential shows, or `null` (no such credential in this club). */
    shareView(club: string, credentialId: string): Promise<ShareView | null>
    /**
     * The share card of a credential of `club` (docs/share-card.md): its strong `ETag`, known without
     * drawing, and its PNG; `null` when there is no such credential or the issuer has no card renderer.
     * The PNG may reject with 503 `server-busy` when too many cards are being drawn.
     */
    shareCard(club: string, credentialId: string): Promise<ShareCardFile | null>
    /**
     * Counts a person's view of the credential's share page (not a link preview's: `userAgent` decides),
     * in memory: written in a batch a few seconds later, never on the page's own path.
     */
    countShareView(credentialId: string, userAgent: string | null): void
  }
  /** OID4VCI 1.0, pre-authorized code flow: each club a credential issuer for wallets. */
  wallets: Wallets
  /** Signed webhooks: endpoints, their delivery log, replay. */
  webhooks: Webhooks
  /**
   * Whether the staff console is on (`IssuerOptions.console`): off, `admins` and `csvUploads` reject every
   * call with a TypeError, and the HTTP face serves no console.
   */
  consoleEnabled: boolean
  /** The staff console's admins, logins and sessions (docs/admin-console.md). */
  admins: Admins
  /** The staff console's issuing by CSV: preview, issue in chunks, progress (docs/admin-console.md § Issuing by CSV). */
  csvUploads: CsvUploads
  /** The background worker that signs credentials and sends mail; the server starts it. */
  readonly worker: IssuerWorker
  /** What an operator's probes and metrics read (docs/operations-metrics.md). */
  health: {
    /** Whether this process should get traffic, or why not; never throws. */
    readiness(options: ReadinessOptions): Promise<Readiness>
    /** The signing queue's depth and the age of its oldest job; rejects when the storage does. */
    signingQueue(): Promise<SigningQueueState>
  }
  keys: {
    /**
     * Rotates the club's signing keys, the VC-JWT key (returned) and the Data Integrity key (returned as
     * `dataIntegrity`); the DID document keeps the old ones, so earlier credentials verify.
     */
    rotate(club: string): Promise<SigningKey & { dataIntegrity: SigningKey }>
  }
  /** Stops the worker, then closes the signer and the storage. */
  close(): Promise<void>
}
