// Small builders for the manifests e2e tests feed to kubectl, and a reader for kubectl's tables.

export interface Meta {
  readonly name: string;
  readonly namespace?: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
}

export interface ConfigMapManifest {
  readonly apiVersion: 'v1';
  readonly kind: 'ConfigMap';
  readonly metadata: Meta;
  readonly data?: Readonly<Record<string, string>>;
}

export interface SecretManifest {
  readonly apiVersion: 'v1';
  readonly kind: 'Secret';
  readonly metadata: Meta;
  readonly type?: string;
  readonly data?: Readonly<Record<string, string>>;
  readonly stringData?: Readonly<Record<string, string>>;
}

export const configMap = (metadata: Meta, data?: Readonly<Record<string, string>>): ConfigMapManifest => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata,
  ...(data === undefined ? {} : { data }),
});

export const secret = (
  metadata: Meta,
  body: Pick<SecretManifest, 'type' | 'data' | 'stringData'>,
): SecretManifest => ({ apiVersion: 'v1', kind: 'Secret', metadata, ...body });

export const namespace = (name: string): object => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name },
});

export const base64 = (s: string): string => Buffer.from(s).toString('base64');

/** kubectl's human-readable table as rows of cells (no cell in these tests holds a space). */
export function tableRows(text: string): string[][] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => line.trim().split(/\s+/));
}

/** Whether a cell is an AGE as kubectl prints it for something a few seconds or minutes old. */
export const isAge = (cell: string | undefined): boolean => /^(\d+s|\d+m\d*s?)$/.test(cell ?? '');
