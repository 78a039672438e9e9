import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

/** The text fields of POST /asistencia/import (multipart/form-data, beside `file`). */
export class AttendanceImportBody {
  @ApiProperty({
    description: 'Name of a file driver (GET /device-drivers)',
    example: 'zkteco-attlog',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  driver!: string;
}

export class ManifestErrorDto {
  @ApiProperty({
    description: 'JSON pointer of the offending or missing value ("" for the root)',
    example: '/transport',
  })
  path!: string;

  @ApiProperty({ example: 'must be one of file, tcp, http' })
  message!: string;
}

export class ManifestValidationDto {
  @ApiProperty({
    type: Boolean,
    description: 'The manifest follows the manifest schema: the registry loads it',
  })
  valid!: boolean;

  @ApiProperty({
    type: [ManifestErrorDto],
    description: 'Violations of the manifest schema, by path',
  })
  errors!: ManifestErrorDto[];

  @ApiProperty({
    type: [ManifestErrorDto],
    description:
      'What importing with the driver needs: a record format assumed because the manifest names none, or why it cannot import (an unknown format, invalid settings)',
    example: [{ path: '/format', message: 'not named: the ZKTeco attlog.dat layout is assumed' }],
  })
  warnings!: ManifestErrorDto[];
}

export class DriverDto {
  @ApiProperty({ description: 'The name of the driver’s directory', example: 'zkteco-attlog' })
  name!: string;

  @ApiProperty({ enum: ['builtin', 'external'], description: 'drivers/ or DEVICE_DRIVERS_PATH' })
  source!: 'builtin' | 'external';

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The manifest with the driver’s own settings',
    example: {
      vendor: 'ZKTeco',
      model: 'attlog.dat',
      transport: 'file',
      version: '1.0.0',
      format: 'zk-attlog',
    },
  })
  manifest!: Record<string, unknown>;

  @ApiProperty({
    type: Boolean,
    description:
      'The file import (POST /asistencia/import, npm run asistencia:import) takes it: a file driver whose record format is usable. false for a push (http) or tcp driver, which imports no file (the upload answers DRIVER_NOT_FILE), and for a driver whose format is unknown or whose settings are invalid (DRIVER_NOT_IMPORTABLE; warnings say why)',
  })
  importable!: boolean;

  @ApiProperty({
    type: [ManifestErrorDto],
    description: 'A record format assumed, and why the driver cannot import, by path',
  })
  warnings!: ManifestErrorDto[];
}

class BadLineDto {
  @ApiProperty({ example: 7 })
  line!: number;

  @ApiProperty({ example: 'date-time "2026-13-01 08:00:00" is not YYYY-MM-DD HH:MM:SS' })
  reason!: string;
}

/** read = inserted + duplicates + unknownDocumentPunches + badLineCount. */
export class ImportSummaryDto {
  @ApiProperty({ example: 'zkteco-attlog' })
  driver!: string;

  @ApiProperty({
    description: 'The file name, stored in asistencia_detalle.origen',
    example: 'attlog.dat',
  })
  origen!: string;

  @ApiProperty({ description: 'Lines that are not blank' })
  read!: number;

  @ApiProperty({ description: 'Well-formed punches sent to import_asistencia' })
  punches!: number;

  @ApiProperty()
  inserted!: number;

  @ApiProperty({ description: 'Punches already stored' })
  duplicates!: number;

  @ApiProperty({ type: [String], description: 'Documents matching no user (first 1000)' })
  unknownDocuments!: string[];

  @ApiProperty({ description: 'Punches of unknown documents (not stored)' })
  unknownDocumentPunches!: number;

  @ApiProperty()
  badLineCount!: number;

  @ApiProperty({ type: [BadLineDto], description: 'First 1000 bad lines' })
  badLines!: BadLineDto[];

  @ApiProperty({ description: 'Person-work days re-paired' })
  daysRecalculated!: number;
}
