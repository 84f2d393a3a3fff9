// The conversion the conversion-webhook tests' webhooks perform for widgets.conv.example.com:
// v1 spec {host, port} ⇄ v2 spec {address: "host:port"}.
export type ConvertedObject = Record<string, unknown> & { apiVersion: string };

export const widgetGroup = 'conv.example.com';

export function convertWidget<T extends ConvertedObject>(obj: T, to: string): T {
  const spec = (obj['spec'] ?? {}) as Record<string, unknown>;
  if (to === `${widgetGroup}/v2`) {
    const { host, port, ...rest } = spec;
    return { ...obj, apiVersion: to, spec: { ...rest, address: `${String(host)}:${String(port)}` } };
  }
  const { address, ...rest } = spec;
  const [host, port] = String(address).split(':');
  return { ...obj, apiVersion: to, spec: { ...rest, host, port: Number(port) } };
}
