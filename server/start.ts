import process from 'node:process'
import { createWorkerFetchHandler } from '../adapters/http/index.ts'
import { bootstrapDemo, describeDemoClient } from './bootstrap.ts'
import type { Issuer } from '../index.ts'
import type { IssuerUrls } from '../core/config.ts'
import type { ServerRole } from './config.ts'
import type { AnsweredRequest } from '../adapters/http/answered.ts'

/** What a process of this role answers over HTTP: the whole surface, or a worker's health check only. */
export function handlerFor(issuer: Issuer, role: ServerRole, onResponse?: (answered: AnsweredRequest) => void): (request: Request) => Promise<Response> {
  return role === 'worker' ? createWorkerFetchHandler(issuer, onResponse ? { onResponse } : {}) : issuer.fetch
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
