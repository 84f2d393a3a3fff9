// core/v1 Probe and Lifecycle: health checks and lifecycle hooks of a container. Go embeds
// ProbeHandler in Probe: JSON flattens it, protobuf carries it as its own message (field 1), which
// the table names with `inline`.
import type { APIModule } from '../../schema/api-module.js';
import { coreV1 } from '../../schema/api-module.js';
import { pointer } from '../../schema/protobuf.js';
import { atomicList, int32, int64, ref, str, struct } from '../../schema/builders.js';
import { INT_OR_STRING, type IntOrString } from '../../util/int-or-string.js';

export interface HTTPGetAction {
  path?: string;
  port: IntOrString;
  host?: string;
  scheme?: string;
  httpHeaders?: { name: string; value: string }[];
}

/** What a probe or a lifecycle hook does; Go's ProbeHandler and LifecycleHandler. */
export interface Handler {
  exec?: { command?: string[] };
  httpGet?: HTTPGetAction;
  tcpSocket?: { port: IntOrString; host?: string };
}

export interface Probe extends Handler {
  grpc?: { port: number; service?: string };
  initialDelaySeconds?: number;
  timeoutSeconds?: number;
  periodSeconds?: number;
  successThreshold?: number;
  failureThreshold?: number;
  terminationGracePeriodSeconds?: number;
}

export interface LifecycleHandler extends Handler {
  sleep?: { seconds: number };
}

export interface Lifecycle {
  postStart?: LifecycleHandler;
  preStop?: LifecycleHandler;
  stopSignal?: string;
}

export const PROBE = coreV1('Probe');
/** Go's embedded ProbeHandler: never referenced by a schema, only by Probe's protobuf table. */
const PROBE_HANDLER = coreV1('ProbeHandler');
const EXEC = coreV1('ExecAction');
const HTTP_GET = coreV1('HTTPGetAction');
const HTTP_HEADER = coreV1('HTTPHeader');
const TCP = coreV1('TCPSocketAction');
const GRPC = coreV1('GRPCAction');
export const LIFECYCLE = coreV1('Lifecycle');
const LIFECYCLE_HANDLER = coreV1('LifecycleHandler');
const SLEEP = coreV1('SleepAction');
const strings = (): ReturnType<typeof atomicList> => atomicList(str());
const handlerProperties = {
  exec: ref(EXEC, 'A command run in the container.'),
  httpGet: ref(HTTP_GET, 'An HTTP GET request.'),
  tcpSocket: ref(TCP, 'A TCP connection.'),
};

export const probeModule: APIModule = {
  definitions: {
    [PROBE]: struct('A health check of a container.', {
      ...handlerProperties,
      failureThreshold: int32(),
      grpc: ref(GRPC, 'A gRPC health check.'),
      initialDelaySeconds: int32(),
      periodSeconds: int32(),
      successThreshold: int32(),
      terminationGracePeriodSeconds: int64(),
      timeoutSeconds: int32(),
    }),
    [PROBE_HANDLER]: struct('What a probe does.', {
      ...handlerProperties,
      grpc: ref(GRPC, 'A gRPC health check.'),
    }),
    [EXEC]: struct('A command run in the container.', { command: strings() }),
    [HTTP_GET]: struct(
      'An HTTP GET request.',
      {
        host: str(),
        httpHeaders: atomicList(ref(HTTP_HEADER), 'Headers of the request.'),
        path: str(),
        port: ref(INT_OR_STRING),
        scheme: str(),
      },
      { required: ['port'] },
    ),
    [HTTP_HEADER]: struct('An HTTP header.', { name: str(), value: str() }, { required: ['name', 'value'] }),
    [TCP]: struct('A TCP connection.', { host: str(), port: ref(INT_OR_STRING) }, { required: ['port'] }),
    [GRPC]: struct(
      'A gRPC health check.',
      {
        port: int32('Port of the gRPC service.'),
        service: str('Service name sent in the HealthCheckRequest.', { default: '' }),
      },
      { required: ['port'] },
    ),
    [LIFECYCLE]: struct('Actions run at container lifecycle events.', {
      postStart: ref(LIFECYCLE_HANDLER, 'Run right after the container is created.'),
      preStop: ref(LIFECYCLE_HANDLER, 'Run before the container is terminated.'),
      stopSignal: str('The signal that stops the container.'),
    }),
    [LIFECYCLE_HANDLER]: struct('What a lifecycle hook does.', {
      ...handlerProperties,
      sleep: ref(SLEEP, 'Sleep for a while.'),
    }),
    [SLEEP]: struct('A pause.', { seconds: int64('Seconds to sleep.') }, { required: ['seconds'] }),
  },
  protobuf: {
    [PROBE]: {
      ProbeHandler: { field: 1, inline: PROBE_HANDLER },
      initialDelaySeconds: 2,
      timeoutSeconds: 3,
      periodSeconds: 4,
      successThreshold: 5,
      failureThreshold: 6,
      terminationGracePeriodSeconds: pointer(7),
    },
    [PROBE_HANDLER]: { exec: pointer(1), httpGet: pointer(2), tcpSocket: pointer(3), grpc: pointer(4) },
    [EXEC]: { command: 1 },
    [HTTP_GET]: { path: 1, port: 2, host: 3, scheme: 4, httpHeaders: 5 },
    [HTTP_HEADER]: { name: 1, value: 2 },
    [TCP]: { port: 1, host: 2 },
    [GRPC]: { port: 1, service: pointer(2) },
    [LIFECYCLE]: { postStart: pointer(1), preStop: pointer(2), stopSignal: pointer(3) },
    [LIFECYCLE_HANDLER]: { exec: pointer(1), httpGet: pointer(2), tcpSocket: pointer(3), sleep: pointer(4) },
    [SLEEP]: { seconds: 1 },
  },
};
