import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'

/** A request as the receiver got it. */
export interface ReceivedWebhook {
  id: string
  timestamp: string
  signature: string
  body: string
  /** Secrets (by index in `secrets`) with which the Standard Webhooks library verified it. */
  verifiedWith: number[]
}

/** What to do with a request: answer a status, or `'hang'` to answer nothing (the sender times out). */
export type Behaviour = (request: ReceivedWebhook, attempt: number) => number | 'hang'

/**
 * A real HTTP receiver on loopback that checks every request with the `standardwebhooks` npm library
 * (not this project's code) against each of `secrets`; `received` keeps every request, verified or not.
 */
export async function startReceiver(secrets: string[] = [], behaviour: Behaviour = () => 200) {
  const received: ReceivedWebhook[] = []
  const attempts = new Map<string, number>()
  const hanging = new Set<ServerResponse>()
  const state = { secrets, behaviour }
  async function receive(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks).toString('utf8')
    const headers = {
      'webhook-id': String(req.headers['webhook-id']),
      'webhook-timestamp': String(req.headers['webhook-timestamp']),
      'webhook-signature': String(req.headers['webhook-signature']),
    }
    const verifiedWith = state.secrets.flatMap((secret, i) => {
      try {
        new Webhook(secret).verify(body, headers)
        return [i]
      } catch {
        return []
      }
    })
    const request = { id: headers['webhook-id'], timestamp: headers['webhook-timestamp'], signature: headers['webhook-signature'], body, verifiedWith }
    received.push(request)
    const attempt = (attempts.get(request.id) ?? 0) + 1
    attempts.set(request.id, attempt)
    const answer = state.behaviour(request, attempt)
    if (answer === 'hang') {
      hanging.add(res)
      return
    }
    res.writeHead(answer, { 'content-type': 'text/plain' }).end('ok')
  }
  // A request its sender aborts mid-body fails the read: that connection is dropped, the receiver runs on.
  const server = createServer((req, res) => void receive(req, res).catch(() => res.destroy()))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received,
    state,
    async close() {
      for (const res of hanging) res.destroy()
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
