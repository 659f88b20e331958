import type { CampaignType } from '@notice-desk/contract/campaigns';

/** What an import fills: credit cards or notices (the same words as a campaign's type). */
export type ImportKind = CampaignType;

/** Per kind: its endpoints, the storage keys of its status flag and tracked job, and the spec's words. */
export const importKinds = {
  'credit-card': {
    statusKey: 'creditCardImportStatus',
    jobKey: 'creditCardImportJob',
    startUrl: '/api/credit-cards/upload-credit-card-info',
    progressUrl: '/api/credit-cards/by-user-id/credit-cards-progress-count',
    sampleUrl: '/api/credit-cards/import-sample',
    sampleFileName: 'credit-card-import-sample.xlsx',
    successMessage: 'Credit Card Information Imported Successfully.',
    listTag: 'CreditCards',
    records: 'credit cards',
  },
  notice: {
    statusKey: 'noticeImportStatus',
    jobKey: 'noticeImportJob',
    startUrl: '/api/notices/upload-notice-info',
    progressUrl: '/api/notices/by-user-id/progress-count',
    sampleUrl: '/api/notices/import-sample',
    sampleFileName: 'notice-import-sample.xlsx',
    successMessage: 'Notice Information Imported Successfully.',
    listTag: 'Notices',
    records: 'notices',
  },
} as const satisfies Record<ImportKind, unknown>;

/** The report of an import's skipped rows (an .xlsx). */
export const importReportUrl = (jobId: string) => `/api/imports/${encodeURIComponent(jobId)}/report`;
