import { z } from 'zod';
import { campaignType } from './campaigns.ts';

/**
 * Served evidence is never destroyed. A delete (a row's Delete, Delete All, a campaign's Delete)
 * archives every record that was served (a delivery attempted or under way) and erases the others.
 * Archived records and campaigns leave every list, count and search, keep their deliveries, events
 * and PDFs, and stay downloadable as evidence; an ADMIN lists them here.
 */

/** What a delete is about to do: asked before the confirmation, so it can say so. */
export const deletePreview = z.object({
  archive: z.number().int().describe('Served records that will be archived (kept as evidence).'),
  erase: z.number().int().describe('Records never sent that will be erased.'),
});
export type DeletePreview = z.infer<typeof deletePreview>;

/** What a delete did. */
export const deleteCounts = z.object({
  archived: z.number().int().describe('Served records archived (kept as evidence, gone from every list).'),
  erased: z.number().int().describe('Records never sent, erased.'),
});
export type DeleteCounts = z.infer<typeof deleteCounts>;

export const deleteAnswer = deleteCounts.extend({ message: z.string() });
export type DeleteAnswer = z.infer<typeof deleteAnswer>;

/** Delete All's answer keeps `deleted` (archived + erased), which clients already read. */
export const deleteAllAnswer = deleteAnswer.extend({ deleted: z.number().int() });
export type DeleteAllAnswer = z.infer<typeof deleteAllAnswer>;

const owner = z.object({ _id: z.string(), username: z.string() });

export const archivedRecord = z.object({
  _id: z.string(),
  kind: campaignType,
  custName: z.string(),
  /** Loan No. for notices, Mask No. for credit cards. */
  reference: z.string(),
  campaignId: z.string(),
  campaignName: z.string().nullable(),
  owner,
  createdAt: z.string(),
  archivedAt: z.string(),
});
export type ArchivedRecord = z.infer<typeof archivedRecord>;

export const archivedRecordList = z.object({ items: z.array(archivedRecord), total: z.number().int() });
export type ArchivedRecordList = z.infer<typeof archivedRecordList>;

export const archivedCampaign = z.object({
  _id: z.string(),
  type: campaignType,
  name: z.string(),
  owner,
  date: z.string(),
  archivedAt: z.string(),
  /** Records it keeps (all archived). */
  records: z.number().int(),
});
export type ArchivedCampaign = z.infer<typeof archivedCampaign>;

export const archivedCampaignList = z.object({ items: z.array(archivedCampaign), total: z.number().int() });
export type ArchivedCampaignList = z.infer<typeof archivedCampaignList>;

const id = (value: string) => encodeURIComponent(value);
const recordSegment = (kind: 'notice' | 'credit-card') => (kind === 'notice' ? 'notices' : 'credit-cards');

/** The ADMIN's archive: lists and evidence bundles of every owner's archived records and campaigns. */
export const archivePaths = {
  records: (kind: 'notice' | 'credit-card') => `/api/archive/${recordSegment(kind)}`,
  campaigns: '/api/archive/campaigns',
  recordEvidence: (kind: 'notice' | 'credit-card', recordId: string) =>
    `/api/archive/${recordSegment(kind)}/${id(recordId)}/evidence`,
  campaignEvidence: (campaignId: string) => `/api/archive/campaigns/${id(campaignId)}/evidence`,
};

/** Asked before each delete: GET these, then say the counts in the confirmation. */
export const deletePreviewPaths = {
  record: (kind: 'notice' | 'credit-card', recordId: string) =>
    `/api/${recordSegment(kind)}/${id(recordId)}/delete-preview`,
  all: (kind: 'notice' | 'credit-card') =>
    kind === 'notice'
      ? '/api/notices/delete-all-notices/preview'
      : '/api/credit-cards/delete-all-credit-cards/preview',
  campaign: (campaignId: string) => `/api/campaigns/${id(campaignId)}/delete-preview`,
};

/** 'This will archive 2 served records (kept as evidence) and erase 3 never sent.' */
export function describeDeletePreview({ archive, erase }: DeletePreview): string {
  const records = (n: number) => `${n} ${n === 1 ? 'record' : 'records'}`;
  if (archive === 0) return `This will erase ${records(erase)} never sent.`;
  if (erase === 0) return `This will archive ${records(archive)} already served (kept as evidence).`;
  return `This will archive ${records(archive)} already served (kept as evidence) and erase ${records(erase)} never sent.`;
}
