import { BadRequestError, DomainError } from '../common/errors/domain-error';

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
  new DomainError(
    403,
    'DEVICE_NOT_REGISTERED',
    `Device ${JSON.stringify(serial)} is not registered: npm run devices -- register <serial> --tenant <slug> --driver <name>`,
  );
