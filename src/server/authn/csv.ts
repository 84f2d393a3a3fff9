// Records of a CSV file as Go's encoding/csv reads them with FieldsPerRecord = -1: comma-separated
// fields, double-quoted fields that may hold commas, newlines and "" for a quote; blank lines skipped.

export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  const endRecord = (): void => {
    record.push(field);
    if (!(record.length === 1 && record[0] === '')) records.push(record);
    record = [];
    field = '';
  };
  while (i < text.length) {
    const c = text[i] ?? '';
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') {
      quoted = true;
    } else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\n' || (c === '\r' && text[i + 1] === '\n')) {
      if (c === '\r') i++;
      endRecord();
    } else {
      field += c;
    }
    i++;
  }
  if (quoted) throw new Error('extraneous or missing " in quoted-field');
  if (field !== '' || record.length > 0) endRecord();
  return records;
}
