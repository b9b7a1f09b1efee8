import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'
import type { MetricsPort } from '../../core/ports/metrics.ts'
import type { SigningQueueState } from '../../core/health/readiness.ts'
import type { AnsweredRequest } from '../http/answered.ts'

export interface PrometheusMetricsOptions {
  /** Node's process metrics (CPU, memory, event loop lag, GC) beside clubcred's own. Default true. */
  defaultMetrics?: boolean
}

/** clubcred's metrics in a prom-client registry of their own, and the text a scrape reads. */
export interface PrometheusMetrics {
  /** What core observes into (`createIssuer({ metrics: metrics.port })`). */
  port: MetricsPort
  /** What the HTTP face observes into (`createFetchHandler(issuer, { onResponse })`). */
  observeRequest(answered: AnsweredRequest): void
  /** Where the queue gauges are read at each scrape (`issuer.health.signingQueue`); unset, they are absent. */
  readSigningQueue(read: () => Promise<SigningQueueState>): void
  /** The exposition: `content-type` and body (text format 0.0.4). */
  scrape(): Promise<{ contentType: string; body: string }>
  readonly registry: Registry
}

/**
 * Latency buckets from 5 ms to 10 s: an API call answers in milliseconds, a batch of 1,000 recipients
 * or a signing group in seconds.
 */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

/** Methods outside this list are counted as `OTHER`: a client choosing methods must not choose series. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

/**
 * The Prometheus face of the metrics port (docs/operations-metrics.md lists every series). Each call
 * makes a registry of its own, not prom-client's global one, so that several issuers in one process
 * (tests, an embedder with two) never register a name twice.
 *
 * @example
 * const metrics = createPrometheusMetrics()
 * const issuer = createIssuer({ storage, masterKey, urls, metrics: metrics.port, http: { onResponse: metrics.observeRequest } })
 * metrics.readSigningQueue(issuer.health.signingQueue)
 */
export function createPrometheusMetrics({ defaultMetrics = true }: PrometheusMetricsOptions = {}): PrometheusMetrics {
  const registry = new Registry()
  const registers = [registry]
  if (defaultMetrics) collectDefaultMetrics({ register: registry })

  const httpRequests = new Counter({
    name: 'clubcred_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status class.',
    labelNames: ['method', 'route', 'status_class'] as const,
    registers,
  })
  const httpDuration = new Histogram({
    name: 'clubcred_http_request_duration_seconds',
    help: 'Time to answer an HTTP request (until the response head is ready), by method, route template and status class.',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: BUCKETS,
    registers,
  })
  const credentialsSigned = new Counter({ name: 'clubcred_credentials_signed_total', help: 'Credentials signed and stored.', registers })
  const signingDuration = new Histogram({
    name: 'clubcred_signing_duration_seconds',
    help: 'Time to build and sign one group of credentials (one club and template snapshot), storing excluded.',
    buckets: BUCKETS,
    registers,
  })
  const queueDepth = new Gauge({ name: 'clubcred_signing_queue_depth', help: 'Signing jobs not yet completed, read at scrape time.', registers })
  const queueAge = new Gauge({
    name: 'clubcred_signing_queue_oldest_age_seconds',
    help: 'How long the oldest pending signing job has waited, read at scrape time (0 when none).',
    registers,
  })
  const mail = new Counter({
    name: 'clubcred_mail_deliveries_total',
    help: 'Attempts to send recipient mail, by outcome.',
    labelNames: ['outcome'] as const,
    registers,
  })
  const webhooks = new Counter({
    name: 'clubcred_webhook_deliveries_total',
    help: 'Webhook delivery attempts stored, by outcome.',
    labelNames: ['outcome'] as const,
    registers,
  })
  const verifications = new Counter({
    name: 'clubcred_verifications_total',
    help: 'Public verifications answered, by verdict.',
    labelNames: ['verdict'] as const,
    registers,
  })
  const tokens = new Counter({ name: 'clubcred_token_requests_total', help: 'Token requests, by outcome.', labelNames: ['outcome'] as const, registers })
  const storageErrors = new Counter({
    name: 'clubcred_storage_errors_total',
    help: 'Storage calls that failed, by kind.',
    labelNames: ['kind'] as const,
    registers,
  })

  const proofs = new Counter({
    name: 'clubcred_data_integrity_proofs_total',
    help: 'Data Integrity proofs made, by path: fast, or reference where the fast path was not sure of a credential.',
    labelNames: ['path'] as const,
    registers,
  })

  const withoutProof = new Counter({
    name: 'clubcred_credentials_without_proof_total',
    help: 'Credentials settled without a Data Integrity proof, as JSON-LD refuses what their JWT signed.',
    registers,
  })

  let signingQueue: (() => Promise<SigningQueueState>) | null = null

  return {
    registry,
    port: {
      credentialsSigned: (count) => credentialsSigned.inc(count),
      signingLatency: (ms) => signingDuration.observe(ms / 1000),
      mailDelivery: (outcome) => mail.inc({ outcome }),
      webhookDelivery: (outcome) => webhooks.inc({ outcome }),
      verification: (verdict) => verifications.inc({ verdict }),
      tokenRequest: (outcome) => tokens.inc({ outcome }),
      storageError: (kind) => storageErrors.inc({ kind }),
      dataIntegrityProofs: (path, count) => proofs.inc({ path }, count),
      credentialsWithoutProof: (count) => withoutProof.inc(count),
    },
    observeRequest({ method, route, status, durationMs }) {
      // A request no route matched is one series: its path may hold anything a client typed.
      const labels = { method: METHODS.has(method) ? method : 'OTHER', route: route ?? 'unmatched', status_class: `${Math.floor(status / 100)}xx` }
      httpRequests.inc(labels)
      httpDuration.observe(labels, durationMs / 1000)
    },
    readSigningQueue(read) {
      signingQueue = read
    },
    async scrape() {
      if (signingQueue) {
        try {
          const { depth, oldestAgeMs } = await signingQueue()
          queueDepth.set(depth)
          queueAge.set(oldestAgeMs / 1000)
        } catch {
          // The storage is away (counted in storage errors; /readyz says so): no stale value is shown as current.
          queueDepth.reset()
          queueAge.reset()
        }
      }
      return { contentType: registry.contentType, body: await registry.metrics() }
    },
  }
}
