// Turns the bytes of an encryption provider configuration file into an EncryptionConfiguration the
// way kube's strict UniversalDecoder does (YAML or JSON, apiVersion and kind checked, unknown fields
// refused), with its error texts.
import { yamlLibrary } from '../../machinery/yaml/yaml-library.js';
import { interpretTypeMeta } from '../../machinery/structural/index.js';
import { encryptionConfigurationShape } from './config-shape.js';
import { strictDecode } from './strict-decode.js';
import { encryptionConfigGroupVersion, encryptionConfigKind, type EncryptionConfiguration } from './types.js';

// kube names the scheme after the file that built it; the line number is left out here.
const schemeName = 'k8s.io/apiserver/pkg/server/options/encryptionconfig/config.go';

/** sigs.k8s.io/yaml's YAMLToJSON: the first document, or the error it reports. */
function yamlToValue(text: string): unknown {
  const [doc] = yamlLibrary().parseAllDocuments(text);
  if (doc === undefined) return null;
  const first = doc.errors[0];
  if (first !== undefined) {
    const line = first.linePos?.[0].line;
    const where = line === undefined ? '' : `line ${line}: `;
    throw new Error(`error converting YAML to JSON: yaml: ${where}${first.message.split('\n')[0] ?? ''}`);
  }
  return doc.toJS({ maxAliasCount: 100 }) as unknown;
}

/** Decodes the file's text; throws with kube's decoder message. */
export function decodeEncryptionConfiguration(text: string): EncryptionConfiguration {
  const body = yamlToValue(text);
  const meta = interpretTypeMeta(body);
  if (!meta.ok) throw new Error(meta.error);
  if (meta.kind === '') throw new Error(`Object 'Kind' is missing in '${text}'`);
  if (meta.version === '') throw new Error(`Object 'apiVersion' is missing in '${text}'`);
  const apiVersion = meta.group === '' ? meta.version : `${meta.group}/${meta.version}`;
  if (apiVersion !== encryptionConfigGroupVersion || meta.kind !== encryptionConfigKind) {
    throw new Error(
      `no kind ${JSON.stringify(meta.kind)} is registered for version ${JSON.stringify(apiVersion)} in scheme ${JSON.stringify(schemeName)}`,
    );
  }
  const decoded = strictDecode(body, encryptionConfigurationShape);
  if (decoded.error !== undefined) throw new Error(decoded.error);
  if (decoded.unknownFields.length > 0) {
    throw new Error(`strict decoding error: ${decoded.unknownFields.join(', ')}`);
  }
  return decoded.value as EncryptionConfiguration;
}
