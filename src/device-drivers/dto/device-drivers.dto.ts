import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

/** The text fields of POST /asistencia/import (multipart/form-data, beside `file`). */
export class ImportAsistenciaBody {
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
  @ApiProperty()
  valid!: boolean;

  @ApiProperty({ type: [ManifestErrorDto] })
  errors!: ManifestErrorDto[];
}

export class DriverDto {
  @ApiProperty({ description: 'The name of the driver’s directory', example: 'zkteco-attlog' })
  name!: string;

  @ApiProperty({ enum: ['builtin', 'external'], description: 'drivers/ or DEVICE_DRIVERS_PATH' })
  source!: 'builtin' | 'external';

  @ApiProperty({
    description: 'The manifest (seed §2.2) with the driver’s own settings',
    example: {
      vendor: 'ZKTeco',
      model: 'attlog.dat',
      transport: 'file',
      version: '1.0.0',
      format: 'zk-attlog',
    },
  })
  manifest!: Record<string, unknown>;
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

  @ApiPropertyOptional({ description: 'Person-work days re-paired' })
  daysRecalculated!: number;
}
