import { Body, Controller, Param, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { RequirePermission } from '../auth/auth.decorators';
import { ApiTag } from '../common/decorators';
import { validationError } from '../common/errors/common.errors';
import { ApiErrors } from '../common/http/openapi-errors';
import { ParseIdPipe } from '../common/http/parse-id.pipe';
import { TenantScoped } from '../tenancy/tenancy.decorators';
import { CredentialsBody, CredentialsDto } from './dto/sign-in.dto';
import { SIGN_IN_TAG } from './sign-in.controller';
import { emptyCredentials, pinInUse, userNotFound, weakSecret } from './sign-in.errors';
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
  @ApiErrors(weakSecret, emptyCredentials, userNotFound, pinInUse, validationError)
  set(
    @Param('id', ParseIdPipe) id: number,
    @Body() body: CredentialsBody,
  ): Promise<CredentialsDto> {
    return this.signIn.setCredentials(id, body);
  }
}
