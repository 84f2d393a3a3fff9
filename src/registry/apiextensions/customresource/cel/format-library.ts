// kube's named-format library for CEL (k8s.io/apiserver pkg/cel/library/format.go, in the
// environment since 1.31): `format.named(name)`, `format.dns1123Label()` and the other named
// formats, and `<format>.validate(s)`, which answers optional.none() for a valid string and the
// list of kube's validation messages otherwise. A format is a message `kubernetes.NamedFormat`
// holding its name.
import type * as Cel from '@bufbuild/cel';
import type * as Protobuf from '@bufbuild/protobuf';
import {
  nameIsDNS1035Label,
  nameIsDNSLabel,
  nameIsDNSSubdomain,
} from '../../../../machinery/validation/name-validators.js';
import { isQualifiedName, isValidLabelValue } from '../../../../machinery/validation/qualified-name.js';
import { parseRequestURI } from '../../../../machinery/url/go-url.js';
import { matchesFormat } from '../schema/formats.js';
import { messageType, type CelModules } from './message-types.js';
import type { OptionalLibrary } from './optional-library.js';

/** A strfmt check with the one message kube gives when it fails. */
const strfmt =
  (format: string, message: string) =>
  (s: string): string[] =>
    matchesFormat(format, s) ? [] : [message];

/** kube's ConstantFormats: each name's validation, its messages as kube words them. */
const formats: Readonly<Record<string, (s: string) => string[]>> = {
  dns1123Label: (s) => nameIsDNSLabel(s, false),
  dns1123Subdomain: (s) => nameIsDNSSubdomain(s, false),
  dns1035Label: (s) => nameIsDNS1035Label(s, false),
  qualifiedName: isQualifiedName,
  dns1123LabelPrefix: (s) => nameIsDNSLabel(s, true),
  dns1123SubdomainPrefix: (s) => nameIsDNSSubdomain(s, true),
  dns1035LabelPrefix: (s) => nameIsDNS1035Label(s, true),
  labelValue: isValidLabelValue,
  uri: (s) => {
    try {
      parseRequestURI(s);
      return [];
    } catch (err) {
      return [(err as Error).message];
    }
  },
  uuid: strfmt('uuid', 'does not match the UUID format'),
  byte: strfmt('byte', 'invalid base64'),
  date: strfmt('date', 'invalid date'),
  datetime: strfmt('datetime', 'invalid datetime'),
};

export function formatLibrary(
  m: CelModules,
  optional: Pick<OptionalLibrary, 'of' | 'none'>,
): { funcs: Cel.CelFunc[]; desc: Protobuf.DescMessage } {
  const { cel, protobuf } = m;
  const desc = messageType(m, 'kubernetes', ['NamedFormat', [['name', 'string']]]);
  const Format = cel.objectType(desc);
  const { STRING, DYN } = cel.CelScalar;
  const named = (name: string): Protobuf.Message => protobuf.create(desc, { name });
  const known = (name: string): boolean => Object.hasOwn(formats, name);
  return {
    desc,
    funcs: [
      cel.celFunc('format.named', [STRING], DYN, (name) =>
        known(name) ? optional.of(named(name)) : optional.none(),
      ),
      ...Object.keys(formats).map((name) => cel.celFunc(`format.${name}`, [], Format, () => named(name))),
      cel.celMethod('validate', Format, [STRING], DYN, function (s) {
        const validate = formats[(this.message as unknown as { name: string }).name];
        if (validate === undefined) throw new Error('no such overload');
        const errors = validate(s);
        return errors.length === 0 ? optional.none() : optional.of(errors);
      }),
    ],
  };
}
