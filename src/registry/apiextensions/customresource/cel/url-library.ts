// kube's URL library for CEL (k8s.io/apiserver pkg/cel/library/urls.go): url(), isURL() and a
// URL's getScheme, getHost, getHostname, getPort, getEscapedPath and getQuery, over Go's net/url
// (src/machinery/url). @bufbuild/cel takes object values as protobuf messages only, so a URL is a
// message `kubernetes.URL` holding its text as Go writes it back, which kube's == compares.
import type * as Cel from '@bufbuild/cel';
import type * as Protobuf from '@bufbuild/protobuf';
import { messageType, type CelModules } from './message-types.js';
import {
  escapedPath,
  parseRequestURI,
  parseURL,
  urlHost,
  urlHostname,
  urlPort,
  urlQuery,
  urlScheme,
  urlString,
  type GoURL,
} from '../../../../machinery/url/go-url.js';

function urlDesc(m: CelModules): Protobuf.DescMessage {
  return messageType(m, 'kubernetes', ['URL', [['text', 'string']]]);
}

/** kube's stringToUrl: valid as a request URI, then parsed as a URL reference. */
function toURL(s: string): GoURL {
  try {
    parseRequestURI(s);
    return parseURL(s);
  } catch (err) {
    throw new Error(`URL parse error during conversion from string: ${(err as Error).message}`);
  }
}

function isURL(s: string): boolean {
  try {
    parseRequestURI(s);
    return true;
  } catch {
    return false;
  }
}

/** The URL library's functions, and the message type its values have. */
export function urlLibrary(m: CelModules): { funcs: Cel.CelFunc[]; desc: Protobuf.DescMessage } {
  const { cel, protobuf } = m;
  const desc = urlDesc(m);
  const URL = cel.objectType(desc);
  const { STRING, BOOL } = cel.CelScalar;
  // A message holds the text of a URL that parsed, which parses to the same URL again.
  const urlOf = (v: Cel.CelValue<typeof URL>): GoURL =>
    parseURL((v.message as unknown as { text: string }).text);
  const getter = (name: string, get: (u: GoURL) => string): Cel.CelFunc =>
    cel.celMethod(name, URL, [], STRING, function () {
      return get(urlOf(this));
    });
  return {
    desc,
    funcs: [
      cel.celFunc('url', [STRING], URL, (s) => protobuf.create(desc, { text: urlString(toURL(s)) })),
      cel.celFunc('isURL', [STRING], BOOL, isURL),
      getter('getScheme', urlScheme),
      getter('getHost', urlHost),
      getter('getHostname', urlHostname),
      getter('getPort', urlPort),
      getter('getEscapedPath', escapedPath),
      cel.celMethod('getQuery', URL, [], cel.mapType(STRING, cel.listType(STRING)), function () {
        return urlQuery(urlOf(this));
      }),
    ],
  };
}
