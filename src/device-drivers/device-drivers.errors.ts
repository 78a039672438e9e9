import {
  BadRequestError,
  ForbiddenError,
  ServiceUnavailableError,
} from '../common/errors/domain-error';
import type { ManifestError } from './driver.types';

// as describeManifestErrors writes them (not imported: the parsers import this file)
const describe = (problems: ManifestError[]) =>
  problems.map((e) => `${e.path || '/'} ${e.message}`).join('; ');

export const unknownDriver = (name: unknown, known: string[]) =>
  new BadRequestError(
    `Unknown driver ${JSON.stringify(name ?? null)}: one of ${known.join(', ')}`,
    'UNKNOWN_DRIVER',
    { drivers: known },
  );

export const driverNotFileTransport = (name: string, transport: string) =>
  new BadRequestError(
    `Driver ${name} has transport ${transport}: only file drivers import files`,
    'DRIVER_NOT_FILE',
  );

/** A loaded driver whose record format is unknown or whose settings are invalid. */
export const driverNotImportable = (name: string, problems: ManifestError[]) =>
  new BadRequestError(
    `Driver ${name} cannot import records: ${describe(problems)}`,
    'DRIVER_NOT_IMPORTABLE',
    { driver: name, problems },
  );

/**
 * A registered clock pushed records but its driver is not loaded or cannot import: 503, so the
 * clock keeps the lines and sends them again once the driver is fixed.
 */
export const pushDriverUnavailable = (
  serial: string,
  driver: string,
  problems: ManifestError[],
  retryAfterSeconds = 60,
) =>
  new ServiceUnavailableError(
    `Device ${serial}'s driver ${driver} cannot import records right now: ${
      problems.length > 0 ? describe(problems) : 'it is not loaded'
    }`,
    'DRIVER_NOT_IMPORTABLE',
    retryAfterSeconds,
    { driver, problems },
  );

export const fileRequired = () =>
  new BadRequestError(
    'Send the export as the multipart/form-data field "file", and the driver name as "driver"',
    'FILE_REQUIRED',
  );

/** The header row of a CSV export lacks columns the driver maps: nothing is imported. */
export const exportHeaderMismatch = (line: number, missing: string[], header: string[]) =>
  new BadRequestError(
    `Line ${line}: the header row has no column ${missing.map((m) => JSON.stringify(m)).join(', ')}`,
    'EXPORT_HEADER_MISMATCH',
    { line, missing, header },
  );

export const deviceNotRegistered = (serial: string) =>
  new ForbiddenError(
    `Device ${JSON.stringify(serial)} is not registered: npm run devices -- register <serial> --tenant <slug> --driver <name>`,
    'DEVICE_NOT_REGISTERED',
  );

/** An iClock request without a serial (no SN query parameter, or an empty one). */
export const deviceSerialMissing = () =>
  new BadRequestError('The device serial (SN query parameter) is missing', 'DEVICE_SERIAL_MISSING');
