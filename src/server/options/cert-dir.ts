// kube's --cert-dir (SecureServingOptions.ServerCert.CertDirectory): a serving pair named
// apiserver.crt and apiserver.key in that directory serves HTTPS as --tls-cert-file would. envtest
// writes its pair there; without one, Capstan makes its own as it does without the flag.
import { access } from 'node:fs/promises';
import { join } from 'node:path';

const present = (path: string): Promise<boolean> =>
  access(path).then(
    () => true,
    () => false,
  );

export async function withCertDir<
  O extends { certDirectory: string; tlsCertFile: string; tlsPrivateKeyFile: string },
>(o: O): Promise<O> {
  if (o.certDirectory === '' || o.tlsCertFile !== '') return o;
  const tlsCertFile = join(o.certDirectory, 'apiserver.crt');
  const tlsPrivateKeyFile = join(o.certDirectory, 'apiserver.key');
  const [cert, key] = await Promise.all([present(tlsCertFile), present(tlsPrivateKeyFile)]);
  return cert && key ? { ...o, tlsCertFile, tlsPrivateKeyFile } : o;
}
