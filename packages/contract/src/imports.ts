import { z } from 'zod';

/** What temporary-upload answers: `data` is the stored file name to start an import with. */
export interface TemporaryUploadResponse {
  data: string;
}

/** A stored upload's name: random letters and the file's extension (.xlsx, .csv or .tsv), never a path. */
export const storedName = z
  .string({ error: 'file is required: send the name temporary-upload answered.' })
  .regex(/^[A-Za-z0-9_-]{8,64}\.(xlsx|csv|tsv)$/, {
    error: 'file must be a name temporary-upload answered, not a path.',
  });

/** A name a person gives a file or campaign: plain text, no path. */
export const plainName = z
  .string()
  .trim()
  .max(200, { error: 'The name must be at most 200 characters.' })
  .refine((name) => !/[\\/]|\.\./.test(name), { error: 'The name must be a plain file name, not a path.' });

export const startImportBody = z.object({
  file: storedName,
  /** The campaign's name; the uploaded file's name when absent. */
  name: plainName.optional(),
});
export type StartImportBody = z.infer<typeof startImportBody>;

export interface StartImportResponse {
  message: string;
  jobId: string;
}

export type ImportStatus = 'queued' | 'running' | 'done' | 'failed';

/** The caller's latest import of a kind. progressPercentage is null when there has been none. */
export interface ImportProgress {
  progressPercentage: number | null;
  jobId?: string;
  status?: ImportStatus;
  /** When it failed: what was wrong with the file, in words for the person who uploaded it. */
  error?: string | null;
  imported?: number;
  skipped?: number;
  campaignId?: string | null;
}
