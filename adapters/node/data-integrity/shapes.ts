import { OB3_CONTEXT } from '../../../core/credentials/build-ob3.ts'
import { VC_V2 } from '../../../core/credentials/context-loader.ts'

/**
 * The two documents clubcred secures with Data Integrity proofs, as JSON-LD processing of their fixed
 * contexts turns them into RDF (docs/decisions/0044-data-integrity-proofs-without-a-json-ld-processor.md):
 * for each node, the JSON it may hold and the IRI each member becomes. Read off what `jsonld.toRDF` makes
 * of them in safe mode, and held to it by test/adapters/data-integrity-quads.test.ts over generated
 * credentials. Anything outside these shapes is not written here: the reference path (jsonld) takes it.
 */

const CRED = 'https://www.w3.org/2018/credentials#'
const OB = 'https://purl.imsglobal.org/spec/vc/ob/vocab.html#'
const SCHEMA = 'https://schema.org/'
const CLUBCRED = 'https://clubcred.dev/ns/ob#'
const STATUS = 'https://www.w3.org/ns/credentials/status#'
const XSD = 'http://www.w3.org/2001/XMLSchema#'
/** OB 3.0's context spells XML Schema with https: not the same IRI, and what it signs says so. */
const XSD_OB = 'https://www.w3.org/2001/XMLSchema#'
export const XSD_STRING = `${XSD}string`
const MULTIBASE = 'https://w3id.org/security#multibase'

/**
 * What a member's JSON value must be, and what it becomes. A member may always be absent: a node without
 * it has no quads of it, in JSON-LD as here.
 */
export type ValueShape = { kind: 'literal'; datatype: string } | { kind: 'boolean'; datatype: string } | { kind: 'iri' } | { kind: 'node'; shape: NodeShape }

export interface MemberShape {
  predicate: string
  value: ValueShape
  /** `array`: the JSON holds an array (of any length); `one`: a single value. As build-ob3.ts writes them. */
  container: 'array' | 'one'
  /** May be `null`, which JSON-LD drops. */
  nullable?: boolean
}

export interface NodeShape {
  /** `required`: an IRI `id`; `optional`: an IRI or absent (a blank node); `absent`: a blank node. */
  id: 'required' | 'optional' | 'absent'
  /** The `type` member exactly as the JSON holds it, and the class IRIs it means; absent: no `type`. */
  type?: { json: string | readonly string[]; classes: readonly string[] }
  members: Readonly<Record<string, MemberShape>>
}

const plain = (predicate: string, extra: Partial<MemberShape> = {}): MemberShape => ({
  predicate,
  value: { kind: 'literal', datatype: XSD_STRING },
  container: 'one',
  ...extra,
})
const node = (predicate: string, shape: NodeShape, extra: Partial<MemberShape> = {}): MemberShape => ({
  predicate,
  value: { kind: 'node', shape },
  container: 'one',
  ...extra,
})
const dateTime = (predicate: string, extra: Partial<MemberShape> = {}): MemberShape => ({
  predicate,
  value: { kind: 'literal', datatype: `${XSD}dateTime` },
  container: 'one',
  ...extra,
})
const anyUri = (predicate: string, extra: Partial<MemberShape> = {}): MemberShape => ({
  predicate,
  value: { kind: 'literal', datatype: `${XSD_OB}anyURI` },
  container: 'one',
  ...extra,
})

const profile: NodeShape = {
  id: 'required',
  type: { json: ['Profile'], classes: [`${OB}Profile`] },
  members: { name: plain(`${SCHEMA}name`), url: anyUri(`${SCHEMA}url`) },
}

const identityObject: NodeShape = {
  id: 'absent',
  type: { json: 'IdentityObject', classes: [`${OB}IdentityObject`] },
  members: {
    identityHash: plain(`${OB}identityHash`),
    identityType: plain(`${OB}identityType`),
    hashed: { predicate: `${OB}hashed`, value: { kind: 'boolean', datatype: `${XSD_OB}boolean` }, container: 'one' },
    salt: plain(`${OB}salt`),
  },
}

const alignment: NodeShape = {
  id: 'absent',
  type: { json: ['Alignment'], classes: [`${SCHEMA}AlignmentObject`] },
  members: {
    targetName: plain(`${SCHEMA}targetName`),
    targetUrl: anyUri(`${SCHEMA}targetUrl`),
    targetType: plain(`${OB}targetType`),
  },
}

/** A co-issuer (clubcred's own term, core/credentials/clubcred-context.ts): no `type`; `id` is its url when it has one. */
const partnerOrganization: NodeShape = {
  id: 'optional',
  members: {
    name: plain(`${SCHEMA}name`),
    url: anyUri(`${SCHEMA}url`, { nullable: true }),
    role: plain(`${CLUBCRED}role`),
    isVerified: { predicate: `${CLUBCRED}isVerified`, value: { kind: 'boolean', datatype: `${XSD}boolean` }, container: 'one' },
  },
}

