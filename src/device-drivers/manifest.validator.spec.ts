import { validateDriverManifest, validateManifest } from './manifest.validator';

const VALID = { vendor: 'ZKTeco', model: 'K40', transport: 'file', version: '1.0.0' };

const errorsOf = (value: unknown) => {
  const result = validateManifest(value);
  return result.valid ? [] : result.errors;
};

describe('manifest schema (seed §2.2)', () => {
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

describe('driver manifests (schema + record format settings)', () => {
  const ZK = { ...VALID, format: 'zk-attlog', columns: { doc: 0, datetime: 1, status: 3 } };
  const CSV = { ...VALID, format: 'csv', columns: { doc: 'PIN', fecha: 'Fecha', hora: 'Hora' } };
  const errors = (value: unknown) => {
    const result = validateDriverManifest(value);
    return result.valid ? [] : result.errors;
  };

  it('accepts the formats with valid settings, and a tcp driver without a format', () => {
    expect(errors(ZK)).toEqual([]);
    expect(errors({ ...CSV, delimiter: ';', statusMap: { E: 'entrada', S: 'salida' } })).toEqual(
      [],
    );
    expect(errors({ ...VALID, transport: 'tcp', port: 4370 })).toEqual([]);
  });

  it('requires a format for file and http drivers, and a known one', () => {
    expect(errors(VALID)).toEqual([
      { path: '/format', message: 'is required for a file driver: one of zk-attlog, csv' },
    ]);
    expect(errors({ ...VALID, transport: 'http' })[0].path).toBe('/format');
    expect(errors({ ...VALID, format: 'xml' })).toEqual([
      { path: '/format', message: 'must be one of zk-attlog, csv' },
    ]);
  });

  it('checks the column mapping: doc, and datetime or fecha + hora', () => {
    expect(errors({ ...ZK, columns: { datetime: 1 } })).toEqual([
      { path: '/columns/doc', message: 'is required' },
    ]);
    expect(errors({ ...ZK, columns: { doc: 0 } })).toEqual([
      { path: '/columns/fecha', message: 'is required' },
      { path: '/columns/hora', message: 'is required' },
    ]);
    expect(
      errors({ ...ZK, columns: { doc: 0, datetime: -1, device: 'x' } }).map((e) => e.path),
    ).toEqual(['/columns/datetime', '/columns/device']);
    expect(
      errors({ ...CSV, columns: { doc: 0, fecha: 'F', hora: '' } }).map((e) => e.path),
    ).toEqual(['/columns/doc', '/columns/hora']);
    expect(errors({ ...ZK, columns: undefined })).toEqual([
      { path: '/columns', message: 'is required' },
    ]);
  });

  it('checks the status map values, the delimiter and the encoding', () => {
    expect(errors({ ...ZK, statusMap: { '0': 'in' } })).toEqual([
      { path: '/statusMap/0', message: 'must be one of entrada, salida' },
    ]);
    expect(errors({ ...ZK, delimiter: '||' })).toEqual([
      { path: '/delimiter', message: 'must be a single character' },
    ]);
    expect(errors({ ...CSV, delimiter: '"' }).map((e) => e.path)).toEqual(['/delimiter']);
    expect(errors({ ...ZK, encoding: 'ebcdic' }).map((e) => e.path)).toEqual(['/encoding']);
  });

  it('lists the schema’s and the format’s violations together, by path', () => {
    expect(errors({ ...ZK, vendor: '', columns: {} }).map((e) => e.path)).toEqual([
      '/columns/doc',
      '/columns/fecha',
      '/columns/hora',
      '/vendor',
    ]);
  });
});
