// Time zone names as Go's time.LoadLocation knows them: the IANA database. Node's Intl has the
// database; the system's zoneinfo files, when present, keep the lookup case-sensitive as Go's is.
import { statSync } from 'node:fs';
import { join } from 'node:path';

const zoneinfoDir = '/usr/share/zoneinfo';

function zoneinfoHas(name: string): boolean | undefined {
  try {
    statSync(zoneinfoDir);
  } catch {
    return undefined;
  }
  try {
    return statSync(join(zoneinfoDir, name)).isFile();
  } catch {
    return false;
  }
}

/** The error time.LoadLocation returns for `name`, or undefined when it loads. */
export function loadLocationError(name: string): string | undefined {
  if (name === '' || name === 'UTC' || name === 'Local') return undefined;
  let known: boolean;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    known = zoneinfoHas(name) ?? true;
  } catch {
    known = zoneinfoHas(name) ?? false;
  }
  return known ? undefined : `unknown time zone ${name}`;
}