const achievement: NodeShape = {
  id: 'required',
  type: { json: ['Achievement'], classes: [`${OB}Achievement`] },
  members: {
    name: plain(`${SCHEMA}name`),
    description: plain(`${SCHEMA}description`),
    criteria: node(`${OB}Criteria`, { id: 'absent', members: { narrative: plain(`${OB}narrative`) } }),
    achievementType: plain(`${OB}achievementType`),
    tag: plain(`${SCHEMA}keywords`, { container: 'array' }),
    alignment: node(`${OB}alignment`, alignment, { container: 'array' }),
    image: node(`${OB}image`, { id: 'required', type: { json: 'Image', classes: [`${OB}Image`] }, members: { caption: plain(`${SCHEMA}caption`) } }),
    'x-partnerOrganizations': node(`${CLUBCRED}partnerOrganizations`, partnerOrganization, { container: 'array' }),
  },
}

const achievementSubject: NodeShape = {
  id: 'absent',
  type: { json: ['AchievementSubject'], classes: [`${OB}AchievementSubject`] },
  members: {
    identifier: node(`${OB}identifier`, identityObject, { container: 'array' }),
    achievement: node(`${OB}achievement`, achievement),
  },
}

const evidence: NodeShape = {
  id: 'optional',
  type: { json: ['Evidence'], classes: [`${OB}Evidence`] },
  members: { name: plain(`${SCHEMA}name`), description: plain(`${SCHEMA}description`) },
}

/** The `vc` of every credential's JWT (core/credentials/build-ob3.ts). */
const openBadgeCredential: NodeShape = {
  id: 'required',
  type: { json: ['VerifiableCredential', 'OpenBadgeCredential'], classes: [`${CRED}VerifiableCredential`, `${OB}OpenBadgeCredential`] },
  members: {
    issuer: node(`${CRED}issuer`, profile),
    validFrom: dateTime(`${CRED}validFrom`),
    validUntil: dateTime(`${CRED}validUntil`),
    // A reissued version's first award (docs/decisions/0046-reissue.md). OB 3.0's context types it
    // `xsd:dateTime` without defining the prefix, so its datatype IRI is that literal text, as jsonld writes it.
    awardedDate: dateTime(`${OB}awardedDate`, { value: { kind: 'literal', datatype: 'xsd:dateTime' } }),
    name: plain(`${SCHEMA}name`),
    credentialSubject: node(`${CRED}credentialSubject`, achievementSubject),
    credentialSchema: node(
      `${CRED}credentialSchema`,
      {
        id: 'required',
        type: { json: '1EdTechJsonSchemaValidator2019', classes: ['https://purl.imsglobal.org/spec/vccs/v1p0/context.json#1EdTechJsonSchemaValidator2019'] },
        members: {},
      },
      { container: 'array' },
    ),
    credentialStatus: node(`${CRED}credentialStatus`, {
      id: 'required',
      type: { json: 'BitstringStatusListEntry', classes: [`${STATUS}BitstringStatusListEntry`] },
      members: {
        statusPurpose: plain(`${STATUS}statusPurpose`),
        statusListIndex: plain(`${STATUS}statusListIndex`),
        statusListCredential: { predicate: `${STATUS}statusListCredential`, value: { kind: 'iri' }, container: 'one' },
      },
    }),
    evidence: node(`${CRED}evidence`, evidence, { container: 'array' }),
  },
}

/** The club's Bitstring Status List credential (core/status-lists/credential.ts). */
const bitstringStatusListCredential: NodeShape = {
  id: 'required',
  type: { json: ['VerifiableCredential', 'BitstringStatusListCredential'], classes: [`${CRED}VerifiableCredential`, `${STATUS}BitstringStatusListCredential`] },
  members: {
    issuer: { predicate: `${CRED}issuer`, value: { kind: 'iri' }, container: 'one' },
    validFrom: dateTime(`${CRED}validFrom`),
    credentialSubject: node(`${CRED}credentialSubject`, {
      id: 'required',
      type: { json: 'BitstringStatusList', classes: [`${STATUS}BitstringStatusList`] },
      members: {
        statusPurpose: plain(`${STATUS}statusPurpose`),
        encodedList: { predicate: `${STATUS}encodedList`, value: { kind: 'literal', datatype: MULTIBASE }, container: 'one' },
      },
    }),
  },
}

/** A document kind: its exact `@context`, the context URLs it loads, and its root node. */
export interface DocumentShape {
  name: 'open-badge-credential' | 'status-list-credential'
  context: readonly unknown[]
  /** What the context list loads: a loader must answer clubcred's own copies of these for the shape to hold. */
  contextUrls: readonly string[]
  root: NodeShape
}

export const DOCUMENT_SHAPES: readonly DocumentShape[] = [
  {
    name: 'open-badge-credential',
    context: OB3_CONTEXT,
    contextUrls: OB3_CONTEXT.filter((entry): entry is (typeof OB3_CONTEXT)[0 | 1 | 2] => typeof entry === 'string'),
    root: openBadgeCredential,
  },
  { name: 'status-list-credential', context: [VC_V2], contextUrls: [VC_V2], root: bitstringStatusListCredential },
]
