// events.k8s.io (pkg/registry/events/rest/storage_events.go): v1 Events, stored with the core
// Events (the StorageFactory's cohabitation puts both under /registry/events) and converted.
import { newEventREST } from '../../registry/core/event/storage.js';
import { eventsV1Conversion, eventsV1CreateStrategy } from '../../registry/events/event-v1.js';
import { ConvertingView } from '../../registry/generic/converting-view.js';
import { groupStorageProvider } from './provider.js';

const group = 'events.k8s.io';

export const eventsStorageProvider = groupStorageProvider(group, ({ eventTTL }) => ({
  group,
  versions: [
    {
      version: 'v1',
      resources: {
        events: async (opts) => {
          const store = await newEventREST({
            ...opts,
            ...(eventTTL === undefined ? {} : { eventTTL }),
            qualifiedResource: { group, resource: 'events' },
          });
          return {
            events: new ConvertingView(
              store.withStrategies({ createStrategy: eventsV1CreateStrategy }),
              eventsV1Conversion,
            ),
          };
        },
      },
    },
  ],
}));
