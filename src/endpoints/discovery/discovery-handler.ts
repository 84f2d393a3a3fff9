// Serves discovery: the aggregated document when Accept asks for it (with an ETag and 304 on
// If-None-Match), the legacy documents otherwise.
import { createHash } from 'node:crypto';
import type { GroupVersionKind } from '../../machinery/schema/group-resource.js';
import { header } from '../http-types.js';
import {
  defaultEndpointRestrictions,
  negotiateMediaTypeOptions,
  type EndpointRestrictions,
} from '../negotiation/negotiate.js';
import type { Exchange } from '../responsewriters/exchange.js';
import { goJSONText } from '../responsewriters/serialize.js';
import { writeObjectNegotiated } from '../responsewriters/write-object.js';
import { flushWarnings } from '../responsewriters/write-response.js';
import { groupVersionKey, type RouteTable } from '../route-table.js';
import { aggregatedItems, aggregatedList } from './aggregated.js';
import { apiGroupDocument, apiGroupList, apiResourceList, apiVersions } from './legacy.js';
import type { APIGroupDiscovery } from './types.js';

const isAggregated = (gvk: GroupVersionKind | null): boolean =>
  gvk !== null &&
  gvk.group === 'apidiscovery.k8s.io' &&
  (gvk.version === 'v2' || gvk.version === 'v2beta1') &&
  gvk.kind === 'APIGroupDiscoveryList';

/** Only the aggregated document may be asked for by transformation (DiscoveryEndpointRestrictions). */
const aggregatedRestrictions: EndpointRestrictions = {
  allowsMediaTypeTransform: (_t, _s, gvk) => isAggregated(gvk),
  allowsServerVersion: () => false,
  allowsStreamSchema: (s) => s === 'watch',
};

interface AggregatedDoc {
  readonly items: readonly APIGroupDiscovery[];
  readonly etag: string;
}

export class DiscoveryHandler {
  readonly #current: () => RouteTable;
  // Built once per table: a table that changes (custom resources) is a new object.
  #docsOf: RouteTable | undefined;
  readonly #docs = new Map<boolean, AggregatedDoc>();

  /** `table` may change between requests when given as a function. */
  constructor(table: RouteTable | (() => RouteTable)) {
    this.#current = typeof table === 'function' ? table : () => table;
  }

  get #table(): RouteTable {
    return this.#current();
  }

  #aggregated(core: boolean): AggregatedDoc {
    const table = this.#table;
    if (table !== this.#docsOf) {
      this.#docs.clear();
      this.#docsOf = table;
    }
    let doc = this.#docs.get(core);
    if (doc === undefined) {
      const items = aggregatedItems(table, core);
      const etag = createHash('sha512')
        .update(goJSONText(aggregatedList(items, 'v2')))
        .digest('hex')
        .toUpperCase();
      doc = { items, etag: JSON.stringify(etag) };
      this.#docs.set(core, doc);
    }
    return doc;
  }

  #serveAggregated(ex: Exchange, core: boolean): boolean {
    const media = negotiateMediaTypeOptions(header(ex.req, 'accept'), aggregatedRestrictions);
    if (media === undefined || !isAggregated(media.convert)) return false;
    const doc = this.#aggregated(core);
    ex.res.setHeader('ETag', doc.etag);
    ex.res.setHeader('Vary', 'Accept');
    ex.res.setHeader('Cache-Control', 'public');
    if (header(ex.req, 'if-none-match') === doc.etag) {
      flushWarnings(ex);
      ex.res.statusCode = 304;
      ex.res.end();
      return true;
    }
    const version = media.convert?.version === 'v2beta1' ? 'v2beta1' : 'v2';
    writeObjectNegotiated(
      ex,
      { code: 200, object: aggregatedList(doc.items, version) },
      { mediaType: media, gvkInContentType: true },
    );
    return true;
  }

  /** Serves `segments` (`['api']`, `['apis', 'apps', 'v1']`…) when it is a discovery path; false otherwise. */
  serve(ex: Exchange, segments: readonly string[]): boolean {
    const [prefix, a, b] = segments;
    const write = (doc: object): boolean => {
      writeObjectNegotiated(ex, { code: 200, object: doc }, { restrictions: defaultEndpointRestrictions });
      return true;
    };
    if (prefix === 'api' && segments.length === 1) {
      if (this.#serveAggregated(ex, true)) return true;
      return write(
        apiVersions(
          this.#table.groups.find((g) => g.name === ''),
          header(ex.req, 'host'),
        ),
      );
    }
    if (prefix === 'api' && segments.length === 2) {
      const gv = this.#table.groupVersions.get(groupVersionKey('', a ?? ''));
      return gv !== undefined && write(apiResourceList(gv));
    }
    if (prefix !== 'apis') return false;
    if (segments.length === 1)
      return this.#serveAggregated(ex, false) || write(apiGroupList(this.#table.groups));
    const group = this.#table.groups.find((g) => g.name === a && a !== '');
    if (segments.length === 2) return group !== undefined && write(apiGroupDocument(group));
    const gv =
      segments.length === 3 ? this.#table.groupVersions.get(groupVersionKey(a ?? '', b ?? '')) : undefined;
    return gv !== undefined && gv.group !== '' && write(apiResourceList(gv));
  }
}
