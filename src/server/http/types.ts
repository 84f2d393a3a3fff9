// The request and response types every filter and handler sees: node:http for plain HTTP/1.1 and
// the node:http2 compatibility objects for TLS, where client-go speaks HTTP/2 and curl HTTP/1.1.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';

export type HttpRequest = IncomingMessage | Http2ServerRequest;
export type HttpResponse = ServerResponse | Http2ServerResponse;
