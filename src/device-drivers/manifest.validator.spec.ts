import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUILTIN_DRIVERS_DIR } from './driver-registry';
import { validateDriverManifest, validateManifest } from './manifest.validator';
import { DEFAULT_RECORD_FORMATS } from './parsers/record-formats';

const VALID = { vendor: 'ZKTeco', model: 'K40', transport: 'file', version: '1.0.0' };

const errorsOf = (value: unknown) => {
  const result = validateManifest(value);
  return result.valid ? [] : result.errors;
};

describe('manifest schema (the contract)', () => {
  it('accepts the required fields alone, and with capabilities', () => {
    expect(validateManifest(VALID)).toEqual({ valid: true, manifest: VALID, errors: [] });
    expect(validateManifest({ ...VALID, capabilities: [] }).valid).toBe(true);
    expect(validateManifest({ ...VALID, capabilities: ['attendance', 'push'] }).valid).toBe(true);
  });

  it('accepts extra properties (a driver’s own settings), whatever their type', () => {
    const manifest = {
      ...VALID,
      columns: { doc: 0 },
      statusMap: { '0': 'entrada' },
      flag: true,
      n: 3,
    };
    expect(validateManifest(manifest)).toEqual({ valid: true, manifest, errors: [] });
  });

  it.each(['file', 'tcp', 'http'])('accepts transport %s', (transport) => {
    expect(validateManifest({ ...VALID, transport }).valid).toBe(true);
  });

  it.each(['vendor', 'model', 'transport', 'version'])('requires %s', (field) => {
    const manifest: Record<string, unknown> = { ...VALID };
    delete manifest[field];
    expect(errorsOf(manifest)).toEqual([{ path: `/${field}`, message: 'is required' }]);
  });

  it.each(['vendor', 'model'])('refuses an empty %s', (field) => {
    expect(errorsOf({ ...VALID, [field]: '' })).toEqual([
      { path: `/${field}`, message: 'must not be empty' },
    ]);
  });

  it('accepts an empty version (no format is stated)', () => {
    expect(validateManifest({ ...VALID, version: '' }).valid).toBe(true);
  });

  it.each([
    ['vendor', 7],
    ['model', null],
    ['version', 1],
    ['transport', ['file']],
  ])('refuses a %s that is not a string (%j)', (field, value) => {
    const errors = errorsOf({ ...VALID, [field]: value });
    expect(errors.map((e) => e.path)).toContain(`/${field}`);
    expect(errors.find((e) => e.path === `/${field}`)?.message).toMatch(/string|one of/);
  });

  it('refuses a transport outside file, tcp, http', () => {
    expect(errorsOf({ ...VALID, transport: 'usb' })).toEqual([
      { path: '/transport', message: 'must be one of file, tcp, http' },
    ]);
    expect(errorsOf({ ...VALID, transport: 'FILE' })[0].path).toBe('/transport');
  });

  it('refuses capabilities that are not an array of strings, naming each bad item', () => {
    expect(errorsOf({ ...VALID, capabilities: 'attendance' })).toEqual([
      { path: '/capabilities', message: 'must be array' },
    ]);
    expect(errorsOf({ ...VALID, capabilities: ['ok', 1, null] })).toEqual([
      { path: '/capabilities/1', message: 'must be string' },
      { path: '/capabilities/2', message: 'must be string' },
    ]);
  });

  it('lists every violation at once', () => {
    const errors = errorsOf({ vendor: '', transport: 'usb', capabilities: [1] });
    expect(errors.map((e) => e.path).sort()).toEqual([
      '/capabilities/0',
      '/model',
      '/transport',
      '/vendor',
      '/version',
    ]);
  });

  it.each([[null], [[]], ['manifest'], [42]])(
    'refuses %j: a manifest is a JSON object',
    (value) => {
      expect(errorsOf(value)).toEqual([{ path: '', message: 'must be object' }]);
    },
  );
});

