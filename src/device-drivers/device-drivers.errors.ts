import { defineError } from '../common/errors/error-catalogue';
import type { ManifestError } from './driver.types';

/** The error codes of the time clocks' drivers and imports (docs/device-drivers.md). */

// as describeManifestErrors writes them (not imported: the parsers import this file)
const describe = (problems: ManifestError[]) =>
  problems.map((e) => `${e.path || '/'} ${e.message}`).join('; ');

/** A manifest's violations (manifest.validator.ts and ajv write them), English → Spanish. */
const MANIFEST_MESSAGES: readonly [RegExp, (m: RegExpExecArray) => string][] = [
  [/^is required$/, () => 'es obligatorio'],
  [/^is not a known property here$/, () => 'no es una propiedad conocida aquí'],
  [/^must be one of (.*)$/s, (m) => `debe ser uno de ${m[1]}`],
  [/^must not be empty$/, () => 'no debe estar vacío'],
  [/^must be a single character$/, () => 'debe ser un solo carácter'],
  [/^is too short$/, () => 'es demasiado corto'],
  [/^is too long$/, () => 'es demasiado largo'],
  [
    /^must be (string|number|integer|boolean|object|array|null)$/,
    (m) => `debe ser de tipo ${m[1]}`,
  ],
  [/^must be (>=|<=|>|<) (.+)$/, (m) => `debe ser ${m[1]} ${m[2]}`],
  [
    /^must NOT have (fewer|more) than (\d+) (characters|items|properties)$/,
    (m) =>
      `no debe tener ${m[1] === 'fewer' ? 'menos' : 'más'} de ${m[2]} ${
        { characters: 'caracteres', items: 'elementos', properties: 'propiedades' }[m[3]]
      }`,
  ],
  [/^must match pattern "(.*)"$/s, (m) => `debe cumplir el patrón "${m[1]}"`],
  [/^must match format "(.*)"$/, (m) => `debe tener el formato "${m[1]}"`],
  [/^must be equal to one of the allowed values$/, () => 'debe ser uno de los valores permitidos'],
  [/^must be (.+)$/s, (m) => `debe ser ${m[1]}`],
  [/^violates (\S+)$/, (m) => `no cumple la regla ${m[1]}`],
];

function messageInSpanish(message: string): string {
  for (const [pattern, spanish] of MANIFEST_MESSAGES) {
    const match = pattern.exec(message);
    if (match) return spanish(match);
  }
  return 'no es válido';
}

/** The violations on one line, in Spanish: "/model es obligatorio; /format debe ser uno de ...". */
export const describeInSpanish = (problems: ManifestError[]) =>
  problems.map((e) => `${e.path || '/'} ${messageInSpanish(e.message)}`).join('; ');

export const unknownDriver = defineError({
  status: 400,
  code: 'UNKNOWN_DRIVER',
  summary: 'No loaded driver has this name',
  en: (name: unknown, known: string[]) =>
    `Unknown driver ${JSON.stringify(name ?? null)}: one of ${known.join(', ')}`,
  es: (name, known) =>
    `Controlador desconocido ${JSON.stringify(name ?? null)}: use uno de ${known.join(', ')}`,
  detail: (_name, known) => ({ drivers: known }),
  example: ['acme', ['generic-csv', 'zkteco-attlog', 'zkteco-push']],
});

export const driverNotFileTransport = defineError({
  status: 400,
  code: 'DRIVER_NOT_FILE',
  summary: 'The driver reads no files',
  en: (name: string, transport: string) =>
    `Driver ${name} has transport ${transport}: only file drivers import files`,
  es: (name, transport) =>
    `El controlador ${name} usa el transporte ${transport}: solo los controladores de archivos importan archivos`,
  example: ['zkteco-push', 'http'],
});

