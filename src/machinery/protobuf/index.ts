export { ProtobufDecoder } from './decoder.js';
export { decodeEnvelope, hasProtobufMagic, protobufMagic } from './envelope.js';
export type { Unknown } from './envelope.js';
export { goDurationString } from './go-duration.js';
export { ProtoError } from './wire.js';
