import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evaluateCel } from '../../testing/evaluate-cel.js';

// The examples of kube's pkg/cel/library/urls.go.

describe("kube's URL library", () => {
  it('takes absolute URIs and absolute paths, as Go parses a request URI', async () => {
    const cases: [string, unknown][] = [
      ["isURL('https://user:pass@example.com:80/path?query=val#fragment')", true],
      ["isURL('/absolute-path')", true],
      ["isURL('https://a:b:c/')", false],
      ["isURL('../relative-path')", false],
      [
        "url('https://a:b:c/')",
        'error: URL parse error during conversion from string: parse "https://a:b:c/": invalid port ":c" after host',
      ],
      [
        "url('../relative-path')",
        'error: URL parse error during conversion from string: parse "../relative-path": invalid URI for request',
      ],
      [
        "url('https://x/%zz')",
        'error: URL parse error during conversion from string: parse "https://x/%zz": invalid URL escape "%zz"',
      ],
      ["url('https://example.com/a') == url('https://example.com/a')", true],
      ["url('https://example.com/a') == url('https://example.com/b')", false],
    ];
    for (const [expr, want] of cases) assert.equal(await evaluateCel(expr), want, expr);
  });

  it("reads a URL's parts", async () => {
    const cases: [string, unknown][] = [
      ["url('/path').getScheme()", ''],
      ["url('https://example.com/').getScheme()", 'https'],
      ["url('https://example.com:80/').getHost()", 'example.com:80'],
      ["url('https://example.com/').getHost()", 'example.com'],
      ["url('https://[::1]:80/').getHost()", '[::1]:80'],
      ["url('https://[::1]/').getHost()", '[::1]'],
      ["url('/path').getHost()", ''],
      ["url('https://example.com:80/').getHostname()", 'example.com'],
      ["url('https://127.0.0.1:80/').getHostname()", '127.0.0.1'],
      ["url('https://[::1]:80/').getHostname()", '::1'],
      ["url('/path').getHostname()", ''],
      ["url('https://example.com:80/').getPort()", '80'],
      ["url('https://example.com/').getPort()", ''],
      ["url('/path').getPort()", ''],
      ["url('https://example.com/path').getEscapedPath()", '/path'],
      ["url('https://example.com/path with spaces/').getEscapedPath()", '/path%20with%20spaces/'],
      ["url('https://example.com').getEscapedPath()", ''],
      ["url('https://example.com/path?k1=a&k2=b&k2=c').getQuery() == {'k1': ['a'], 'k2': ['b', 'c']}", true],
      [
        "url('https://example.com/path?key with spaces=value with spaces').getQuery() == {'key with spaces': ['value with spaces']}",
        true,
      ],
      ["url('https://example.com/path?').getQuery() == {}", true],
      ["url('https://example.com/path').getQuery() == {}", true],
    ];
    for (const [expr, want] of cases) assert.equal(await evaluateCel(expr), want, expr);
  });
});
