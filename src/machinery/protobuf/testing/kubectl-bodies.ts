// Request bodies kubectl v1.33 sent to Capstan (captured through a logging proxy), as hex.
// client-go sends built-in kinds as application/vnd.kubernetes.protobuf.

/** `kubectl create configmap cm1 --from-literal=a=b --from-literal=c=d -n default` */
export const createConfigMap =
  '6b3873000a0f0a0276311209436f6e6669674d6170122c0a1a0a03636d3112001a0764656661756c7422002a003200380042' +
  '0012060a016112016212060a01631201641a002200';

/** `kubectl create configmap cm2 --from-file=blob.bin=<00 01 02 ff "capstan"> --from-literal=text=hello -n default` */
export const createConfigMapBinary =
  '6b3873000a0f0a0276311209436f6e6669674d617012440a1a0a03636d3212001a0764656661756c7422002a003200380042' +
  '00120d0a0474657874120568656c6c6f1a170a08626c6f622e62696e120b000102ff6361707374616e1a002200';

/** `kubectl create secret generic s1 --from-literal=a=b -n default` (type left empty: the server defaults it) */
export const createSecret =
  '6b3873000a0c0a027631120653656372657412250a190a02733112001a0764656661756c7422002a00320038004200120' +
  '60a01611201621a001a002200';

/** `kubectl create secret generic s2 --from-literal=username=u --from-literal=password=p --type=kubernetes.io/basic-auth -n default` */
export const createBasicAuthSecret =
  '6b3873000a0c0a027631120653656372657412530a190a02733212001a0764656661756c7422002a00320038004200120d0a' +
  '0870617373776f7264120170120d0a08757365726e616d651201751a186b756265726e657465732e696f2f62617369632d61' +
  '7574681a002200';

/** `kubectl create namespace n1` */
export const createNamespace =
  '6b3873000a0f0a02763112094e616d657370616365121a0a120a026e3112001a0022002a0032003800420012001a020a001a002200';

export const body = (hex: string): Buffer => Buffer.from(hex, 'hex');
