import { Inject, Injectable } from '@nestjs/common';
import { createReadStream } from 'node:fs';
import { AttendanceImporter, type ImportSummary } from './attendance-importer';
import {
  driverNotFileTransport,
  driverNotImportable,
  fileRequired,
  unknownDriver,
} from './device-drivers.errors';
import { canParse, DriverRegistry, type ParsingDriver } from './driver-registry';

/**
 * Imports of time-clock export files: the upload of the back-office and the CLI. The file is
 * streamed from disk through the driver's parser; `origen` is the file's name.
 */
@Injectable()
export class AttendanceFilesService {
  constructor(
    @Inject(DriverRegistry) private readonly registry: DriverRegistry,
    private readonly importer: AttendanceImporter,
  ) {}

  /** A driver that reads files, or 400 UNKNOWN_DRIVER / DRIVER_NOT_FILE / DRIVER_NOT_IMPORTABLE. */
  fileDriver(name: string): ParsingDriver {
    const driver = this.registry.get(name);
    if (!driver) throw unknownDriver(name, this.registry.names());
    if (driver.manifest.transport !== 'file') {
      throw driverNotFileTransport(driver.name, driver.manifest.transport);
    }
    if (!canParse(driver)) throw driverNotImportable(driver.name, driver.problems);
    return driver;
  }

  /** POST /asistencia/import: the uploaded file (on disk, removed afterwards by the caller). */
  importUpload(file: Express.Multer.File | undefined, driverName: string): Promise<ImportSummary> {
    if (!file) throw fileRequired();
    const driver = this.fileDriver(driverName);
    return this.importer.importExport(createReadStream(file.path), driver, file.originalname);
  }

  /** npm run asistencia:import; `onProgress` after each batch, with the bytes read so far. */
  importFile(
    path: string,
    driverName: string,
    origen: string,
    onProgress?: (summary: ImportSummary, bytesRead: number) => void,
  ): Promise<ImportSummary> {
    const driver = this.fileDriver(driverName);
    const input = createReadStream(path);
    return this.importer.importExport(input, driver, origen, (summary) =>
      onProgress?.(summary, input.bytesRead),
    );
  }
}
