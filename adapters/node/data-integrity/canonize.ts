import { hash } from 'node:crypto'
import rdfCanonize from 'rdf-canonize'
import { toQuad, type WrittenQuad, type WrittenQuads } from './n-quads.ts'

/**
 * RDFC-1.0 of quads from `writeQuads`: the canonical N-Quads rdf-canonize makes of them, byte for byte.
 * The common case is done here, in rdf-canonize's steps: each blank node's first-degree hash (its quads,
 * itself as `_:a` and any other as `_:z`, serialized, sorted, concatenated, SHA-256 in hex); when every
 * hash is unique, RDFC-1.0 issues the canonical identifiers `c14n0`, `c14n1`, … in the order of those
 * hashes and never reaches its N-degree step, so the labels are these. Then every quad with them,
 * serialized, sorted (as rdf-canonize sorts: by UTF-16 code unit), concatenated. Two blank nodes with one
 * hash (two identical evidences without an address) need the N-degree step: rdf-canonize then runs the
 * whole algorithm on the same quads.
 *
 * Serialized as rdf-canonize's NQuads does (the writer made each term's text: n-quads.ts).
 */
export async function canonicalNQuads({ quads, blankNodes }: WrittenQuads): Promise<string> {
  const touching: WrittenQuad[][] = []
  for (let node = 0; node < blankNodes; node++) touching.push([])
  for (const quad of quads) {
    if (quad.subjectNode >= 0) touching[quad.subjectNode]!.push(quad)
    // A quad whose subject and object are one blank node counts once, as rdf-canonize's set does.
    if (quad.objectNode >= 0 && quad.objectNode !== quad.subjectNode) touching[quad.objectNode]!.push(quad)
  }

  const hashes: { hash: string; node: number }[] = []
  for (let node = 0; node < blankNodes; node++) {
    const lines = touching[node]!.map((quad) => `${label(quad.subject, quad.subjectNode, node)}${quad.middle}${label(quad.object, quad.objectNode, node)} .\n`)
    lines.sort()
    hashes.push({ hash: hash('sha256', lines.join(''), 'hex'), node })
  }
  hashes.sort((a, b) => (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0))
  for (let i = 1; i < hashes.length; i++) {
    if (hashes[i]!.hash === hashes[i - 1]!.hash) return rdfCanonize.canonize(quads.map(toQuad), { algorithm: 'RDFC-1.0' })
  }
  const canonical: string[] = new Array<string>(blankNodes)
  hashes.forEach(({ node }, i) => (canonical[node] = `_:c14n${i}`))
  const lines = quads.map(
    (quad) =>
      `${quad.subjectNode < 0 ? quad.subject : canonical[quad.subjectNode]}${quad.middle}${quad.objectNode < 0 ? quad.object : canonical[quad.objectNode]} .\n`,
  )
  lines.sort()
  return lines.join('')
}

/** A term in a first-degree quad: as it is, or `_:a` for the blank node hashed, `_:z` for any other. */
function label(text: string, node: number, hashed: number): string {
  return node < 0 ? text : node === hashed ? '_:a' : '_:z'
}
