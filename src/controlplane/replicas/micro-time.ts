// metav1.MicroTime as kube writes it: RFC 3339 in UTC with six fractional digits.
export function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}
