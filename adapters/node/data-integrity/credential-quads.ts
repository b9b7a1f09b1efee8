import { DOCUMENT_SHAPES, type DocumentShape, type MemberShape, type NodeShape } from './shapes.ts'

/** RDF terms as rdf-canonize takes them, and as `jsonld.toRDF` makes them. */
export interface NamedNode {
  termType: 'NamedNode'
  value: string
}
export interface BlankNode {
  termType: 'BlankNode'
  value: string
}
export interface Literal {
  termType: 'Literal'
  value: string
  datatype: NamedNode
}
export interface Quad {
  subject: NamedNode | BlankNode
  predicate: NamedNode
  object: NamedNode | BlankNode | Literal
  graph: { termType: 'DefaultGraph'; value: '' }
}

const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type'
const DEFAULT_GRAPH = { termType: 'DefaultGraph', value: '' } as const

/**
 * The IRIs written as they are: with no base, jsonld keeps an absolute IRI unchanged, and these schemes are
 * never read as a compact IRI (none is a term of the contexts; `http(s)://` never is). Whitespace (which
 * jsonld reads as a relative reference, an error in safe mode) and what N-Quads would have to escape are
 * left to the reference path, as is every other scheme.
 */
const PLAIN_IRI = /^(?:https?:\/\/|did:|urn:)[^\s<>"{}|\\^`\p{Cc}]*$/u

/** Thrown inside the writer on the first thing it is not sure of; never leaves this file. */
const UNSURE = Symbol('unsure')

const CONTEXT_TEXT = new Map(DOCUMENT_SHAPES.map((shape) => [shape, JSON.stringify(shape.context)]))

/** The shape whose `@context` the document has, exactly; `null` for any other. */
export function documentShapeOf(document: Record<string, unknown>): DocumentShape | null {
  const context = document['@context']
  if (!Array.isArray(context)) return null
  const text = JSON.stringify(context)
  return DOCUMENT_SHAPES.find((shape) => CONTEXT_TEXT.get(shape) === text) ?? null
}

/**
 * The RDF dataset of `document`, as `jsonld.toRDF` in safe mode makes it over clubcred's copies of the
 * contexts (the same quads, blank nodes aside, which RDFC-1.0 labels alike whatever their input labels),
 * written from the shape instead of by JSON-LD expansion; `null` when the document holds anything the shape
 * does not: a member, a `type`, a value's JSON type, an IRI it does not know. Duplicate quads are written
 * once, as jsonld's node map merges them.
 */
export function writeQuads(document: Record<string, unknown>, shape: DocumentShape): Quad[] | null {
  const quads: Quad[] = []
  const seen = new Set<string>()
  let blankNodes = 0

  function emit(subject: NamedNode | BlankNode, predicate: string, object: NamedNode | BlankNode | Literal): void {
    // Injective: only the literal's value, last, may hold a NUL.
    const key = `${subject.value}\u0000${predicate}\u0000${object.termType}\u0000${object.termType === 'Literal' ? object.datatype.value : ''}\u0000${object.value}`
    if (seen.has(key)) return
    seen.add(key)
    quads.push({ subject, predicate: { termType: 'NamedNode', value: predicate }, object, graph: DEFAULT_GRAPH })
  }

  function iri(value: unknown): NamedNode {
    if (typeof value !== 'string' || !PLAIN_IRI.test(value)) throw UNSURE
    return { termType: 'NamedNode', value }
  }

  function writeNode(json: unknown, shape: NodeShape, root = false): NamedNode | BlankNode {
    if (typeof json !== 'object' || json === null || Array.isArray(json)) throw UNSURE
    const node = json as Record<string, unknown>
    let subject: NamedNode | BlankNode
    if (Object.hasOwn(node, 'id')) {
      if (shape.id === 'absent') throw UNSURE
      subject = iri(node.id)
    } else {
      if (shape.id === 'required') throw UNSURE
      subject = { termType: 'BlankNode', value: `b${blankNodes++}` }
    }
    // A type picks the type-scoped context its members are read in: it must be there, exactly.
    if (shape.type) {
      if (!sameJson(node.type, shape.type.json)) throw UNSURE
      for (const type of shape.type.classes) emit(subject, RDF_TYPE, { termType: 'NamedNode', value: type })
    } else if (Object.hasOwn(node, 'type')) throw UNSURE
    for (const name of Object.keys(node)) {
      if (name === 'id' || name === 'type' || (root && name === '@context')) continue
      if (!Object.hasOwn(shape.members, name)) throw UNSURE
      writeMember(subject, shape.members[name]!, node[name])
    }
    return subject
  }

  function writeMember(subject: NamedNode | BlankNode, member: MemberShape, value: unknown): void {
    if (value === null) {
      if (member.nullable) return
      throw UNSURE
    }
    if (member.container === 'one') {
      if (Array.isArray(value)) throw UNSURE
      writeValue(subject, member, value)
      return
    }
    if (!Array.isArray(value)) throw UNSURE
    for (const item of value as unknown[]) {
      if (item === null || Array.isArray(item)) throw UNSURE
      writeValue(subject, member, item)
    }
  }

  function writeValue(subject: NamedNode | BlankNode, { predicate, value: shape }: MemberShape, value: unknown): void {
    switch (shape.kind) {
      case 'literal':
        if (typeof value !== 'string') throw UNSURE
        emit(subject, predicate, { termType: 'Literal', value, datatype: { termType: 'NamedNode', value: shape.datatype } })
        return
      case 'boolean':
        if (typeof value !== 'boolean') throw UNSURE
        emit(subject, predicate, { termType: 'Literal', value: String(value), datatype: { termType: 'NamedNode', value: shape.datatype } })
        return
      case 'iri':
        emit(subject, predicate, iri(value))
        return
      case 'node':
        emit(subject, predicate, writeNode(value, shape.shape))
        return
    }
  }

  try {
    writeNode(document, shape.root, true)
    return quads
  } catch (error) {
    if (error === UNSURE) return null
    throw error
  }
}

function sameJson(value: unknown, expected: string | readonly string[]): boolean {
  if (typeof expected === 'string') return value === expected
  return Array.isArray(value) && value.length === expected.length && expected.every((item, i) => value[i] === item)
}
