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
    const mine = touching[node]!
    const subjects: string[] = []
    const objects: string[] = []
    for (const quad of mine) {
      subjects.push(firstDegree(quad.subject, quad.subjectNode, node))
      objects.push(firstDegree(quad.object, quad.objectNode, node))
    }
    const text = serialized(mine, subjects, objects)
    hashes.push({ hash: hash('sha256', text, 'hex'), node })
  }
  hashes.sort((a, b) => (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0))
  for (let i = 1; i < hashes.length; i++) {
    if (hashes[i]!.hash === hashes[i - 1]!.hash) return rdfCanonize.canonize(quads.map(toQuad), { algorithm: 'RDFC-1.0' })
  }
  const canonical: string[] = new Array<string>(blankNodes)
  hashes.forEach(({ node }, i) => (canonical[node] = `_:c14n${i}`))
  return serialized(
    quads,
    quads.map((quad) => (quad.subjectNode < 0 ? quad.subject : canonical[quad.subjectNode]!)),
    quads.map((quad) => (quad.objectNode < 0 ? quad.object : canonical[quad.objectNode]!)),
  )
}

/**
 * The N-Quads lines of `quads`, with `subjects[i]` and `objects[i]` as the text of quad i's terms, sorted
 * as rdf-canonize sorts lines (by UTF-16 code unit) and concatenated. Sorted by term, not by line, so that
 * no line is built before its place is known: the subject's text, then the predicate's rank, then the
 * object's text, which is the lines' order. Where a term's text is the start of another's, the shorter
 * comes first either way: in its line a space follows it, and the longer one goes on with a character
 * above the space (a label's digit, `_:c14n1` and `_:c14n10`; a literal's datatype, `^^`; an IRI is
 * never the start of another, ending with its one `>`).
 */
function serialized(quads: WrittenQuad[], subjects: string[], objects: string[]): string {
  const order = quads.map((_, i) => i)
  order.sort((a, b) => compare(subjects[a]!, subjects[b]!) || quads[a]!.rank - quads[b]!.rank || compare(objects[a]!, objects[b]!))
  let text = ''
  for (const i of order) text += `${subjects[i]!}${quads[i]!.middle}${objects[i]!} .\n`
  return text
}

/** A term in a first-degree quad: as it is, or `_:a` for the blank node hashed, `_:z` for any other. */
function firstDegree(text: string, node: number, hashed: number): string {
  return node < 0 ? text : node === hashed ? '_:a' : '_:z'
}

function compare(a: string, b: string): number {
  return a === b ? 0 : a < b ? -1 : 1
}
