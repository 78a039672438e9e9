/**
 * A refused administrative request (an unknown tenant, a bad slug, a driver that does not fit):
 * the CLIs print its message and exit with code 2. Not an HTTP error: no route raises it.
 */
export class AdminRequestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AdminRequestError';
  }
}
