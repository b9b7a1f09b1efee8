import process from 'node:process'
import { createWorkerFetchHandler, withOperationalEndpoints, type MetricsExposition } from '../adapters/http/index.ts'
import { bootstrapDemo, describeDemoClient } from './bootstrap.ts'
import type { Issuer } from '../index.ts'
import type { IssuerUrls } from '../core/config.ts'
import type { ServerConfig, ServerRole } from './config.ts'
import type { AnsweredRequest } from '../adapters/http/answered.ts'

/** What the operator's endpoints need from the process (docs/operations-metrics.md, docs/logs.md). */
export interface OperationalWiring {
  config: Pick<ServerConfig, 'role' | 'readiness' | 'metrics'>
  /** The metrics of this process, when a token or a port asks for them. */
  metrics?: { scrape: MetricsExposition }
  /** Reports every request answered here that the issuer's own fetch handler does not (probes, the worker's handler): the log and metrics. */
  onResponse?: (answered: AnsweredRequest) => void
}

/**
 * What a process of this role answers over HTTP: the whole surface, or a worker's health check only;
 * both behind `/healthz`, `/readyz` and (with `CLUBCRED_METRICS_TOKEN`) `/metrics`. Readiness checks
 * the signing queue only where this process signs: an `api` node answers for its storage.
 */
export function handlerFor(issuer: Issuer, { config, metrics, onResponse }: OperationalWiring): (request: Request) => Promise<Response> {
  const { role } = config
  const next = role === 'worker' ? createWorkerFetchHandler(issuer, onResponse ? { onResponse } : {}) : issuer.fetch
  const readinessOptions = { signs: role !== 'api', maxSigningAgeMs: config.readiness.maxSigningAgeMs }
  const token = config.metrics.token
  return withOperationalEndpoints(next, {
    readiness: () => issuer.health.readiness(readinessOptions),
    role,
    problemBaseUrl: issuer.config.problemBaseUrl,
    ...(metrics && token ? { metrics: { token, scrape: metrics.scrape } } : {}),
    ...(onResponse ? { onResponse } : {}),
  })
}

/** Every request reported to each of `reporters` that is given (the log, the metrics). */
export function reportingTo(...reporters: (((answered: AnsweredRequest) => void) | undefined)[]): (answered: AnsweredRequest) => void {
  const given = reporters.filter((reporter) => reporter !== undefined)
  return (answered) => {
    for (const report of given) report(answered)
  }
}

/**
 * A line for the person who started the server, on stderr (docs/logs.md § Where it goes): only until the
 * listening line; after it, every line is the logger's JSON.
 */
function operatorLine(line: string): void {
  process.stderr.write(`${line}\n`)
}

/**
 * The start-up lines of every runtime's entry, the same and in the same order (docs/logs.md): the
 * listening line comes last, so whoever waits for it finds every other one before it.
 */
export function announceStart({ metricsUrl, role, url }: { metricsUrl: string | undefined; role: ServerRole; url: string }): void {
  if (metricsUrl) operatorLine(`clubcred: metrics on ${metricsUrl}`)
  operatorLine(`clubcred: role ${role}`)
  operatorLine(`clubcred listening on ${url}`)
}

/**
 * What every runtime does once its server listens and the issuer answers: start the signing worker
 * (not on an `api` node: the deployment's workers sign what it accepts), seed the demo club on an empty
 * storage and print its client (not on a `worker`, which has no API to call), and name the listening URL
 * (an IPv6 host in brackets).
 */
export async function startServing(issuer: Issuer, role: ServerRole, urls: IssuerUrls, host: string, port: number): Promise<string> {
  if (role !== 'api') issuer.worker.start()
  if (role !== 'worker') {
    const demo = await bootstrapDemo(issuer)
    if (demo) process.stderr.write(describeDemoClient(demo, `${urls.auth}/token`, urls.base))
  }
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`
}
