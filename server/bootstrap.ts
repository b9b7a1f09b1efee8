import { ProblemError } from '../core/errors.ts'
import type { Issuer } from '../index.ts'
import type { ClientCredentials } from '../core/clients/create.ts'

/**
 * First start on an empty data dir: club `demo` and one all-scope client, so that a newcomer can call the
 * API at once (docs/decisions/0002-admin-cli.md). Returns the client, or `null` when the data dir had clubs
 * already.
 */
export async function bootstrapDemo(issuer: Issuer): Promise<ClientCredentials | null> {
  if ((await issuer.clubs.count()) > 0) return null
  try {
    await issuer.clubs.create({ domain: 'demo', name: 'Demo Club' })
  } catch (error) {
    // Several nodes starting together on one empty database: one of them creates the demo club.
    if (error instanceof ProblemError && error.code === 'conflict') return null
    throw error
  }
  return issuer.clients.create({ club: 'demo' })
}

export function describeDemoClient(client: ClientCredentials, tokenUrl: string, baseUrl: string): string {
  return [
    'clubcred: created club "demo" and an API client. The secret is shown this once:',
    `  client_id:     ${client.client_id}`,
    `  client_secret: ${client.client_secret}`,
    'Try it:',
    `  TOKEN=$(curl -s -u '${client.client_id}:${client.client_secret}' -d grant_type=client_credentials ${tokenUrl} | sed -E 's/.*"access_token":"([^"]+)".*/\\1/')`,
    `  curl -s -H "Authorization: Bearer $TOKEN" ${baseUrl}/v2/clubs/demo/`,
    '',
  ].join('\n')
}
