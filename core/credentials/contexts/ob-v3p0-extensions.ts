/**
 * The Open Badges 3.0 extensions context (it defines `1EdTechJsonSchemaValidator2019`, the type of
 * `credentialSchema`), as published at https://purl.imsglobal.org/spec/ob/v3p0/extensions.json. The JSON of
 * test/fixtures/ob3/contexts/ob_v3p0_extensions.json (SOURCE.md beside this file), unchanged, as a module: every
 * runtime and bundler loads it without reading a file, and a test checks that the two agree.
 */
export const OB_V3P0_EXTENSIONS = {
  '@context': {
    id: '@id',
    type: '@type',
    '1EdTechJsonSchemaValidator2019': 'https://purl.imsglobal.org/spec/vccs/v1p0/context.json#1EdTechJsonSchemaValidator2019',
    '1EdTechRevocationList': 'https://purl.imsglobal.org/spec/vcrl/v1p0/context.json#1EdTechRevocationList',
    '1EdTechCredentialRefresh': 'https://purl.imsglobal.org/spec/vccr/v1p0/context.json#1EdTechCredentialRefresh',
  },
}
