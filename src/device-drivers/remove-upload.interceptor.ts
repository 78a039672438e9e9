import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { unlink } from 'node:fs/promises';
import { finalize, type Observable } from 'rxjs';

/**
 * Removes the file multer wrote to disk once the request is over, whether the handler, a pipe
 * or the validation failed. Placed after FileInterceptor.
 */
@Injectable()
export class RemoveUploadInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<Request>();
    return next.handle().pipe(
      finalize(() => {
        if (request.file?.path) void unlink(request.file.path).catch(() => undefined);
      }),
    );
  }
}
