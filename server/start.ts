import process from 'node:process'
import { bootstrapDemo, describeDemoClient } from './bootstrap.ts'
import type { Issuer } from '../index.ts'
import type { IssuerUrls } from '../core/config.ts'

/**
 * What every runtime does once its server listens and the issuer answers: start the signing worker,
 * seed the demo club on an empty data dir (printing its client), and name the listening URL (an IPv6
 * host in brackets).
 */
export async function startServing(issuer: Issuer, urls: IssuerUrls, host: string, port: number): Promise<string> {
  issuer.worker.start()
  const demo = await bootstrapDemo(issuer)
  if (demo) process.stderr.write(describeDemoClient(demo, `${urls.auth}/token`, urls.base))
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`
}
