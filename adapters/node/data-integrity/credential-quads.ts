import { escapeLiteral, type Predicate, type WrittenQuad, type WrittenQuads } from './n-quads.ts'
import { DOCUMENT_SHAPES, XSD_STRING, type DocumentShape, type NodeShape, type ValueShape } from './shapes.ts'

const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type'

/**
 * The IRIs written as they are: with no base, jsonld keeps an absolute IRI unchanged, and these schemes are
 * never read as a compact IRI (none is a term of the contexts; `http(s)://` never is). Whitespace (which
 * jsonld reads as a relative reference, an error in safe mode) and what N-Quads would have to escape are
 * left to the reference path, as is every other scheme.
 */
const PLAIN_IRI = /^(?:https?:\/\/|did:|urn:)[^\s<>"{}|\\^`\p{Cc}]*$/u

/** Thrown inside the writer on the first thing it is not sure of; never leaves this file. */
const UNSURE = Symbol('unsure')

/**
 * A node shape with the N-Quads text that is the same for every document made once, when the module
 * loads: each predicate's ` <iri> `, each class's `<iri>`, each datatype's closing `"^^<iri>`. A proof
 * then builds only the text of its own values. `sharedPredicates`: two of its quads could share a
 * predicate (none of clubcred's shapes does), so that its quads are compared with each other.
 */
interface WriterNode {
  id: NodeShape['id']
  type: { json: string | readonly string[]; objects: readonly string[] } | null
  members: ReadonlyMap<string, WriterMember>
  sharedPredicates: boolean
}

interface WriterMember {
  predicate: Predicate
  container: 'array' | 'one'
  nullable: boolean
  value: { kind: 'literal' | 'boolean'; datatype: string; close: string } | { kind: 'iri' } | { kind: 'node'; node: WriterNode }
}

/** Every predicate of the shapes, by IRI; ranked once all are known. */
const PREDICATES = new Map<string, Predicate>()

function predicate(iri: string): Predicate {
  let known = PREDICATES.get(iri)
  if (!known) PREDICATES.set(iri, (known = { middle: ` <${iri}> `, rank: -1 }))
  return known
}

const TYPE = predicate(RDF_TYPE)

function writerNode(shape: NodeShape, made: Map<NodeShape, WriterNode>): WriterNode {
  let node = made.get(shape)
  if (node) return node
  const members = new Map<string, WriterMember>()
  for (const [name, member] of Object.entries(shape.members)) {
    members.set(name, {
      predicate: predicate(member.predicate),
      container: member.container,
      nullable: member.nullable === true,
      value: writerValue(member.value, made),
    })
  }
  const predicates = [...Object.values(shape.members).map((member) => member.predicate), ...(shape.type ? [RDF_TYPE] : [])]
  const classes = shape.type?.classes ?? []
  node = {
    id: shape.id,
    type: shape.type ? { json: shape.type.json, objects: classes.map((type) => `<${type}>`) } : null,
    members,
    sharedPredicates: new Set(predicates).size !== predicates.length || new Set(classes).size !== classes.length,
  }
  made.set(shape, node)
  return node
}

function writerValue(value: ValueShape, made: Map<NodeShape, WriterNode>): WriterMember['value'] {
  switch (value.kind) {
    case 'literal':
    case 'boolean':
      return { kind: value.kind, datatype: value.datatype, close: value.datatype === XSD_STRING ? '"' : `"^^<${value.datatype}>` }
    case 'iri':
      return { kind: 'iri' }
    case 'node':
      return { kind: 'node', node: writerNode(value.shape, made) }
  }
}

const WRITERS = new Map<DocumentShape, WriterNode>()
{
  const made = new Map<NodeShape, WriterNode>()
  for (const shape of DOCUMENT_SHAPES) WRITERS.set(shape, writerNode(shape.root, made))
  const ranked = [...PREDICATES.values()].sort((a, b) => (a.middle < b.middle ? -1 : 1))
  ranked.forEach((known, rank) => (known.rank = rank))
}

/**
 * The shape whose `@context` the document has, exactly (as its JSON text would be); `null` for any other.
 */
export function documentShapeOf(document: Record<string, unknown>): DocumentShape | null {
  const context = document['@context']
  if (!Array.isArray(context)) return null
  return DOCUMENT_SHAPES.find((shape) => sameContext(context, shape.context)) ?? null
}

/**
 * Whether `value` is `expected` as JSON text would show it: the same members in the same order, the same
 * items, the same strings and booleans (a context holds no numbers). Walked, not stringified: the inline
 * context is in every credential.
 */
function sameContext(value: unknown, expected: unknown): boolean {
  if (value === expected) return true
  if (typeof expected !== 'object' || expected === null || typeof value !== 'object' || value === null) return false
  if (Array.isArray(expected)) {
    if (!Array.isArray(value) || value.length !== expected.length) return false
    for (let i = 0; i < expected.length; i++) if (!sameContext(value[i], expected[i])) return false
    return true
  }
  if (Array.isArray(value)) return false
  const names = Object.keys(expected)
  const actual = Object.keys(value)
  if (actual.length !== names.length) return false
  for (let i = 0; i < names.length; i++) {
    if (actual[i] !== names[i] || !sameContext((value as Record<string, unknown>)[names[i]!], (expected as Record<string, unknown>)[names[i]!])) return false
  }
  return true
}

/**
 * The RDF dataset of `document`, as `jsonld.toRDF` in safe mode makes it over clubcred's copies of the
 * contexts (the same quads, blank nodes aside, which RDFC-1.0 labels alike whatever their input labels),
 * written from the shape instead of by JSON-LD expansion, as N-Quads text around its blank nodes;
 * `null` when the document holds anything the shape does not: a member, a `type`, a value's JSON type,
 * an IRI it does not know. Duplicate quads are written once, as jsonld's node map merges them.
 *
 * Duplicates are found per subject: two quads can only be equal where their subject is. A blank node is
 * new for each JSON node, whose quads differ by predicate (`sharedPredicates` aside) but for an array's
 * items, which are compared with the earlier items of the array; an IRI subject's quads are compared
 * with its earlier quads once a second JSON node has its `id` (clubcred's representative co-issuer is
 * the issuer again, with the same name). No set of every quad's text: hashing those texts cost more than
 * writing them.
 */
export function writeQuads(document: Record<string, unknown>, shape: DocumentShape): WrittenQuads | null {
  const writing: Writing = { quads: [], blankNodes: 0, subjects: new Map() }
  try {
    writeNode(writing, document, WRITERS.get(shape)!, true)
    return { quads: writing.quads, blankNodes: writing.blankNodes }
  } catch (error) {
    if (error === UNSURE) return null
    throw error
  }
}

interface Writing {
  quads: WrittenQuad[]
  blankNodes: number
  /** The IRI subjects so far, by IRI. */
  subjects: Map<string, Subject>
}

/**
 * A subject: `text` is `<iri>`, or `''` for the blank node numbered `node` (`-1` for an IRI). `quads`: its
 * quads so far, kept from when it may repeat one (each new one is compared with them); else `null`.
 */
interface Subject {
  text: string
  node: number
  quads: WrittenQuad[] | null
}

/** `object` is `<iri>`, a literal's text, or `''` for the blank node numbered `objectNode`. */
function emit(writing: Writing, subject: Subject, { middle, rank }: Predicate, object: string, objectNode: number, value = '', datatype = ''): void {
  const quad: WrittenQuad = { subject: subject.text, subjectNode: subject.node, middle, rank, object, objectNode, value, datatype }
  if (subject.quads) {
    for (const earlier of subject.quads) if (earlier.rank === rank && earlier.objectNode === objectNode && earlier.object === object) return
    subject.quads.push(quad)
  }
  writing.quads.push(quad)
}

function iri(value: unknown): string {
  if (typeof value !== 'string' || !PLAIN_IRI.test(value)) throw UNSURE
  return `<${value}>`
}

/** The node's `<iri>`, or its number as a blank node. */
function writeNode(writing: Writing, json: unknown, shape: WriterNode, root = false): string | number {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw UNSURE
  const node = json as Record<string, unknown>
  let subject: Subject
  if (Object.hasOwn(node, 'id')) {
    if (shape.id === 'absent') throw UNSURE
    const text = iri(node.id)
    const known = writing.subjects.get(node.id as string)
    if (known) {
      known.quads ??= quadsOf(writing, known)
      subject = known
    } else {
      subject = { text, node: -1, quads: null }
      writing.subjects.set(node.id as string, subject)
    }
  } else {
    if (shape.id === 'required') throw UNSURE
    subject = { text: '', node: writing.blankNodes++, quads: null }
  }
  if (shape.sharedPredicates) subject.quads ??= quadsOf(writing, subject)
  // A type picks the type-scoped context its members are read in: it must be there, exactly.
  if (shape.type) {
    if (!sameJson(node.type, shape.type.json)) throw UNSURE
    for (const type of shape.type.objects) emit(writing, subject, TYPE, type, -1)
  } else if (Object.hasOwn(node, 'type')) throw UNSURE
  for (const name in node) {
    if (!Object.hasOwn(node, name) || name === 'id' || name === 'type' || (root && name === '@context')) continue
    const member = shape.members.get(name)
    if (!member) throw UNSURE
    writeMember(writing, subject, member, node[name])
  }
  return subject.node < 0 ? subject.text : subject.node
}

function writeMember(writing: Writing, subject: Subject, member: WriterMember, value: unknown): void {
  if (value === null) {
    if (member.nullable) return
    throw UNSURE
  }
  if (member.container === 'one') {
    if (Array.isArray(value)) throw UNSURE
    writeValue(writing, subject, member, value)
    return
  }
  if (!Array.isArray(value)) throw UNSURE
  const items = value as unknown[]
  // Two nodes of the array with an `id` may be one node, to be linked once.
  if (member.value.kind === 'node' && items.length > 1 && items.some(hasId)) subject.quads ??= quadsOf(writing, subject)
  // The same text or IRI again is the same quad; the same node again (an object) has its own subject.
  const earlier = items.length > 16 ? new Set<unknown>() : null
  for (let i = 0; i < items.length; i++) {
    const item = items[i]
    if (item === null || Array.isArray(item)) throw UNSURE
    if (typeof item !== 'object') {
      if (earlier ? earlier.has(item) : items.indexOf(item) < i) continue
      earlier?.add(item)
    }
    writeValue(writing, subject, member, item)
  }
}

function writeValue(writing: Writing, subject: Subject, { predicate, value: shape }: WriterMember, value: unknown): void {
  switch (shape.kind) {
    case 'literal':
      if (typeof value !== 'string') throw UNSURE
      emit(writing, subject, predicate, `"${escapeLiteral(value)}${shape.close}`, -1, value, shape.datatype)
      return
    case 'boolean':
      if (typeof value !== 'boolean') throw UNSURE
      emit(writing, subject, predicate, value ? `"true${shape.close}` : `"false${shape.close}`, -1, String(value), shape.datatype)
      return
    case 'iri':
      emit(writing, subject, predicate, iri(value), -1)
      return
    case 'node': {
      const object = writeNode(writing, value, shape.node)
      if (typeof object === 'number') emit(writing, subject, predicate, '', object)
      else emit(writing, subject, predicate, object, -1)
      return
    }
  }
}

/** The subject's quads so far: from here on, each new one is compared with them. */
function quadsOf(writing: Writing, subject: Subject): WrittenQuad[] {
  return writing.quads.filter((quad) => quad.subject === subject.text && quad.subjectNode === subject.node)
}

function hasId(item: unknown): boolean {
  return typeof item === 'object' && item !== null && Object.hasOwn(item, 'id')
}

function sameJson(value: unknown, expected: string | readonly string[]): boolean {
  if (typeof expected === 'string') return value === expected
  return Array.isArray(value) && value.length === expected.length && expected.every((item, i) => value[i] === item)
}
