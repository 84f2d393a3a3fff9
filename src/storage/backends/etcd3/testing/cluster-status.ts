// Asks each member of a test cluster who leads and how far it has applied, through Capstan's own
// client: fault tests stop the leader and wait for a restarted member to catch up.
import { setTimeout as sleep } from 'node:timers/promises';
import { EtcdClient } from '../etcd-client.js';
import { keyBytes } from '../kv-convert.js';
import { int64ToNumber, int64ToString } from '../rpc-types.js';
import type { EtcdMember, EtcdProcess } from './etcd-process.js';

export interface MemberStatus {
  readonly memberId: string;
  readonly leaderId: string;
  /** The member's own revision (a serializable read: no round trip through the leader). */
  readonly revision: number;
}

/** Status and a serializable revision read from one member; rejects when it does not answer. */
export async function memberStatus(member: EtcdMember, timeoutMs = 1000): Promise<MemberStatus> {
  const client = new EtcdClient({ endpoints: [member.endpoint], dialTimeoutMs: timeoutMs });
  try {
    const status = await client.call('status', {}, { timeoutMs });
    const range = await client.call(
      'range',
      { key: keyBytes('compact_rev_key'), count_only: true, serializable: true },
      { timeoutMs },
    );
    return {
      memberId: int64ToString(status.header?.member_id),
      leaderId: int64ToString(status.leader),
      revision: int64ToNumber(range.header?.revision),
    };
  } finally {
    client.close();
  }
}

/**
 * The running member every running member agrees leads, waiting up to `timeoutMs` for one; `among`
 * leaves out members (a partitioned one still believes in its old term for a while).
 */
export async function findLeader(
  cluster: EtcdProcess,
  timeoutMs = 10_000,
  among: (m: EtcdMember) => boolean = () => true,
): Promise<EtcdMember> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const running = cluster.members.filter((m) => m.running && among(m));
    const statuses = await Promise.all(running.map((m) => memberStatus(m).catch(() => null)));
    const leaders = new Set(statuses.map((s) => s?.leaderId ?? '0'));
    const [leaderId] = [...leaders];
    if (leaders.size === 1 && leaderId !== undefined && leaderId !== '0') {
      const i = statuses.findIndex((s) => s?.memberId === leaderId);
      const leader = running[i];
      if (leader !== undefined) return leader;
    }
    if (Date.now() > deadline) throw new Error(`no agreed etcd leader after ${timeoutMs} ms`);
    await sleep(50);
  }
}
