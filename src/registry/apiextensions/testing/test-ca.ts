// Test data: a self-signed CA certificate for caBundles (prime256v1, valid until 2126; no key kept).

/** A self-signed test CA (prime256v1), PEM. */
export const testCAPEM = [
  '-----BEGIN CERTIFICATE-----\n',
  'MIIBizCCATGgAwIBAgIUcMkZ3F4QVVzK7Ojg7lcQT91JW2UwCgYIKoZIzj0EAwIw\n',
  'GjEYMBYGA1UEAwwPY2Fwc3Rhbi10ZXN0LWNhMCAXDTI2MTEyOTA5MDIwMVoYDzIx\n',
  'MjYxMTA1MDkwMjAxWjAaMRgwFgYDVQQDDA9jYXBzdGFuLXRlc3QtY2EwWTATBgcq\n',
  'hkjOPQIBBggqhkjOPQMBBwNCAAT076KNOXmkXHcNQV7CX89UXNCa6Vm8GkJCymEy\n',
  'sfjRo+NQkoRspof73yJL5HFu3vhTmNHb7OAAsfHrx7tsIOSlo1MwUTAdBgNVHQ4E\n',
  'FgQUd9rKmjlMRqhNMjJv86C92VciPNMwHwYDVR0jBBgwFoAUd9rKmjlMRqhNMjJv\n',
  '86C92VciPNMwDwYDVR0TAQH/BAUwAwEB/zAKBggqhkjOPQQDAgNIADBFAiEA15LH\n',
  'x3PZ1tQIDuEdDxWgnQAncAJA2HqYrJVVogxyZscCIBljfUtat8fBwChlp4Pkyhxi\n',
  'Q8IO7606UxHPJHTi2hq0\n',
  '-----END CERTIFICATE-----\n',
].join('');
