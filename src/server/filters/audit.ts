// Audit (k8s.io/apiserver/pkg/endpoints/filters/audit.go and audit_init.go): every request gets an
// Audit-ID (the client's, or a new UUID) in its response; the policy picks a level from the
// authenticated user and the RequestInfo; events go to the sink at RequestReceived, ResponseStarted
// (long-running requests), ResponseComplete or Panic. Installed only when a policy is given.
import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import { anonymousUser } from '../../registry/rest/context.js';
import { auditConfigFor } from '../audit/policy-checker.js';
import { RequestAudit, microTime, nowMicros } from '../audit/request-audit.js';
import type { UserInfo } from '../../registry/rest/context.js';
import {
  auditUser,
  type AuditEvent,
  type AuditLevel,
  type AuditSink,
  type AuditObjectReference,
  type AuditPolicy,
} from '../audit/types.js';
import type { AuditMetrics } from '../audit/metrics.js';
import type { HttpRequest, HttpResponse } from '../http/types.js';
import { authorizationAttributes } from './authorization.js';
import type { Filter, FilterScope } from './filter-scope.js';
import { writeHttpError } from '../http/respond.js';

// kube's sanitizer for messages that echo the request.
const sanitize = (s: string): string =>
  s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

export interface AuditFilterOptions {
  readonly policy: AuditPolicy;
  readonly sink: AuditSink;
  /** Told of each request's policy level and of requests refused for want of a stored event. */
  readonly metrics?: AuditMetrics;
}

/** utilnet.SourceIPs: X-Forwarded-For, then X-Real-Ip, then the peer, each once. */
function sourceIPs(req: HttpRequest): string[] {
  const ips: string[] = [];
  const add = (ip: string): void => {
    const v = ip.trim().replace(/^::ffff:(?=\d+\.)/, '');
    if (isIP(v) !== 0 && !ips.includes(v)) ips.push(v);
  };
  const forwarded = req.headers['x-forwarded-for'];
  if (typeof forwarded === 'string') forwarded.split(',').forEach(add);
  const real = req.headers['x-real-ip'];
  if (typeof real === 'string') add(real);
  add(req.socket.remoteAddress ?? '');
  return ips;
}

function objectRef(scope: FilterScope): AuditObjectReference | undefined {
  const info = scope.info;
  if (!info.isResourceRequest) return undefined;
  const ref: AuditObjectReference = { resource: info.resource };
  if (info.namespace !== '') ref.namespace = info.namespace;
  if (info.name !== '') ref.name = info.name;
  if (info.apiGroup !== '') ref.apiGroup = info.apiGroup;
  ref.apiVersion = info.apiVersion;
  if (info.subresource !== '') ref.subresource = info.subresource;
  return ref;
}

const parseJSON = (chunks: readonly Buffer[]): unknown => {
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
};

/**
 * Watches the response: its status line or first bytes out are ResponseStarted for a long-running
 * request (kube's auditResponseWriter logs it on WriteHeader: a watch with no events yet has
 * started); the body is kept when the level logs it, or when it is an error Status.
 */
function tapResponse(res: HttpResponse, audit: RequestAudit, longRunning: boolean): Buffer[] {
  const chunks: Buffer[] = [];
  let started = false;
  const start = (code: number): void => {
    if (started) return;
    started = true;
    audit.responseCode(code);
    // A write cannot wait: in the blocking modes this event alone does not hold the response.
    void audit.stage('ResponseStarted');
    delete audit.event.responseStatus;
  };
  const keep = (chunk: unknown): void => {
    if (longRunning) {
      start(res.statusCode);
      return;
    }
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    if (audit.logsResponse || res.statusCode >= 400) chunks.push(Buffer.from(chunk as Buffer | string));
  };
  const target = res as unknown as Record<'write' | 'end' | 'writeHead', (...args: unknown[]) => unknown>;
  const write = target.write.bind(res);
  const end = target.end.bind(res);
  if (longRunning) {
    const writeHead = target.writeHead.bind(res);
    target.writeHead = (...args) => {
      start(typeof args[0] === 'number' ? args[0] : res.statusCode);
      return writeHead(...args);
    };
  }
  // HTTP/2's compatibility response ends with a chunk by writing it: kept once, not twice.
  let ending = false;
  target.write = (...args) => {
    if (!ending) keep(args[0]);
    return write(...args);
  };
  target.end = (...args) => {
    keep(args[0]);
    ending = true;
    try {
      return end(...args);
    } finally {
      ending = false;
    }
  };
  return chunks;
}

