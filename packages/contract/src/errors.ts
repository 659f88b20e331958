import { z } from 'zod';

/**
 * Every error the API answers has this one shape. `error` is the field map
 * (`{ username: 'Username is required!!' }`) when the problem is in named fields,
 * otherwise the same text as `message`, so a screen can show it as a toast.
 */
export const errorBody = z.object({
  statusCode: z.number(),
  code: z.string(),
  message: z.string(),
  error: z.union([z.string(), z.record(z.string(), z.string())]),
});
export type ErrorBody = z.infer<typeof errorBody>;