describe('driver manifests: validity, then what importing needs', () => {
  const ZK = { ...VALID, format: 'zk-attlog', columns: { doc: 0, datetime: 1, status: 3 } };
  const CSV = { ...VALID, format: 'csv', columns: { doc: 'PIN', fecha: 'Fecha', hora: 'Hora' } };
  const check = (value: unknown) => validateDriverManifest(value);
  /** The warnings of a manifest that is valid (they never make it invalid). */
  const warnings = (value: unknown) => {
    const result = check(value);
    expect(result).toMatchObject({ valid: true, errors: [] });
    return result.warnings;
  };
  const problems = (value: unknown) => {
    const result = check(value);
    expect(result).toMatchObject({ valid: true, importable: false });
    return result.warnings;
  };

  it('a manifest the schema accepts is valid, whatever its settings', () => {
    for (const manifest of [
      VALID,
      { ...VALID, transport: 'http' },
      { ...VALID, format: 'xml' },
      { ...ZK, columns: { doc: 'PIN' } },
      { ...ZK, statusMap: { '0': 'in' } },
    ]) {
      expect(check(manifest)).toMatchObject({ valid: true, manifest, errors: [] });
    }
  });

  it('reads a file driver naming no format with the ZKTeco attlog.dat layout, and says so', () => {
    expect(check(VALID)).toEqual({
      valid: true,
      manifest: VALID,
      errors: [],
      importable: true,
      warnings: [
        { path: '/format', message: 'not named: the ZKTeco attlog.dat layout is assumed' },
      ],
      problems: [],
      recordFormat: {
        ...VALID,
        format: 'zk-attlog',
        delimiter: '\t',
        columns: { doc: 0, datetime: 1, device: 2, status: 3, verify: 4, workcode: 5 },
        statusMap: {
          '0': 'entrada',
          '1': 'salida',
          '2': 'salida',
          '3': 'entrada',
          '4': 'entrada',
          '5': 'salida',
        },
      },
    });
  });

  it('reads an http driver naming no format with the ZKTeco push ATTLOG layout', () => {
    const result = check({ ...VALID, transport: 'http' });
    expect(result).toMatchObject({
      valid: true,
      importable: true,
      warnings: [
        { path: '/format', message: 'not named: the ZKTeco push ATTLOG layout is assumed' },
      ],
      recordFormat: {
        format: 'zk-attlog',
        columns: { doc: 0, datetime: 1, status: 2, verify: 3, workcode: 4 },
      },
    });
  });

  it('keeps the settings a manifest naming no format gives itself', () => {
    const result = check({ ...VALID, delimiter: ',', columns: { doc: 1, datetime: 0 } });
    expect(result.importable).toBe(true);
    expect(result.recordFormat).toMatchObject({
      format: 'zk-attlog',
      delimiter: ',',
      columns: { doc: 1, datetime: 0 },
    });
  });

  it('gives a tcp driver, and a driver naming a usable format, no warning', () => {
    expect(check({ ...VALID, transport: 'tcp', port: 4370 })).toEqual({
      valid: true,
      manifest: { ...VALID, transport: 'tcp', port: 4370 },
      errors: [],
      importable: true,
      warnings: [],
      problems: [],
    });
    expect(warnings(ZK)).toEqual([]);
    expect(warnings({ ...CSV, delimiter: ';', statusMap: { E: 'entrada', S: 'salida' } })).toEqual(
      [],
    );
  });

  it('an unknown format: valid, but it cannot import, and the warnings say why', () => {
    const result = check({ ...VALID, format: 'xml' });
    expect(result).toMatchObject({ valid: true, importable: false });
    expect(result.warnings).toEqual([
      { path: '/format', message: 'must be one of zk-attlog, csv' },
    ]);
    expect(result.problems).toEqual(result.warnings);
    expect(result.recordFormat).toBeUndefined();
    expect(problems({ ...VALID, transport: 'http', format: null })).toEqual([
      { path: '/format', message: 'must be one of zk-attlog, csv' },
    ]);
  });

  it('checks the column mapping: doc, and datetime or fecha + hora', () => {
    expect(problems({ ...ZK, columns: { datetime: 1 } })).toEqual([
      { path: '/columns/doc', message: 'is required' },
    ]);
    expect(problems({ ...ZK, columns: { doc: 0 } })).toEqual([
      { path: '/columns/fecha', message: 'is required' },
      { path: '/columns/hora', message: 'is required' },
    ]);
    expect(
      problems({ ...ZK, columns: { doc: 0, datetime: -1, device: 'x' } }).map((e) => e.path),
    ).toEqual(['/columns/datetime', '/columns/device']);
    expect(
      problems({ ...CSV, columns: { doc: 0, fecha: 'F', hora: '' } }).map((e) => e.path),
    ).toEqual(['/columns/doc', '/columns/hora']);
    expect(problems({ ...ZK, columns: undefined })).toEqual([
      { path: '/columns', message: 'is required' },
    ]);
  });

  it('checks the status map values, the delimiter and the encoding', () => {
    expect(problems({ ...ZK, statusMap: { '0': 'in' } })).toEqual([
      { path: '/statusMap/0', message: 'must be one of entrada, salida' },
    ]);
    expect(problems({ ...ZK, delimiter: '||' })).toEqual([
      { path: '/delimiter', message: 'must be a single character' },
    ]);
    expect(problems({ ...CSV, delimiter: '"' }).map((e) => e.path)).toEqual(['/delimiter']);
    expect(problems({ ...ZK, encoding: 'ebcdic' }).map((e) => e.path)).toEqual(['/encoding']);
  });

  it('a default layout with settings it cannot use: the note and the problems, by path', () => {
    const result = check({ ...VALID, columns: { doc: 'PIN', datetime: 'Marca' } });
    expect(result).toMatchObject({ valid: true, importable: false });
    expect(result.warnings).toEqual([
      { path: '/columns/datetime', message: 'must be integer' },
      { path: '/columns/doc', message: 'must be integer' },
      { path: '/format', message: 'not named: the ZKTeco attlog.dat layout is assumed' },
    ]);
    expect(result.problems.map((e) => e.path)).toEqual(['/columns/datetime', '/columns/doc']);
  });

  it('errors are the schema’s violations only; format warnings come apart, and nothing imports', () => {
    const result = check({ ...ZK, vendor: '', columns: {} });
    expect(result.valid).toBe(false);
    expect(result.errors).toEqual([{ path: '/vendor', message: 'must not be empty' }]);
    expect(result.warnings.map((e) => e.path)).toEqual([
      '/columns/doc',
      '/columns/fecha',
      '/columns/hora',
    ]);
    expect(result.importable).toBe(false);
    expect(check([])).toEqual({
      valid: false,
      errors: [{ path: '', message: 'must be object' }],
      importable: false,
      warnings: [],
      problems: [],
    });
  });
});

describe('the default layouts', () => {
  const builtin = (name: string) =>
    JSON.parse(readFileSync(join(BUILTIN_DRIVERS_DIR, name, 'manifest.json'), 'utf8')) as Record<
      string,
      unknown
    >;
  const settings = ({ format, delimiter, columns, statusMap }: Record<string, unknown>) => ({
    format,
    delimiter,
    columns,
    statusMap,
  });

  it('are the settings of the built-in zkteco-attlog (file) and zkteco-push (http)', () => {
    expect(DEFAULT_RECORD_FORMATS.file.config).toEqual(settings(builtin('zkteco-attlog')));
    expect(DEFAULT_RECORD_FORMATS.http.config).toEqual(settings(builtin('zkteco-push')));
  });
});