/** The Audit-ID of a request: the client's, or a new UUID; set on the response (kube's WithAuditInit). */
function auditIDOf(scope: FilterScope): string {
  const given = scope.req.headers['audit-id'];
  const auditID = typeof given === 'string' && given !== '' ? given : randomUUID();
  if (!scope.res.headersSent) scope.res.setHeader('Audit-ID', auditID);
  return auditID;
}

/** LogRequestMetadata: the event as it stands at RequestReceived; `user` absent when none authenticated. */
function newEvent(scope: FilterScope, level: AuditLevel, user: UserInfo | undefined): AuditEvent {
  const { req } = scope;
  const received = microTime(nowMicros());
  const event: AuditEvent = {
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level,
    auditID: auditIDOf(scope),
    stage: 'RequestReceived',
    requestURI: req.url ?? '/',
    verb: scope.info.verb,
    user: user === undefined ? {} : auditUser(user),
    sourceIPs: sourceIPs(req),
    requestReceivedTimestamp: received,
    stageTimestamp: received,
  };
  const userAgent = req.headers['user-agent'];
  if (userAgent !== undefined) event.userAgent = userAgent;
  const ref = objectRef(scope);
  if (ref !== undefined) event.objectRef = ref;
  return event;
}

/** getAuthMethods: which credentials a refused request carried. */
function attemptedMethods(req: HttpRequest): string {
  const methods: string[] = [];
  const auth = (req.headers.authorization ?? '').trim();
  if (auth.toLowerCase().startsWith('basic ')) methods.push('basic');
  const parts = auth.split(' ');
  if (parts.length > 1 && parts[0]?.toLowerCase() === 'bearer') methods.push('bearer');
  if (/[?&]access_token=[^&]/.test(req.url ?? '')) methods.push('access_token');
  const socket = req.socket as { getPeerCertificate?: () => { raw?: unknown } };
  if (socket.getPeerCertificate?.().raw !== undefined) methods.push('x509');
  return methods.length === 0 ? '' : `Authentication failed, attempted: ${methods.join(', ')}`;
}

/**
 * WithFailedAuthenticationAudit: a request refused with 401 is one ResponseStarted event with no
 * user, its responseStatus naming the credentials it tried.
 */
export function auditFailedAuthentication(opts: AuditFilterOptions): (scope: FilterScope) => void {
  return (scope) => {
    const config = auditConfigFor(opts.policy, authorizationAttributes(scope.info, { name: '', groups: [] }));
    opts.metrics?.observePolicyLevel(config.level);
    if (config.level === 'None') {
      auditIDOf(scope);
      return;
    }
    const event = newEvent(scope, config.level, undefined);
    const message = attemptedMethods(scope.req);
    event.responseStatus = { metadata: {}, ...(message === '' ? {} : { message }), code: 401 };
    void new RequestAudit(event, config, opts.sink).stage('ResponseStarted');
  };
}

export function withAudit(opts: AuditFilterOptions): Filter {
  return (next) => async (scope) => {
    const { req, res } = scope;
    const user = scope.user ?? anonymousUser;
    const config = auditConfigFor(opts.policy, authorizationAttributes(scope.info, user));
    opts.metrics?.observePolicyLevel(config.level);
    if (config.level === 'None') {
      auditIDOf(scope);
      return next(scope);
    }
    const event = newEvent(scope, config.level, user);
    const audit = new RequestAudit(event, config, opts.sink);
    scope.audit = audit;
    const responseChunks = tapResponse(res, audit, scope.longRunning);
    if (!(await audit.stage('RequestReceived'))) {
      // blocking-strict: a request is not served unless its arrival is on record.
      opts.metrics?.requestRejected();
      const uri = req.url ?? '/';
      writeHttpError(
        res,
        500,
        sanitize(`Internal Server Error: ${JSON.stringify(uri)}: failed to store audit event`),
      );
      return;
    }
    try {
      await next(scope);
    } catch (err) {
      audit.event.responseStatus = {
        metadata: {},
        status: 'Failure',
        message: `APIServer panic'd: ${err instanceof Error ? err.message : String(err)}`,
        reason: 'InternalError',
        code: 500,
      };
      void audit.stage('Panic');
      throw err;
    }
    // The request object is the handler's to log (kube's LogRequestObject, LogRequestPatch): a
    // body it could not decode is not logged.
    if (responseChunks.length > 0) {
      const obj = parseJSON(responseChunks);
      if (obj !== undefined) audit.responseObject(obj);
    }
    audit.responseCode(res.statusCode);
    // The blocking modes hold the request (its in-flight seat) until the event is stored; the
    // bytes of a response already ended may be out by then.
    await audit.stage('ResponseComplete');
  };
}
