// Pod IPs out of each node's pod CIDR (a /24 of IPv4, as the simulated nodes get): .1 is the
// node's bridge, pods take .2 to .254; an address is free again once its pod has finished or is
// gone.
export class PodIPs {
  readonly #byPod = new Map<string, string>();
  readonly #used = new Set<string>();

  /** The pod's address, kept when it already has one (a restarted server). */
  assign(podKey: string, cidr: string, current: string | undefined): string | undefined {
    const had = this.#byPod.get(podKey);
    if (had !== undefined) return had;
    if (current !== undefined && current !== '') {
      this.hold(podKey, current);
      return current;
    }
    const prefix = /^(\d+\.\d+\.\d+)\.0\/24$/.exec(cidr)?.[1];
    if (prefix === undefined) return undefined;
    for (let host = 2; host < 255; host++) {
      const ip = `${prefix}.${String(host)}`;
      if (!this.#used.has(ip)) {
        this.hold(podKey, ip);
        return ip;
      }
    }
    return undefined;
  }

  /** Takes the address a pod already has (one this pool did not give: a restarted server's). */
  hold(podKey: string, ip: string): void {
    this.#byPod.set(podKey, ip);
    this.#used.add(ip);
  }

  release(podKey: string): void {
    const ip = this.#byPod.get(podKey);
    if (ip === undefined) return;
    this.#byPod.delete(podKey);
    this.#used.delete(ip);
  }
}
