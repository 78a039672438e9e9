import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiExtension, ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Request } from 'express';
import { Public, type RequestWithUser } from '../auth/auth.decorators';
import { ApiTag } from '../common/decorators';
import { SIGN_IN_OPERATION } from '../common/http/openapi-contract';
import { validationError } from '../common/errors/common.errors';
import { ApiErrors } from '../common/http/openapi-errors';
import { TenantScoped } from '../tenancy/tenancy.decorators';
import { LoginBody, PinBody, SessionDto } from './dto/sign-in.dto';
import {
  invalidCredentials,
  signInBusyClient,
  signInBusyInstance,
  signInNotAvailable,
  signOutWithoutToken,
  tokenNotRevocable,
  tooManyAttempts,
} from './sign-in.errors';
import { SignInService } from './sign-in.service';

export const SIGN_IN_TAG =
  'Staff sign-in: a PIN on the floor tablet, a password for managers; sessions and sign-out (docs/sign-in.md)';

/** What a sign-in (password or PIN) may answer instead of a session. */
const SIGN_IN_REFUSALS = [
  invalidCredentials,
  tooManyAttempts,
  signInBusyClient,
  signInBusyInstance,
  signInNotAvailable,
  validationError,
];

/**
 * POST /auth/login, /auth/pin, /auth/logout. The first two need no token (they give one); all
 * three answer 404 SIGN_IN_NOT_AVAILABLE unless AUTH_MODE=jwt with AUTH_JWT_SECRET.
 */
@ApiTag('auth', SIGN_IN_TAG)
@TenantScoped()
@ApiExtension(SIGN_IN_OPERATION, true)
@Controller('auth')
export class SignInController {
  constructor(private readonly signIn: SignInService) {}

  @Post('login')
  @Public()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Sign in with documento and password',
    description:
      'Answers a session token (JWT, AUTH_SESSION_HOURS long). One 401 INVALID_CREDENTIALS for an unknown documento, a wrong password or an inactive user; at most 5 attempts for the account within 15 minutes, each reserved before the password is hashed (parallel guesses included): 429 TOO_MANY_ATTEMPTS with Retry-After beyond. A client address with SIGN_IN_QUEUE_PER_CLIENT sign-ins waiting for a hash gets 429 SIGN_IN_BUSY, an instance with SIGN_IN_QUEUE_MAX waiting 503 SIGN_IN_BUSY, both with Retry-After.',
  })
  @ApiOkResponse({ type: SessionDto, description: 'Signed in' })
  @ApiErrors(...SIGN_IN_REFUSALS)
  login(@Body() body: LoginBody, @Req() request: Request): Promise<SessionDto> {
    return this.signIn.login(body.documento, body.password, clientAddress(request));
  }

  @Post('pin')
  @Public()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Sign in with a PIN (the floor tablet)',
    description:
      'A PIN alone finds its owner (PINs are unique among the staff); with id_usuario, it must be that user’s. One 401 INVALID_CREDENTIALS for any wrong PIN; at most 5 attempts from one client address (or for one id_usuario) within 15 minutes, each reserved before the PIN is hashed (parallel guesses included; a success gives its own back): 429 TOO_MANY_ATTEMPTS with Retry-After beyond. The hash queue answers 429 or 503 SIGN_IN_BUSY with Retry-After as for login.',
  })
  @ApiOkResponse({ type: SessionDto, description: 'Signed in' })
  @ApiErrors(...SIGN_IN_REFUSALS)
  pin(@Body() body: PinBody, @Req() request: Request): Promise<SessionDto> {
    return this.signIn.pin(body.pin, body.id_usuario, clientAddress(request));
  }

  @Post('logout')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Sign out: the token stops working at once',
    description:
      'Revokes the session of the token sent (its jti); other sessions of the user go on. On another instance of the service the token stops within TENANT_CACHE_TTL_MS.',
  })
  @ApiNoContentResponse({ description: 'Signed out' })
  @ApiErrors(tokenNotRevocable, signInNotAvailable)
  async logout(@Req() request: RequestWithUser): Promise<void> {
    if (!request.user) throw signOutWithoutToken();
    await this.signIn.logout(request.user);
  }
}

/** The client's address as Express sees it (TRUST_PROXY decides whether X-Forwarded-For counts). */
function clientAddress(request: Request): string {
  return request.ip ?? request.socket.remoteAddress ?? 'unknown';
}
