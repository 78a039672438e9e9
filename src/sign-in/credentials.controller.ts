import { Body, Controller, Param, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { RequirePermission } from '../auth/auth.decorators';
import { ApiTag } from '../common/decorators';
import { ApiErrors, ERRORS } from '../common/http/openapi-errors';
import { ParseIdPipe } from '../common/http/parse-id.pipe';
import { TenantScoped } from '../tenancy/tenancy.decorators';
import { CredentialsBody, CredentialsDto } from './dto/sign-in.dto';
import { SIGN_IN_TAG } from './sign-in.controller';
import { SIGN_IN_ERRORS } from './sign-in.errors';
import { SignInService } from './sign-in.service';

/** PUT /usuarios/:id/credenciales: an admin sets a staff member's password and/or PIN. */
@ApiTag('auth', SIGN_IN_TAG)
@TenantScoped()
@Controller('usuarios')
export class CredentialsController {
  constructor(private readonly signIn: SignInService) {}

  @Put(':id/credenciales')
  @RequirePermission('usuarios:credenciales')
  @ApiOperation({
    summary: 'Set or remove a staff member’s password and/or PIN',
    description:
      'Stored only as slow salted hashes (scrypt); never returned. A password has at least 10 characters; a PIN has 4 to 6 digits, is not trivial (0000, 1234, 1212 ...) and is not another active staff member’s. Any change ends every open session of the user.',
  })
  @ApiOkResponse({ type: CredentialsDto, description: 'What the user has now' })
  @ApiErrors(
    SIGN_IN_ERRORS.WEAK_SECRET,
    SIGN_IN_ERRORS.EMPTY_CHANGE,
    SIGN_IN_ERRORS.USER_NOT_FOUND,
    SIGN_IN_ERRORS.PIN_IN_USE,
    ERRORS.VALIDATION_FAILED,
  )
  set(
    @Param('id', ParseIdPipe) id: number,
    @Body() body: CredentialsBody,
  ): Promise<CredentialsDto> {
    return this.signIn.setCredentials(id, body);
  }
}
