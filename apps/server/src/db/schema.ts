import type { CreditCardFields } from '@notice-desk/contract/credit-card';
import type { NoticeFields } from '@notice-desk/contract/notice';

/** Timestamps are ISO-8601 text (UTC): they sort and compare the same on SQLite and PostgreSQL. */
export interface UsersTable {
  id: string;
  name: string;
  username: string;
  password_hash: string;
  role: 'ADMIN' | 'USER';
  /** Tokens issued before this instant (epoch seconds) are refused: set when a password is reset. */
  tokens_valid_after: number;
  created_at: string;
  updated_at: string;
}

export interface PasswordResetsTable {
  id: string;
  user_id: string;
  token_hash: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}


export type RecordKind = 'credit-card' | 'notice';

export interface CampaignsTable {
  id: string;
  owner_id: string;
  kind: RecordKind;
  name: string;
  /** 'manual' for the owner's 'Manual entries' campaign of a kind, 'import' for one per imported file. */
  source: 'manual' | 'import';
  imported_count: number;
  skipped_count: number;
  created_at: string;
}

export interface RecordCountsTable {
  owner_id: string;
  kind: RecordKind;
  total: number;
  version: number;
}

interface RecordColumns {
  /** A UUIDv7: ordering by id is ordering by creation. */
  id: string;
  owner_id: string;
  campaign_id: string;
  created_at: string;
  updated_at: string;
}

export type CreditCardsTable = RecordColumns & CreditCardFields;
export type NoticesTable = RecordColumns & NoticeFields;

export interface DB {
  users: UsersTable;
  password_resets: PasswordResetsTable;
  campaigns: CampaignsTable;
  record_counts: RecordCountsTable;
  credit_cards: CreditCardsTable;
  notices: NoticesTable;
}