/** A loaded driver whose record format is unknown or whose settings are invalid. */
export const driverNotImportable = defineError({
  status: 400,
  code: 'DRIVER_NOT_IMPORTABLE',
  summary: 'The driver’s record format is unknown or its settings are invalid',
  en: (name: string, problems: ManifestError[]) =>
    `Driver ${name} cannot import records: ${describe(problems)}`,
  es: (name, problems) =>
    `El controlador ${name} no puede importar registros: ${describeInSpanish(problems)}`,
  detail: (name, problems) => ({ driver: name, problems }),
  example: ['acme', [{ path: '/format', message: 'must be one of zk-attlog, csv' }]],
});

/**
 * A registered clock pushed records but its driver is not loaded or cannot import: 503, so the
 * clock keeps the lines and sends them again once the driver is fixed.
 */
export const pushDriverUnavailable = defineError<
  [serial: string, driver: string, problems: ManifestError[], retryAfterSeconds?: number]
>({
  status: 503,
  code: 'DRIVER_NOT_IMPORTABLE',
  name: 'PUSH_DRIVER_UNAVAILABLE',
  summary: 'A clock’s driver is not loaded or cannot import: the clock sends again (Retry-After)',
  en: (serial, driver, problems) =>
    `Device ${serial}'s driver ${driver} cannot import records right now: ${
      problems.length > 0 ? describe(problems) : 'it is not loaded'
    }`,
  es: (serial, driver, problems) =>
    `El controlador ${driver} del dispositivo ${serial} no puede importar registros ahora: ${
      problems.length > 0 ? describeInSpanish(problems) : 'no está cargado'
    }`,
  detail: (_serial, driver, problems) => ({ driver, problems }),
  headers: (_serial, _driver, _problems, retryAfterSeconds = 60) => ({
    'Retry-After': String(retryAfterSeconds),
  }),
  example: ['CQZ7232260011', 'zkteco-push', []],
});

export const fileRequired = defineError({
  status: 400,
  code: 'FILE_REQUIRED',
  summary: 'No file field in the form',
  en: () =>
    'Send the export as the multipart/form-data field "file", and the driver name as "driver"',
  es: () =>
    'Envíe la exportación en el campo "file" de multipart/form-data, y el nombre del controlador en "driver"',
  example: [],
});

/** The header row of a CSV export lacks columns the driver maps: nothing is imported. */
export const exportHeaderMismatch = defineError({
  status: 400,
  code: 'EXPORT_HEADER_MISMATCH',
  summary: 'The header row of a CSV export lacks a mapped column',
  en: (line: number, missing: string[], _header: string[]) =>
    `Line ${line}: the header row has no column ${missing.map((m) => JSON.stringify(m)).join(', ')}`,
  es: (line, missing) =>
    `Línea ${line}: a la fila de encabezados le falta${missing.length > 1 ? 'n las columnas' : ' la columna'} ${missing
      .map((m) => JSON.stringify(m))
      .join(', ')}`,
  detail: (line, missing, header) => ({ line, missing, header }),
  example: [1, ['documento'], ['doc', 'fecha', 'hora']],
});

export const deviceNotRegistered = defineError({
  status: 403,
  code: 'DEVICE_NOT_REGISTERED',
  summary: 'A clock whose serial is not registered',
  en: (serial: string) =>
    `Device ${JSON.stringify(serial)} is not registered: npm run devices -- register <serial> --tenant <slug> --driver <name>`,
  es: (serial) =>
    `El dispositivo ${JSON.stringify(serial)} no está registrado: npm run devices -- register <serial> --tenant <slug> --driver <name>`,
  example: ['CQZ7232260011'],
});

/** An iClock request without a serial (no SN query parameter, or an empty one). */
export const deviceSerialMissing = defineError({
  status: 400,
  code: 'DEVICE_SERIAL_MISSING',
  summary: 'An iClock request without its SN',
  en: () => 'The device serial (SN query parameter) is missing',
  es: () => 'Falta el número de serie del dispositivo (el parámetro SN de la query)',
  example: [],
});
