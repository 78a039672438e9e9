import { NotFoundException } from '@nestjs/common';
import type { Request } from 'express';

/** Exactly the error Nest's router raises for a route that does not exist. */
export function routeNotFound(req: Pick<Request, 'method' | 'originalUrl'>): NotFoundException {
  return new NotFoundException(`Cannot ${req.method} ${req.originalUrl}`);
}
