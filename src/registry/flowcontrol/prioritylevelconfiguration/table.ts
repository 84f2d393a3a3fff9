// `kubectl get prioritylevelconfigurations` columns: NAME TYPE NOMINALCONCURRENCYSHARES QUEUES
// HANDSIZE QUEUELENGTHLIMIT AGE (printPriorityLevelConfiguration in
// pkg/printers/internalversion/printers.go); an Exempt level shows <none> for the numbers.
import type { PriorityLevelConfiguration } from '../../../api/flowcontrol/v1/priority-level-configuration.js';
import { translateTimestampSince } from '../../generic/human-duration.js';
import { ageColumn, nameColumn, tableConvertorFor } from '../../generic/table-convertor.js';
import type { TableConvertor } from '../../rest/capabilities.js';

const column = (name: string, description: string) =>
  ({ name, type: 'string', format: '', description, priority: 0 }) as const;

const none = '<none>';

export const priorityLevelTableConvertor: TableConvertor = tableConvertorFor<PriorityLevelConfiguration>({
  columns: [
    nameColumn,
    column('Type', 'Whether requests of this level are subject to limits: Exempt or Limited.'),
    column('NominalConcurrencyShares', "The level's share of the server's concurrency limit."),
    column('Queues', 'The number of queues of the level.'),
    column('HandSize', 'How many queues a flow is dealt.'),
    column('QueueLengthLimit', 'The most requests waiting in one queue.'),
    ageColumn,
  ],
  cells: (pl, now) => {
    const limited = pl.spec.limited;
    const q = limited?.limitResponse?.queuing;
    return [
      pl.metadata?.name ?? '',
      pl.spec.type ?? '',
      limited === undefined ? none : (limited.nominalConcurrencyShares ?? 0),
      q?.queues ?? none,
      q?.handSize ?? none,
      q?.queueLengthLimit ?? none,
      translateTimestampSince(pl.metadata?.creationTimestamp, now),
    ];
  },
});
