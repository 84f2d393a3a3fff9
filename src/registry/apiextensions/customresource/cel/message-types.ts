// The protobuf message types the CEL libraries give their values (@bufbuild/cel takes object values
// as messages only): a Quantity, an IP, a URL, an optional. Each is declared here from its name and
// scalar fields, in a file of its own package.
import type * as Cel from '@bufbuild/cel';
import type * as Protobuf from '@bufbuild/protobuf';
import type * as Wkt from '@bufbuild/protobuf/wkt';

export interface ProtobufModules {
  readonly protobuf: typeof Protobuf;
  readonly wkt: typeof Wkt;
}

/** What a library of object values builds on: CEL, and protobuf's runtime and descriptors. */
export interface CelModules extends ProtobufModules {
  readonly cel: typeof Cel;
}

type ScalarField = readonly [name: string, type: 'string' | 'int32' | 'bool'];

/**
 * The message types named in `messages` (field lists by message name), declared in package `pkg`
 * ('' for none), by their full names.
 */
export function messageTypes(
  m: ProtobufModules,
  file: { readonly pkg: string; readonly messages: Readonly<Record<string, readonly ScalarField[]>> },
): Map<string, Protobuf.DescMessage> {
  const { protobuf, wkt } = m;
  const types = {
    string: wkt.FieldDescriptorProto_Type.STRING,
    int32: wkt.FieldDescriptorProto_Type.INT32,
    bool: wkt.FieldDescriptorProto_Type.BOOL,
  };
  const names = Object.keys(file.messages);
  const proto = protobuf.create(wkt.FileDescriptorProtoSchema, {
    name: `capstan/cel/${file.pkg === '' ? names.join('_') : file.pkg}.proto`,
    package: file.pkg,
    syntax: 'proto3',
    messageType: names.map((name) => ({
      name,
      field: (file.messages[name] ?? []).map(([field, type], i) => ({
        name: field,
        jsonName: field.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()),
        number: i + 1,
        type: types[type],
        label: wkt.FieldDescriptorProto_Label.OPTIONAL,
      })),
    })),
  });
  const registry = protobuf.createFileRegistry(proto, () => undefined);
  const out = new Map<string, Protobuf.DescMessage>();
  for (const name of names) {
    const full = file.pkg === '' ? name : `${file.pkg}.${name}`;
    const desc = registry.getMessage(full);
    if (desc === undefined) throw new Error(`${full} missing from its own file`);
    out.set(full, desc);
  }
  return out;
}

/** The one message type of a file that declares one. */
export function messageType(
  m: ProtobufModules,
  pkg: string,
  message: readonly [name: string, fields: readonly ScalarField[]],
): Protobuf.DescMessage {
  const [name, fields] = message;
  const desc = messageTypes(m, { pkg, messages: { [name]: fields } })
    .values()
    .next().value;
  if (desc === undefined) throw new Error(`${name} missing from its own file`);
  return desc;
}
