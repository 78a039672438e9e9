import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsDefined,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import { MAX_INT4 } from '../../common/validation';
import { PASSWORD_MAX_LENGTH, PIN_PATTERN } from '../secret-rules';

/** POST /auth/login: a manager's or office worker's document and password. */
export class LoginBody {
  @ApiProperty({ example: '40218833', maxLength: 40, description: 'The staff member’s documento' })
  @IsDefined()
  @IsString()
  @MinLength(1)
  @MaxLength(40)
  documento!: string;

  @ApiProperty({ example: 'ceviche-de-lunes', maxLength: PASSWORD_MAX_LENGTH, format: 'password' })
  @IsDefined()
  @IsString()
  @MinLength(1)
  @MaxLength(PASSWORD_MAX_LENGTH)
  password!: string;
}

/** POST /auth/pin: the floor tablet's PIN pad; with id_usuario when the tablet picked the person. */
export class PinBody {
  @ApiProperty({ example: '4827', pattern: '^\\d{4,6}$', description: '4 to 6 digits' })
  @IsDefined()
  @IsString()
  @Matches(PIN_PATTERN, { message: 'pin must be 4 to 6 digits' })
  pin!: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    example: 4,
    description: 'Whose PIN it is (optional: a PIN alone finds its owner)',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_INT4)
  id_usuario?: number;
}

export class SessionUserDto {
  @ApiProperty({ type: 'integer', example: 4 }) id_usuario!: number;
  @ApiProperty({ example: 'Jorge Luis Rojas' }) nombre!: string;
  @ApiProperty({ type: [String], example: ['mozo'] }) roles!: string[];
  @ApiProperty({ type: [String], example: ['comandas:read', 'comandas:write'] })
  permissions!: string[];
}

/** A session opened by sign-in. */
export class SessionDto {
  @ApiProperty({
    example: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ0ZW5hbnQiOiJkZW1vIn0.c2lnbmF0dXJl',
    description:
      'A JWT (HS256) with sub, tenant, exp and jti: send it in the Authorization header, after `Bearer `',
  })
  access_token!: string;

  @ApiProperty({ example: 'Bearer', enum: ['Bearer'] }) token_type!: 'Bearer';

  @ApiProperty({ format: 'date-time', example: '2026-11-24T23:00:00.000Z' })
  expires_at!: string;

  @ApiProperty({ type: SessionUserDto }) usuario!: SessionUserDto;
}

/**
 * PUT /usuarios/:id/credenciales: a new password and/or PIN (null removes it). Either ends
 * every session of the user.
 */
export class CredentialsBody {
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    minLength: 10,
    maxLength: PASSWORD_MAX_LENGTH,
    example: 'ceviche-de-lunes',
    description: 'At least 10 characters; null removes the password',
  })
  @IsOptional()
  @IsString()
  @MaxLength(PASSWORD_MAX_LENGTH * 4)
  password?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    pattern: '^\\d{4,6}$',
    example: '4827',
    description:
      '4 to 6 digits, not trivial (0000, 1234 ...), unique in the restaurant; null removes it',
  })
  @IsOptional()
  @IsString()
  @MaxLength(6 * 4)
  pin?: string | null;
}

export class CredentialsDto {
  @ApiProperty({ type: 'integer', example: 4 }) id_usuario!: number;
  @ApiProperty({ description: 'Whether the user has a password' }) password!: boolean;
  @ApiProperty({ description: 'Whether the user has a PIN' }) pin!: boolean;
  @ApiProperty({
    type: 'integer',
    example: 1,
    description: 'Open sessions of the user that this change ended',
  })
  sesiones_cerradas!: number;
}
