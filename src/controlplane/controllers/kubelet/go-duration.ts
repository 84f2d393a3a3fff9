// A whole number of milliseconds as Go's time.Duration prints it (its String method): "0s",
// "796ms", "1.594s", "1m0.5s", "2h0m0s". Kubelet's messages print durations truncated to the
// millisecond, so nothing finer is needed here.

export function goDuration(ms: number): string {
  const total = Math.max(0, Math.trunc(ms));
  if (total === 0) return '0s';
  if (total < 1000) return `${String(total)}ms`;
  const hours = Math.floor(total / 3_600_000);
  const minutes = Math.floor((total % 3_600_000) / 60_000);
  const millis = total % 60_000;
  const fraction = String(millis % 1000)
    .padStart(3, '0')
    .replace(/0+$/, '');
  const seconds = `${String(Math.floor(millis / 1000))}${fraction === '' ? '' : `.${fraction}`}s`;
  if (hours > 0) return `${String(hours)}h${String(minutes)}m${seconds}`;
  if (minutes > 0) return `${String(minutes)}m${seconds}`;
  return seconds;
}
