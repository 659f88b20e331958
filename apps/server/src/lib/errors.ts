/** The one error type of the server. `fields` carries per-field messages in the spec's `{ error: { field: msg } }` shape. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, fields?: Record<string, string>) =>
  new AppError(400, 'BAD_REQUEST', message, fields);
export const unauthorized = (message = 'Please sign in again.') => new AppError(401, 'UNAUTHORIZED', message);
export const forbidden = (message = 'You are not allowed to do this.') =>
  new AppError(403, 'FORBIDDEN', message);
export const notFound = (what: string) => new AppError(404, 'NOT_FOUND', `${what} not found.`);
export const conflict = (message: string, fields?: Record<string, string>) =>
  new AppError(409, 'CONFLICT', message, fields);

/** A limit was reached: 429, with how long to wait, said in the message and sent as Retry-After. */
export class TooManyRequests extends AppError {
  readonly retryAfterSeconds: number;

  constructor(what: string, msBeforeNext: number, code = 'TOO_MANY_REQUESTS') {
    const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
    super(429, code, `${what} Try again in ${waitText(seconds)}.`);
    this.retryAfterSeconds = seconds;
  }
}

/** '42 seconds', '17 minutes', '2 hours': the wait in the unit a person reads it in. */
function waitText(seconds: number): string {
  if (seconds < 120) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 120) return `${minutes} minutes`;
  return `${Math.ceil(minutes / 60)} hours`;
}
